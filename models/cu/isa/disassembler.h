// gfx90a disassembler: prints a decoded Instruction exactly as
// `llvm-objdump-14 -d --mcpu=gfx90a` prints its instruction text (mnemonic with
// the _e32/_e64/_sdwa/_dpp suffix, operands, modifiers), without the address
// and encoding comment.
#pragma once
#include <cstdint>
#include <string>

#include "models/cu/isa/instruction.h"

namespace tessera::isa {

std::string disassemble(const Instruction& inst);
// The same text into `out` (replacing what it held): a caller that lists many
// instructions reuses one buffer.
void disassemble(const Instruction& inst, std::string& out);

// Operand pieces, also used by the disassembler's own helpers.
std::string scalar_register_name(unsigned code, unsigned dwords);
std::string vector_register_name(char file, unsigned reg, unsigned dwords);  // file 'v' or 'a'

// How llvm prints an immediate of the given operand width (16, 32 or 64 bits):
// inline integers in decimal, the inline float constants by name, others in hex.
std::string immediate_text(uint64_t imm, unsigned width_bits);

}  // namespace tessera::isa
