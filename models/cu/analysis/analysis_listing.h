// `tessera disasm --analysis`: each instruction of a kernel with its value
// class, its DARSIE mark and its multicast mark, and a reason a person can read.
#pragma once
#include <ostream>
#include <string>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/isa/code_object.h"

namespace tessera::analysis {

struct MarkCounts {
  size_t instructions = 0, dr = 0, cr = 0, v = 0;
  size_t lds_reads = 0, multicast_reads = 0, pair_reads = 0;  // pair: multicast in pairs of waves only (mc2)
  size_t kernels = 0, unanalysed = 0;
};

// Lists every kernel of `object` (or only `kernel` when not empty; throws
// CodeObjectError if there is no such kernel) with its marks.
MarkCounts write_analysis(const isa::CodeObject& object, const std::string& kernel, std::ostream& out);

// The reason printed for one mark.
std::string mark_reason(const InstructionMark& mark);

}  // namespace tessera::analysis
