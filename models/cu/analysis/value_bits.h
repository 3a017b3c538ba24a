// What a 32-bit register value depends on, bit by bit: the abstract value of
// the kernel analysis (docs/ANALYSIS.md).
//
// Each bit of a value carries a set of Sources: the things that may differ
// between the waves of one workgroup and that the bit may be computed from. An
// empty set means the bit is the same in every wave, lane by lane (kernel
// arguments, workgroup IDs, constants, the lane's index in its wave). Bits are
// tracked one by one so that the analysis can follow gfx90a's packed
// work-item IDs in v0 (x in 9:0, y in 19:10, z in 29:20) through masks,
// shifts and bit-field extracts; arithmetic spreads a bit's sources only
// upwards (a carry), everything else spreads them over the whole value.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::analysis {

using Sources = uint16_t;
enum Source : Sources {
  kItemXLow = 1u << 0,   // work-item x, bits 5:0 (the lane's position when x-size is a multiple of 64)
  kItemX6 = 1u << 1,     // work-item x, bits 6 to 9, one source each: with an x-size that is a
  kItemX7 = 1u << 2,     // multiple of 64 they are the wave's index in its row, and a value
  kItemX8 = 1u << 3,     // without one of them is the same in two waves (an LDS read two
  kItemX9 = 1u << 4,     // waves of a wave grid share)
  kItemY = 1u << 5,      // work-item y
  kItemZ = 1u << 6,      // work-item z
  kMemory = 1u << 7,     // memory that may be written while the waves read it
  kWaveId = 1u << 8,     // hardware IDs, clocks, the wave's scratch offset, private memory
  kCall = 1u << 9,       // whatever a called function left in a register
};
constexpr Sources kItemXHigh = kItemX6 | kItemX7 | kItemX8 | kItemX9;  // work-item x, bits 9:6
constexpr Sources kItemX = kItemXLow | kItemXHigh;

struct Bits {
  std::array<Sources, 32> bit{};

  static Bits all(Sources s) {
    Bits b;
    b.bit.fill(s);
    return b;
  }
  Sources any() const {
    Sources s = 0;
    for (Sources b : bit) s |= b;
    return s;
  }
  Bits& operator|=(const Bits& o) {
    for (unsigned i = 0; i < 32; ++i) bit[i] |= o.bit[i];
    return *this;
  }
  Bits& operator|=(Sources s) {
    if (s)
      for (Sources& b : bit) b |= s;
    return *this;
  }
  bool operator==(const Bits& o) const { return bit == o.bit; }
  bool operator!=(const Bits& o) const { return bit != o.bit; }
};

inline Bits operator|(Bits a, const Bits& b) { return a |= b; }

// value << n (n < 32): low bits become constant zeros.
inline Bits shift_left(const Bits& v, unsigned n) {
  Bits r;
  for (unsigned i = n; i < 32; ++i) r.bit[i] = v.bit[i - n];
  return r;
}

// value >> n; an arithmetic shift copies the sign bit's sources into the top.
inline Bits shift_right(const Bits& v, unsigned n, bool arithmetic) {
  Bits r;
  for (unsigned i = 0; i + n < 32; ++i) r.bit[i] = v.bit[i + n];
  if (arithmetic)
    for (unsigned i = n ? 32 - n : 32; i < 32; ++i) r.bit[i] = v.bit[31];
  return r;
}

// value & mask for a constant mask: bits the mask clears are constant zeros.
inline Bits mask_bits(const Bits& v, uint32_t mask) {
  Bits r;
  for (unsigned i = 0; i < 32; ++i)
    if (mask >> i & 1) r.bit[i] = v.bit[i];
  return r;
}

// Bit-field extract of `width` bits at `offset`, sign-extended or not.
inline Bits extract(const Bits& v, unsigned offset, unsigned width, bool sign) {
  offset &= 31;
  width &= 31;
  if (!width) return Bits{};
  Bits r = mask_bits(shift_right(v, offset, false), width >= 32 ? ~0u : (1u << width) - 1);
  if (sign && width < 32)
    for (unsigned i = width; i < 32; ++i) r.bit[i] = r.bit[width - 1];
  return r;
}

// An addition, subtraction or multiplication's low 32 bits: bit i depends on
// bits 0..i of the operands (carries run upwards only).
inline Bits carry_up(const Bits& v) {
  Bits r;
  Sources acc = 0;
  for (unsigned i = 0; i < 32; ++i) r.bit[i] = acc |= v.bit[i];
  return r;
}

}  // namespace tessera::analysis
