// A code object's functions listed as llvm-objdump lists them: a header per
// function symbol of .text (kernels and the functions they call), then one line per instruction with its text, padded, and a
// comment holding the address and the encoding words.
#pragma once
#include <cstddef>
#include <ostream>
#include <string>

#include "models/cu/isa/code_object.h"

namespace tessera::isa {

struct ListingStats {
  size_t functions = 0;  // kernels and the functions they call
  size_t kernels = 0;
  size_t instructions = 0;
  size_t unknown = 0;  // words that decode to no gfx90a instruction
};

// Lists every function (or only kernel `kernel` when not empty;
// CodeObjectError if the code object has no such kernel). A function's code
// runs from its symbol to the next function's symbol or the end of .text.
ListingStats write_listing(const CodeObject& code, const std::string& kernel, std::ostream& out);

// One listing line: "\t<text padded>// <address>: <words>".
std::string listing_line(const std::string& text, uint64_t address, const uint32_t* words, unsigned count);
// The same line, written over `line` (whose capacity is kept from line to line).
void listing_line(std::string& line, const std::string& text, uint64_t address, const uint32_t* words,
                  unsigned count);

}  // namespace tessera::isa
