// A code object's kernels listed as llvm-objdump lists them: a header per
// kernel symbol, then one line per instruction with its text, padded, and a
// comment holding the address and the encoding words.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

#include "models/cu/isa/code_object.h"

namespace tessera::isa {

struct ListingStats {
  size_t kernels = 0;
  size_t instructions = 0;
  size_t unknown = 0;  // words that decode to no gfx90a instruction
};

// Lists every kernel (or only `kernel` when not empty; CodeObjectError if the
// code object has no such kernel). A kernel's code runs from its entry point
// to the next kernel's entry point or the end of .text.
ListingStats write_listing(const CodeObject& code, const std::string& kernel, std::ostream& out);

// One listing line: "\t<text padded>// <address>: <words>".
std::string listing_line(const std::string& text, uint64_t address, const uint32_t* words, unsigned count);

}  // namespace tessera::isa
