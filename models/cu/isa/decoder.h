// gfx90a instruction decoder: machine code to the canonical Instruction.
//
// decode() is pure and cheap (table lookups, no allocation), meant to be
// called once per PC and cached by the executor. It never reads past
// `available_words`; an encoding gfx90a does not define, or one cut short by
// the end of the buffer, yields an Instruction with op == nullptr and size 4,
// so a linear sweep can continue.
#pragma once
#include <cstddef>
#include <cstdint>

#include "models/cu/isa/instruction.h"

namespace tessera::isa {

Instruction decode(const uint32_t* words, size_t available_words, uint64_t pc);

// The value an inline-constant source code (128..208 integers, 240..248
// floats) has for an operand of type `type`; false for other codes.
bool inline_constant_value(unsigned code, DataType type, uint64_t* value);

// The value a 32-bit literal has for an operand of type `type`: the high dword
// of an f64, sign-extended for i64, zero-extended for other 64-bit types.
uint64_t literal_value(uint32_t literal, DataType type);

namespace detail {
// Shared between the decoder's translation units.
struct DecodeState {
  const uint32_t* words;
  size_t available;
  Instruction* inst;
  unsigned base_words;  // dwords before a literal would start
  bool bad = false;     // an operand field holds a value gfx90a does not define
};
Operand source_operand(DecodeState& s, unsigned code, DataType type);
Operand scalar_operand(DecodeState& s, unsigned code, DataType type);
Operand vector_operand(DecodeState& s, unsigned vgpr, DataType type, bool agpr = false);
bool decode_vop1(DecodeState& s);
bool decode_vop2(DecodeState& s);
bool decode_vopc(DecodeState& s);
bool decode_vop3(DecodeState& s);
bool decode_vop3p(DecodeState& s);
}  // namespace detail

}  // namespace tessera::isa
