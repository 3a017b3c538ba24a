// LDS semantics (DS): reads and writes of 1 to 16 bytes, the two-address
// forms, atomics with and without return, and the cross-lane ds_swizzle,
// ds_permute and ds_bpermute. Operands: src[0] = ADDR, src[1] = DATA0,
// src[2] = DATA1, dst[0] = VDST; `offset` (offset0 in the two-address forms)
// and `offset1`. Lanes are processed in order, so conflicting atomics of one
// wave apply lowest lane first.
#include <algorithm>

#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;
using mem::Elem;
using mem::Rmw;
using mem::Width;

uint64_t lane_addr(const W& w, const I& i, unsigned lane, uint32_t extra) {
  return uint64_t(w.lanes(i.src[0])[lane]) + extra;
}

// The LDS base pointer if every active lane's accesses [a + first, a + last_end)
// lie inside the LDS, checked once over the min and max address (a pass the
// compiler vectorises), else nullptr: then each lane is checked on its own
// and the first faulting lane is reported exactly as before.
uint8_t* lds_all_lanes(W& w, const uint32_t* a, uint64_t exec, uint32_t first, uint32_t last_end) {
  if (!exec) return nullptr;
  uint32_t lo = ~0u, hi = 0;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    const bool on = (exec >> lane) & 1;
    const uint32_t v = a[lane];
    lo = on && v < lo ? v : lo;
    hi = on && v > hi ? v : hi;
  }
  uint8_t* base = w.lds_range(uint64_t(lo) + first, uint64_t(hi) + last_end);
  return base ? base - (uint64_t(lo) + first) : nullptr;
}

template <unsigned Bytes, bool Sign, int D16>
void ds_read(W& w, const I& i) {
  const uint64_t exec = w.exec();
  const uint32_t* a = w.lanes(i.src[0]);
  const uint32_t off = static_cast<uint32_t>(i.offset);
  if constexpr (Bytes % 4 == 0) {
    // Whole dwords: gather every lane, then one merged write per register.
    constexpr unsigned N = Bytes / 4;
    uint32_t out[N][kWaveSize] = {};
    const uint8_t* all = lds_all_lanes(w, a, exec, off, off + Bytes);
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((exec >> lane) & 1)) continue;
      const uint8_t* p = all ? all + a[lane] + off : w.lds(uint64_t(a[lane]) + off, Bytes);
      if (!p) return;
      for (unsigned d = 0; d < N; ++d) std::memcpy(&out[d][lane], p + 4 * d, 4);
    }
    for (unsigned d = 0; d < N; ++d) w.write32(i.dst[0], out[d], exec, d);
  } else {
    constexpr Width width{Bytes, Sign, D16};
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((exec >> lane) & 1)) continue;
      const uint8_t* p = w.lds(uint64_t(a[lane]) + off, Bytes);
      if (!p) return;
      mem::load_into(w, i.dst[0], lane, p, width);
    }
  }
}

template <unsigned Bytes, int D16>
void ds_write(W& w, const I& i) {
  constexpr Width width{Bytes, false, D16};
  const uint64_t exec = w.exec();
  const uint32_t off = static_cast<uint32_t>(i.offset);
  const uint32_t* a = w.lanes(i.src[0]);
  uint8_t* all = lds_all_lanes(w, a, exec, off, off + Bytes);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p = all ? all + a[lane] + off : w.lds(uint64_t(a[lane]) + off, Bytes);
    if (!p) return;
    mem::store_from(w, i.src[1], lane, p, width);
  }
}

// ds_read2 / ds_write2: two elements at ADDR + offset0 * size and ADDR + offset1 * size
// (size times 64 for the st64 forms).
template <unsigned Bytes, unsigned Stride>
void ds_read2(W& w, const I& i) {
  constexpr unsigned N = Bytes / 4;
  const uint64_t exec = w.exec();
  uint32_t o0, o1;
  mem::ds2_offsets(i, Bytes, Stride, o0, o1);
  const uint32_t* a = w.lanes(i.src[0]);
  uint32_t out[2 * N][kWaveSize] = {};
  uint8_t* all = lds_all_lanes(w, a, exec, std::min(o0, o1), std::max(o0, o1) + Bytes);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const uint8_t* p0 = all ? all + a[lane] + o0 : w.lds(uint64_t(a[lane]) + o0, Bytes);
    const uint8_t* p1 = all ? all + a[lane] + o1 : p0 ? w.lds(uint64_t(a[lane]) + o1, Bytes) : nullptr;
    if (!p1) return;
    for (unsigned d = 0; d < N; ++d) {
      std::memcpy(&out[d][lane], p0 + 4 * d, 4);
      std::memcpy(&out[N + d][lane], p1 + 4 * d, 4);
    }
  }
  for (unsigned d = 0; d < 2 * N; ++d) w.write32(i.dst[0], out[d], exec, d);
}

