// The static analysis of a kernel's code that marks instructions for DARSIE
// (skipping redundant vector instructions across a workgroup's waves) and
// LDS reads for IWMA (multicasting one read to several waves); the lattice,
// the rules and what is conservative are in docs/ANALYSIS.md.
//
// analyze() is pure and deterministic: the compute unit calls it once per
// kernel, with the kernel's decoded instructions (in address order) and its
// descriptor, keeps the marks, and resolves them against each workgroup's
// shape with skippable() and multicast() at dispatch.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/cu/analysis/value_bits.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/instruction.h"

namespace tessera::analysis {

// How a value differs between the waves of one workgroup (lane by lane: lane
// i of one wave against lane i of another).
enum class ValueClass : uint8_t {
  Uniform,   // the same in every wave: constants, kernel arguments, workgroup IDs, the lane index
  LaneLow,   // depends on work-item x bits 5:0 only: the same in every wave when the
             // x-size is a power of two <= 64 or a multiple of 64
  LaneX,     // depends on work-item x only: the same in every wave when the x-size is a power of two <= 64
  Varying,   // may differ between waves: work-item y/z, memory that may change, hardware IDs...
};

// DARSIE's marks: definitely redundant, conditionally redundant, vector.
enum class Darsie : uint8_t { DR, CR, V };

ValueClass classify(Sources sources);

struct InstructionMark {
  uint64_t pc = 0;
  Sources sources = 0;             // what its results depend on
  ValueClass value = ValueClass::Uniform;  // the class of its results (Uniform if it writes none)
  bool writes_value = false;
  Darsie darsie = Darsie::V;
  const char* never_skipped = nullptr;  // why it is V whatever its value class, or nullptr
  bool load = false;               // a load DARSIE may skip (the skip table's load flag)
  bool memory = false;             // a memory instruction: `address` is meaningful
  Sources address = 0;             // what its address depends on
  bool lds_read = false;           // a ds_read* (the reads IWMA may multicast)
  bool multicast_read = false;     // a ds_read* whose address is the same in every wave in some shape
  Sources read_sources = 0;        // a ds_read*: its address's sources (whether its section writes the LDS does not matter)
  ValueClass multicast_class = ValueClass::Varying;  // classify(read_sources)
  // A ds_read* whose address misses one of work-item x bits 9:6 and depends on
  // nothing that differs between waves but x and y/z: with an x-size
  // that is a multiple of 64, two waves of one row (their indices differing
  // in that bit only) read the same addresses, as the waves of one row or
  // column of a wave grid read the same A or B fragment.
  bool multicast_pair = false;
  Sources control = 0;             // sources of the branches its block depends on
};

struct KernelMarks {
  std::vector<InstructionMark> marks;  // one per instruction, in the order given
  std::string unanalysed;              // not empty: the code could not be analysed (all marks V), and why

  // The mark of the instruction at `pc`, or nullptr.
  const InstructionMark* at(uint64_t pc) const;
};

// The analysis of one kernel's code: `code` holds its instructions in address
// order, from the entry point to the end of the kernel's function.
KernelMarks analyze(const std::vector<isa::Instruction>& code, const isa::KernelDescriptor& kd);

// Decodes `kernel`'s function of `object` (from its entry point to the next
// function symbol or the end of .text) and analyses it.
std::vector<isa::Instruction> kernel_code(const isa::CodeObject& object, const isa::KernelInfo& kernel);
KernelMarks analyze_kernel(const isa::CodeObject& object, const isa::KernelInfo& kernel);

// The launch rule, per workgroup shape (use a workgroup's own extent: one at
// the edge of a grid may be smaller).
struct WorkgroupShape {
  uint32_t x = 1, y = 1, z = 1;
};
// DARSIE: CR instructions are skippable iff the workgroup is 2D (y > 1, z = 1)
// and its x-size is a power of two no larger than 64; DR ones in any shape.
bool cr_skippable(const WorkgroupShape& shape);
bool skippable(const InstructionMark& mark, const WorkgroupShape& shape);
// Whether a value of class `c` is the same in every wave of a workgroup of `shape`.
bool same_in_every_wave(ValueClass c, const WorkgroupShape& shape);
// IWMA: a marked read whose address is the same in every wave of this shape,
// or the same in pairs of waves (multicast_pair) of this shape.
bool multicast(const InstructionMark& mark, const WorkgroupShape& shape);
// Whether a multicast_pair read has partners in this shape: the x-size is a
// multiple of 64 and holds both values of a bit of x (6 to 9) that the
// address does not depend on.
bool pair_in_shape(Sources read_sources, const WorkgroupShape& shape);

const char* class_name(ValueClass c);
const char* darsie_name(Darsie d);

}  // namespace tessera::analysis
