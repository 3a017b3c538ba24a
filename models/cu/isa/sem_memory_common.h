// Helpers shared by the memory semantics (the one-step ExecFns) and the
// two-phase plan/complete functions of mem_plan.h: the read-modify-write
// operations that LDS, FLAT/GLOBAL and buffer atomics have in common, per-lane
// register access for multi-dword data, and every address computation (flat,
// global and scratch lane addresses, apertures, the scratch swizzle, buffer
// resources, scalar offsets), so both execution paths compute addresses and
// report faults with the same code.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "models/cu/isa/wave.h"

namespace tessera::isa::mem {

// Atomic operations. Each computes the new memory value from the old one and
// the instruction's data (`src`) and, for compare-swap, the compare value.
// PkAddF16 adds two packed f16 pairs (32-bit elements only).
enum class Rmw : uint8_t { Swap, CmpSwap, Add, Sub, Rsub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec, FAdd, FMin, FMax, MskOr, PkAddF16 };

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

constexpr unsigned elem_bytes(Elem e) { return e == Elem::U64 || e == Elem::F64 ? 8 : 4; }

// Packed f16x2 add for *_pk_add_f16 atomics.
uint32_t pk_add_f16(uint32_t a, uint32_t b);

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
  const uint32_t v = op == Rmw::PkAddF16 ? pk_add_f16(old, s)
                     : e == Elem::F32    ? apply_float<float, uint32_t>(op, old, s, c)
                                         : apply_int<uint32_t>(op, old, s, c);
  std::memcpy(p, &v, 4);
  return old;
}

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