template <unsigned Bytes, unsigned Stride>
void ds_write2(W& w, const I& i) {
  constexpr Width width{Bytes, false, 0};
  const uint64_t exec = w.exec();
  uint32_t o0, o1;
  mem::ds2_offsets(i, Bytes, Stride, o0, o1);
  const uint32_t* a = w.lanes(i.src[0]);
  uint8_t* all = lds_all_lanes(w, a, exec, std::min(o0, o1), std::max(o0, o1) + Bytes);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p0 = all ? all + a[lane] + o0 : w.lds(lane_addr(w, i, lane, o0), Bytes);
    uint8_t* p1 = all ? all + a[lane] + o1 : p0 ? w.lds(lane_addr(w, i, lane, o1), Bytes) : nullptr;
    if (!p1) return;
    mem::store_from(w, i.src[1], lane, p0, width);
    mem::store_from(w, i.src[2], lane, p1, width);
  }
}

// Atomics. ds_cmpst takes the compare value in DATA0 and the new value in
// DATA1; ds_mskor takes the mask in DATA0 and the bits to set in DATA1.
template <Rmw Op, Elem E, bool Ret>
void ds_atomic(W& w, const I& i) {
  constexpr bool wide = E == Elem::U64 || E == Elem::F64;
  constexpr unsigned bytes = wide ? 8 : 4;
  const uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p = w.lds(lane_addr(w, i, lane, static_cast<uint32_t>(i.offset)), bytes);
    if (!p) return;
    const uint64_t d0 = wide ? mem::lane_value64(w, i.src[1], 0, lane) : mem::lane_value(w, i.src[1], 0, lane);
    uint64_t d1 = 0;
    if (Op == Rmw::CmpSwap || Op == Rmw::MskOr)
      d1 = wide ? mem::lane_value64(w, i.src[2], 0, lane) : mem::lane_value(w, i.src[2], 0, lane);
    const uint64_t old = Op == Rmw::CmpSwap ? mem::rmw(p, E, Op, d1, d0) : mem::rmw(p, E, Op, d0, d1);
    if (Ret) {
      mem::set_lane(w, i.dst[0], 0, lane, static_cast<uint32_t>(old));
      if (wide) mem::set_lane(w, i.dst[0], 1, lane, static_cast<uint32_t>(old >> 32));
    }
  }
}

// ds_swizzle_b32: offset bit 15 selects quad-permute mode (two bits of
// selector per lane of each quad); otherwise bit-mask mode within groups of
// 32 lanes: source = ((lane & and) | or) ^ xor. Inactive source lanes give 0.
void ds_swizzle(W& w, const I& i) {
  const uint32_t ctl = static_cast<uint32_t>(i.offset) & 0xffff;
  const uint64_t exec = w.exec();
  const uint32_t* src = w.lanes(i.src[0]);
  uint32_t out[kWaveSize];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    unsigned from;
    if (ctl & 0x8000) {
      from = (lane & ~3u) | ((ctl >> (2 * (lane & 3))) & 3);
    } else {
      const unsigned and_mask = ctl & 0x1f, or_mask = (ctl >> 5) & 0x1f, xor_mask = (ctl >> 10) & 0x1f;
      from = (lane & 0x20) | ((((lane & 0x1f) & and_mask) | or_mask) ^ xor_mask);
    }
    out[lane] = ((exec >> from) & 1) ? src[from] : 0;
  }
  w.write32(i.dst[0], out, exec);
}

