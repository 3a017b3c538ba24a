// Helpers shared by the memory semantics: the read-modify-write operations
// that LDS, FLAT/GLOBAL and buffer atomics have in common, and per-lane
// register access for multi-dword data.
#pragma once
#include <cstdint>
#include <cstring>

#include "models/cu/isa/wave.h"

namespace tessera::isa::mem {

// Atomic operations. Each computes the new memory value from the old one and
// the instruction's data (`src`) and, for compare-swap, the compare value.
enum class Rmw : uint8_t { Swap, CmpSwap, Add, Sub, Rsub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec, FAdd, FMin, FMax, MskOr };

template <class T>
T apply_int(Rmw op, T old, T src, T cmp) {
  using S = typename std::make_signed<T>::type;
  switch (op) {
    case Rmw::Swap: return src;
    case Rmw::CmpSwap: return old == cmp ? src : old;
    case Rmw::Add: return old + src;
    case Rmw::Sub: return old - src;
    case Rmw::Rsub: return src - old;
    case Rmw::SMin: return S(src) < S(old) ? src : old;
    case Rmw::UMin: return src < old ? src : old;
    case Rmw::SMax: return S(src) > S(old) ? src : old;
    case Rmw::UMax: return src > old ? src : old;
    case Rmw::And: return old & src;
    case Rmw::Or: return old | src;
    case Rmw::Xor: return old ^ src;
    case Rmw::Inc: return old >= src ? 0 : old + 1;
    case Rmw::Dec: return (old == 0 || old > src) ? src : old - 1;
    case Rmw::MskOr: return (old & ~src) | cmp;  // ds_mskor: (MEM & ~DATA) | DATA2
    default: return old;
  }
}

template <class F, class T>
T apply_float(Rmw op, T old_bits, T src_bits, T cmp_bits) {
  F old, src, cmp;
  std::memcpy(&old, &old_bits, sizeof(F));
  std::memcpy(&src, &src_bits, sizeof(F));
  std::memcpy(&cmp, &cmp_bits, sizeof(F));
  F r = old;
  switch (op) {
    case Rmw::FAdd: r = old + src; break;
    // NaN operands: the other value wins, as IEEE minNum/maxNum.
    case Rmw::FMin: r = (src < old || old != old) ? src : old; break;
    case Rmw::FMax: r = (src > old || old != old) ? src : old; break;
    case Rmw::CmpSwap: r = old == cmp ? src : old; break;
    default: return apply_int<T>(op, old_bits, src_bits, cmp_bits);
  }
  T out;
  std::memcpy(&out, &r, sizeof(F));
  return out;
}

enum class Elem : uint8_t { U32, U64, F32, F64 };

// Applies `op` at `p` (4 or 8 bytes); returns the old value.
inline uint64_t rmw(uint8_t* p, Elem e, Rmw op, uint64_t src, uint64_t cmp) {
  if (e == Elem::U64 || e == Elem::F64) {
    uint64_t old;
    std::memcpy(&old, p, 8);
    const uint64_t v = e == Elem::F64 ? apply_float<double, uint64_t>(op, old, src, cmp) : apply_int<uint64_t>(op, old, src, cmp);
    std::memcpy(p, &v, 8);
    return old;
  }
  uint32_t old;
  std::memcpy(&old, p, 4);
  const uint32_t s = static_cast<uint32_t>(src), c = static_cast<uint32_t>(cmp);
  const uint32_t v = e == Elem::F32 ? apply_float<float, uint32_t>(op, old, s, c) : apply_int<uint32_t>(op, old, s, c);
  std::memcpy(p, &v, 4);
  return old;
}

// Packed f16x2 add for *_pk_add_f16 atomics.
uint32_t pk_add_f16(uint32_t a, uint32_t b);

// Lane `lane` of register `dword` of a vector operand.
inline uint32_t lane_value(const Wave& w, const Operand& op, unsigned dword, unsigned lane) {
  if (op.kind == OperandKind::Vgpr || op.kind == OperandKind::Agpr) return w.lanes(op, dword)[lane];
  return static_cast<uint32_t>(dword ? w.scalar64(op) >> 32 : w.scalar64(op));
}
inline uint64_t lane_value64(const Wave& w, const Operand& op, unsigned first_dword, unsigned lane) {
  return lane_value(w, op, first_dword, lane) | (uint64_t(lane_value(w, op, first_dword + 1, lane)) << 32);
}
inline void set_lane(Wave& w, const Operand& op, unsigned dword, unsigned lane, uint32_t v) {
  if (op.kind == OperandKind::Vgpr || op.kind == OperandKind::Agpr) w.lanes(op, dword)[lane] = v;
}

// Bytes and sign of the small load/store forms.
struct Width {
  unsigned bytes;
  bool sign;      // sign-extend a sub-dword load
  int d16;        // 0: whole dword(s); 1: into the low 16 bits; 2: into the high 16 bits
};

// Writes a loaded value of `w.bytes` bytes (at `p`) into lane `lane` of dst.
inline void load_into(Wave& wave, const Operand& dst, unsigned lane, const uint8_t* p, const Width& w) {
  if (w.bytes >= 4) {
    for (unsigned d = 0; d < w.bytes / 4; ++d) {
      uint32_t v;
      std::memcpy(&v, p + 4 * d, 4);
      set_lane(wave, dst, d, lane, v);
    }
    return;
  }
  uint32_t v = w.bytes == 1 ? (w.sign ? uint32_t(int32_t(int8_t(p[0]))) : p[0]) : 0;
  if (w.bytes == 2) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    v = w.sign ? uint32_t(int32_t(int16_t(h))) : h;
  }
  if (w.d16) {
    const uint32_t old = lane_value(wave, dst, 0, lane);
    v = w.d16 == 1 ? (old & 0xffff0000u) | (v & 0xffff) : (old & 0xffff) | (v << 16);
  }
  set_lane(wave, dst, 0, lane, v);
}

// The bytes a store of `w.bytes` writes for lane `lane` of data operand `src`.
inline void store_from(const Wave& wave, const Operand& src, unsigned lane, uint8_t* p, const Width& w) {
  if (w.bytes >= 4) {
    for (unsigned d = 0; d < w.bytes / 4; ++d) {
      const uint32_t v = lane_value(wave, src, d, lane);
      std::memcpy(p + 4 * d, &v, 4);
    }
    return;
  }
  uint32_t v = lane_value(wave, src, 0, lane);
  if (w.d16 == 2) v >>= 16;
  std::memcpy(p, &v, w.bytes);
}

}  // namespace tessera::isa::mem