// The data operand of one lane of a FLAT/GLOBAL or buffer atomic: its source
// value and, for compare-swap, the compare value in the registers after it
// (VDATA = {new value, compare value}).
struct AtomicOperands {
  uint64_t src, cmp;
};
template <Rmw Op, Elem E>
inline AtomicOperands atomic_operands(const Wave& w, const Operand& data, unsigned lane) {
  constexpr bool wide = E == Elem::U64 || E == Elem::F64;
  constexpr unsigned n = wide ? 2 : 1;
  AtomicOperands o{wide ? lane_value64(w, data, 0, lane) : lane_value(w, data, 0, lane), 0};
  if (Op == Rmw::CmpSwap) o.cmp = wide ? lane_value64(w, data, n, lane) : lane_value(w, data, n, lane);
  return o;
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


// ---------------------------------------------------------------------------
// Addresses. Each helper is the single place its arithmetic lives; the
// ExecFns (sem_memory*.cpp) and the plans (mem_plan.h) both call it.

// --- FLAT, GLOBAL, SCRATCH ---
// Operands: src[0] = VADDR (64-bit, or a 32-bit offset with SADDR, or the
// private offset for scratch); src[2] = SADDR (None when "off"); `offset` signed.
enum class Space : uint8_t { Flat, Global, Scratch };

// Addresses of all 64 lanes, computed in one pass the compiler can vectorise:
// a flat/global address, or the private offset for scratch.
template <Space S>
void lane_addresses(const Wave& w, const Instruction& i, uint64_t* addr) {
  const bool saddr = i.src[2].kind != OperandKind::None;
  const uint64_t off = static_cast<uint64_t>(static_cast<int64_t>(i.offset));
  if (S == Space::Scratch) {
    const uint64_t base = off + (saddr ? w.scalar32(i.src[2]) : 0);
    const bool vaddr = i.src[0].kind == OperandKind::Vgpr;
    const uint32_t* v = vaddr ? w.lanes(i.src[0]) : nullptr;
    for (int l = 0; l < kWaveSize; ++l) addr[l] = (base + (vaddr ? v[l] : 0)) & 0xffffffffu;
    return;
  }
  if (S == Space::Global && saddr) {
    const uint64_t base = w.scalar64(i.src[2]) + off;
    const uint32_t* v = w.lanes(i.src[0]);
    for (int l = 0; l < kWaveSize; ++l) addr[l] = base + v[l];
    return;
  }
  if (i.src[0].kind != OperandKind::Vgpr && i.src[0].kind != OperandKind::Agpr) {
    for (int l = 0; l < kWaveSize; ++l) addr[l] = w.scalar64(i.src[0]) + off;
    return;
  }
  const uint32_t* lo = w.lanes(i.src[0], 0);
  const uint32_t* hi = w.lanes(i.src[0], 1);
  for (int l = 0; l < kWaveSize; ++l) addr[l] = (lo[l] | (uint64_t(hi[l]) << 32)) + off;
}

// Private memory is swizzled per dword, so wide accesses that may reach it
// (scratch, and flat through the private aperture) go dword by dword.
template <Space S>
constexpr unsigned chunk_bytes(unsigned bytes) {
  return S != Space::Global && bytes > 4 ? 4 : bytes;
}

// The device address of lane `lane`'s private byte `offset` (the layout
// Wave::scratch() documents: 4-byte elements interleaved across the 64 lanes).
inline uint64_t scratch_address(const Wave& w, uint64_t offset, unsigned lane) {
  return w.scratch_base() + (offset >> 2) * (4 * kWaveSize) + lane * 4 + (offset & 3);
}

// Where one access of `bytes` bytes at `addr` (a lane address plus the byte
// offset inside the lane's access) goes: its host pointer (nullptr after the
// wave faulted, with the message the Wave helpers give) and, for plans, the
// device address (a swizzled one for private memory) or the LDS offset.
struct Target {
  uint8_t* host;
  uint64_t addr;
  bool lds;
};

template <Space S>
inline Target resolve(Wave& w, uint64_t addr, unsigned lane, unsigned bytes) {
  if (S == Space::Scratch) {
    const uint64_t off = addr & 0xffffffffu;
    return {w.scratch(off, lane, bytes), scratch_address(w, off, lane), false};
  }
  if (S == Space::Flat) {
    const uint64_t high = addr & ~(kApertureSize - 1);
    if (high == kSharedApertureBase) {
      const uint64_t off = addr - kSharedApertureBase;
      return {w.lds(off, bytes), off, true};
    }
    if (high == kPrivateApertureBase) {
      const uint64_t off = addr - kPrivateApertureBase;
      return {w.scratch(off, lane, bytes), scratch_address(w, off, lane), false};
    }
  }
  return {w.global(addr, bytes), addr, false};
}

// Checks every active lane's access [addr, addr + bytes) at once: if the span
// from the lowest to the highest address lies inside one device allocation
// (and, for flat, touches neither aperture), returns the host pointer of
// `lo`, the lowest address; lanes then need no check of their own. Otherwise
// nullptr, and the per-lane path reports the first faulting lane exactly.
template <Space S>
uint8_t* all_lanes_in_one_allocation(Wave& w, const uint64_t* addr, uint64_t exec, unsigned bytes, uint64_t& lo) {
  if (S == Space::Scratch || !exec) return nullptr;
  uint64_t hi = 0;
  lo = ~0ull;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    const bool on = (exec >> lane) & 1;
    lo = on && addr[lane] < lo ? addr[lane] : lo;
    hi = on && addr[lane] > hi ? addr[lane] : hi;
  }
  const uint64_t end = hi + bytes;
  if (S == Space::Flat) {
    for (uint64_t aperture : {kSharedApertureBase, kPrivateApertureBase})
      if (lo < aperture + kApertureSize && end > aperture) return nullptr;
  }
  return w.global_range(lo, end);
}

// --- MUBUF ---
// Operands: src[0] = VADDR (index and/or offset), src[2] = SRSRC (4 SGPRs),
// src[3] = SOFFSET; offen/idxen/offset.

// A buffer resource (V#) in four SGPRs.
struct BufferResource {
  uint64_t base;
  uint32_t stride, num_records;
  bool swizzle, add_tid;
  uint32_t element_size, index_stride;
};

inline BufferResource buffer_resource(const Wave& w, const Operand& op) {
  uint32_t d[4];
  for (unsigned k = 0; k < 4; ++k) d[k] = w.s(static_cast<uint16_t>(op.reg + k));
  BufferResource r;
  r.base = d[0] | (uint64_t(d[1] & 0xffff) << 32);
  r.stride = (d[1] >> 16) & 0x3fff;
  r.swizzle = d[1] >> 31;
  r.num_records = d[2];
  r.element_size = 2u << ((d[3] >> 19) & 3);
  r.index_stride = 8u << ((d[3] >> 21) & 3);
  r.add_tid = (d[3] >> 23) & 1;
  return r;
}

// A lane's (index, offset) within the buffer.
struct BufferLane {
  uint64_t index, offset;
};