// ds_permute_b32 (forward: lane L writes its DATA0 to lane (ADDR+offset)/4)
// and ds_bpermute_b32 (backward: lane L reads DATA0 of lane (ADDR+offset)/4),
// lane numbers modulo 64. Lanes nobody writes, and reads of inactive lanes, give 0.
void ds_permute(W& w, const I& i) {
  const uint64_t exec = w.exec();
  const uint32_t* addr = w.lanes(i.src[0]);
  const uint32_t* data = w.lanes(i.src[1]);
  uint32_t out[kWaveSize] = {};
  for (unsigned lane = 0; lane < kWaveSize; ++lane)
    if ((exec >> lane) & 1) out[((addr[lane] + uint32_t(i.offset)) >> 2) & 63] = data[lane];
  w.write32(i.dst[0], out, exec);
}
void ds_bpermute(W& w, const I& i) {
  const uint64_t exec = w.exec();
  const uint32_t* addr = w.lanes(i.src[0]);
  const uint32_t* data = w.lanes(i.src[1]);
  uint32_t out[kWaveSize];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    const unsigned from = ((addr[lane] + uint32_t(i.offset)) >> 2) & 63;
    out[lane] = ((exec >> from) & 1) ? data[from] : 0;
  }
  w.write32(i.dst[0], out, exec);
}

// Each instruction's ExecFn and its LDS access shape (mem_plan.h), registered
// from one list: Addresses per lane (0 for no LDS bank access), Bytes per
// address, the offsets' element Stride for the two-address forms.
template <ExecFn F, unsigned Addresses, unsigned Bytes, unsigned Stride = 1>
struct DsOp {
  static constexpr ExecFn exec = F;
  static constexpr LdsShape shape{Addresses, Bytes, Stride};
};
template <ExecFn F>
using NoBank = DsOp<F, 0, 0>;
template <unsigned Bytes, bool Sign, int D16>
using Read = DsOp<ds_read<Bytes, Sign, D16>, 1, Bytes>;
template <unsigned Bytes, int D16>
using Write = DsOp<ds_write<Bytes, D16>, 1, Bytes>;
template <unsigned Bytes, unsigned Stride>
using Read2 = DsOp<ds_read2<Bytes, Stride>, 2, Bytes, Stride>;
template <unsigned Bytes, unsigned Stride>
using Write2 = DsOp<ds_write2<Bytes, Stride>, 2, Bytes, Stride>;
template <Rmw Op, Elem E, bool Ret>
using Atomic = DsOp<ds_atomic<Op, E, Ret>, 1, mem::elem_bytes(E)>;

template <class Table>
void register_ds_atomics(Table& t) {
  // Names: ds_<op>_<type> without return, ds_<op>_rtn_<type> with.
#define TESSERA_DS_ATOMIC(op_name, type, op, elem)                                   \
  add_op(t, "ds_" op_name "_" type, Atomic<Rmw::op, Elem::elem, false>{}); \
  add_op(t, "ds_" op_name "_rtn_" type, Atomic<Rmw::op, Elem::elem, true>{});
  TESSERA_DS_ATOMIC("add", "u32", Add, U32)
  TESSERA_DS_ATOMIC("sub", "u32", Sub, U32)
  TESSERA_DS_ATOMIC("rsub", "u32", Rsub, U32)
  TESSERA_DS_ATOMIC("inc", "u32", Inc, U32)
  TESSERA_DS_ATOMIC("dec", "u32", Dec, U32)
  TESSERA_DS_ATOMIC("min", "i32", SMin, U32)
  TESSERA_DS_ATOMIC("max", "i32", SMax, U32)
  TESSERA_DS_ATOMIC("min", "u32", UMin, U32)
  TESSERA_DS_ATOMIC("max", "u32", UMax, U32)
  TESSERA_DS_ATOMIC("and", "b32", And, U32)
  TESSERA_DS_ATOMIC("or", "b32", Or, U32)
  TESSERA_DS_ATOMIC("xor", "b32", Xor, U32)
  TESSERA_DS_ATOMIC("mskor", "b32", MskOr, U32)
  TESSERA_DS_ATOMIC("cmpst", "b32", CmpSwap, U32)
  TESSERA_DS_ATOMIC("cmpst", "f32", CmpSwap, F32)
  TESSERA_DS_ATOMIC("min", "f32", FMin, F32)
  TESSERA_DS_ATOMIC("max", "f32", FMax, F32)
  TESSERA_DS_ATOMIC("add", "f32", FAdd, F32)
  TESSERA_DS_ATOMIC("add", "u64", Add, U64)
  TESSERA_DS_ATOMIC("sub", "u64", Sub, U64)
  TESSERA_DS_ATOMIC("rsub", "u64", Rsub, U64)
  TESSERA_DS_ATOMIC("inc", "u64", Inc, U64)
  TESSERA_DS_ATOMIC("dec", "u64", Dec, U64)
  TESSERA_DS_ATOMIC("min", "i64", SMin, U64)
  TESSERA_DS_ATOMIC("max", "i64", SMax, U64)
  TESSERA_DS_ATOMIC("min", "u64", UMin, U64)
  TESSERA_DS_ATOMIC("max", "u64", UMax, U64)
  TESSERA_DS_ATOMIC("and", "b64", And, U64)
  TESSERA_DS_ATOMIC("or", "b64", Or, U64)
  TESSERA_DS_ATOMIC("xor", "b64", Xor, U64)
  TESSERA_DS_ATOMIC("mskor", "b64", MskOr, U64)
  TESSERA_DS_ATOMIC("cmpst", "b64", CmpSwap, U64)
  TESSERA_DS_ATOMIC("cmpst", "f64", CmpSwap, F64)
  TESSERA_DS_ATOMIC("min", "f64", FMin, F64)
  TESSERA_DS_ATOMIC("max", "f64", FMax, F64)
  TESSERA_DS_ATOMIC("add", "f64", FAdd, F64)
#undef TESSERA_DS_ATOMIC
  add_op(t, "ds_wrxchg_rtn_b32", Atomic<Rmw::Swap, Elem::U32, true>{});
  add_op(t, "ds_wrxchg_rtn_b64", Atomic<Rmw::Swap, Elem::U64, true>{});
}

template <class Table>
void register_all(Table& t) {
  add_op(t, "ds_nop", NoBank<no_op>{});
  add_op(t, "ds_read_b32", Read<4, false, 0>{});
  add_op(t, "ds_read_b64", Read<8, false, 0>{});
  add_op(t, "ds_read_b96", Read<12, false, 0>{});
  add_op(t, "ds_read_b128", Read<16, false, 0>{});
  add_op(t, "ds_read_u8", Read<1, false, 0>{});
  add_op(t, "ds_read_i8", Read<1, true, 0>{});
  add_op(t, "ds_read_u16", Read<2, false, 0>{});
  add_op(t, "ds_read_i16", Read<2, true, 0>{});
  add_op(t, "ds_read_u8_d16", Read<1, false, 1>{});
  add_op(t, "ds_read_u8_d16_hi", Read<1, false, 2>{});
  add_op(t, "ds_read_i8_d16", Read<1, true, 1>{});
  add_op(t, "ds_read_i8_d16_hi", Read<1, true, 2>{});
  add_op(t, "ds_read_u16_d16", Read<2, false, 1>{});
  add_op(t, "ds_read_u16_d16_hi", Read<2, false, 2>{});
  add_op(t, "ds_write_b8", Write<1, 0>{});
  add_op(t, "ds_write_b16", Write<2, 0>{});
  add_op(t, "ds_write_b8_d16_hi", Write<1, 2>{});
  add_op(t, "ds_write_b16_d16_hi", Write<2, 2>{});
  add_op(t, "ds_write_b32", Write<4, 0>{});
  add_op(t, "ds_write_b64", Write<8, 0>{});
  add_op(t, "ds_write_b96", Write<12, 0>{});
  add_op(t, "ds_write_b128", Write<16, 0>{});
  add_op(t, "ds_read2_b32", Read2<4, 1>{});
  add_op(t, "ds_read2st64_b32", Read2<4, 64>{});
  add_op(t, "ds_read2_b64", Read2<8, 1>{});
  add_op(t, "ds_read2st64_b64", Read2<8, 64>{});
  add_op(t, "ds_write2_b32", Write2<4, 1>{});
  add_op(t, "ds_write2st64_b32", Write2<4, 64>{});
  add_op(t, "ds_write2_b64", Write2<8, 1>{});
  add_op(t, "ds_write2st64_b64", Write2<8, 64>{});
  add_op(t, "ds_swizzle_b32", NoBank<ds_swizzle>{});
  add_op(t, "ds_permute_b32", NoBank<ds_permute>{});
  add_op(t, "ds_bpermute_b32", NoBank<ds_bpermute>{});
  register_ds_atomics(t);
}

}  // namespace

void register_ds_semantics(SemanticsTable& t) { register_all(t); }
void register_ds_shapes(LdsShapeTable& t) { register_all(t); }

}  // namespace tessera::isa