inline BufferLane buffer_lane(const Wave& w, const Instruction& i, const BufferResource& r, unsigned lane) {
  uint64_t index = 0, offset = static_cast<uint32_t>(i.offset);
  if (i.idxen) index = w.lanes(i.src[0])[lane];
  if (i.offen) offset += w.lanes(i.src[0], i.idxen ? 1 : 0)[lane];
  if (r.add_tid) index += lane;
  return {index, offset};
}

// Device address of byte `extra` of a lane's access (`bytes` long), or false
// if it is out of the buffer's range: loads then read 0 and stores are dropped.
inline bool buffer_address(const Wave& w, const Instruction& i, const BufferResource& r, const BufferLane& la,
                           unsigned extra, unsigned bytes, uint64_t& out) {
  const uint64_t off = la.offset + extra;
  if (r.stride == 0 && !r.add_tid) {
    if (off + bytes > r.num_records) return false;
  } else if (la.index >= r.num_records && !r.swizzle) {
    return false;
  }
  uint64_t buffer_offset;
  if (r.swizzle) {
    const uint64_t idx_msb = la.index / r.index_stride, idx_lsb = la.index % r.index_stride;
    const uint64_t off_msb = off / r.element_size, off_lsb = off % r.element_size;
    buffer_offset = (idx_msb * r.stride + off_msb * r.element_size) * r.index_stride + idx_lsb * r.element_size + off_lsb;
    if (buffer_offset + bytes > r.num_records && r.stride == 0) return false;
  } else {
    buffer_offset = la.index * r.stride + off;
  }
  out = r.base + w.scalar32(i.src[3]) + buffer_offset;
  return true;
}

// Accesses are split into dwords when the resource swizzles (the element size
// is 4 for every resource the runtime builds), so each dword is placed alone.
inline unsigned buffer_chunk_bytes(const BufferResource& r, unsigned bytes) { return r.swizzle && bytes > 4 ? 4 : bytes; }

// Faults the wave (and returns false) for what the buffer semantics refuse.
inline bool check_buffer_operands(Wave& w, const Instruction& i) {
  if (i.src[2].kind != OperandKind::Scalar || i.src[2].reg + 4 > reg::kScalarFileSize) {
    w.fault("buffer resource operand is not four scalar registers");
    return false;
  }
  if (i.lds) {
    w.fault("buffer loads into LDS (the lds bit) are not modelled");
    return false;
  }
  return true;
}

// --- SMEM ---
// Operands: dst[0] = SDATA (loads) or src[1] = SDATA (stores); src[0] = SBASE;
// src[2] = SOFFSET when present; `offset` = the immediate offset.

inline uint64_t smem_offset(const Wave& w, const Instruction& i) {
  uint64_t off = static_cast<uint64_t>(static_cast<int64_t>(i.offset));
  if (i.src[2].kind != OperandKind::None) off += w.scalar32(i.src[2]);
  return off;
}

// s_load / s_store: dwords at SBASE + offset, the low two bits ignored.
inline uint64_t smem_address(const Wave& w, const Instruction& i) {
  return (w.scalar64(i.src[0]) + smem_offset(w, i)) & ~3ull;
}

// Data registers N..N+count-1 must exist; the decoder rejects most overflows,
// but the file's end is checked here so no code can index past it.
inline bool sdata_fits(Wave& w, const Operand& op, unsigned dwords) {
  if (op.kind == OperandKind::Scalar && op.reg + dwords <= reg::kScalarFileSize) return true;
  w.fault("scalar memory data operand s" + std::to_string(op.reg) + " of " + std::to_string(dwords) +
          " dwords is not a scalar register range");
  return false;
}

// The buffer resource of s_buffer_load in four SGPRs: base 47:0, num_records in dword 2.
struct ScalarBuffer {
  uint64_t base;
  uint32_t num_records;
};
inline ScalarBuffer scalar_buffer(const Wave& w, const Operand& op) {
  const uint16_t r = op.reg;
  return {w.s(r) | (uint64_t(w.s(static_cast<uint16_t>(r + 1)) & 0xffff) << 32), w.s(static_cast<uint16_t>(r + 2))};
}

// --- DS ---
// ds_read2 / ds_write2: the byte offsets of the two elements from ADDR,
// offset0 and offset1 counted in elements of `bytes` (times 64 for st64).
inline void ds2_offsets(const Instruction& i, unsigned bytes, unsigned stride, uint32_t& o0, uint32_t& o1) {
  o0 = uint32_t(i.offset & 0xff) * bytes * stride;
  o1 = uint32_t(i.offset1) * bytes * stride;
}

}  // namespace tessera::isa::mem
