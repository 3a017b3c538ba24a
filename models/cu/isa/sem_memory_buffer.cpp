// Buffer (MUBUF) semantics: loads, stores and atomics through a buffer
// resource (V#), including the swizzled, thread-indexed addressing of the
// private segment buffer that kernels use for scratch. Operands: dst[0] =
// VDATA (loads); src[0] = VADDR (index and/or offset), src[1] = VDATA (stores,
// atomics), src[2] = SRSRC (4 SGPRs), src[3] = SOFFSET; offen/idxen/offset.
// Out-of-range accesses follow the hardware: loads read 0, stores are dropped.
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;
using mem::Elem;
using mem::Rmw;
using mem::Width;

struct BufferResource {
  uint64_t base;
  uint32_t stride, num_records;
  bool swizzle, add_tid;
  uint32_t element_size, index_stride;
};

BufferResource resource(const W& w, const Operand& op) {
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

// Lane address computation: (index, offset) within the buffer.
struct LaneAddress {
  uint64_t index, offset;
};

LaneAddress lane_address(const W& w, const I& i, const BufferResource& r, unsigned lane) {
  uint64_t index = 0, offset = static_cast<uint32_t>(i.offset);
  if (i.idxen) index = w.lanes(i.src[0])[lane];
  if (i.offen) offset += w.lanes(i.src[0], i.idxen ? 1 : 0)[lane];
  if (r.add_tid) index += lane;
  return {index, offset};
}

// Byte address of byte `extra` of the access, or false if out of range.
bool device_address(const W& w, const I& i, const BufferResource& r, const LaneAddress& la, unsigned extra,
                    unsigned bytes, uint64_t& out) {
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
bool check_resource(W& w, const I& i) {
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

template <unsigned Bytes, bool Sign, int D16>
void load(W& w, const I& i) {
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  const unsigned chunk = r.swizzle && Bytes > 4 ? 4 : Bytes;
  const uint64_t exec = w.exec();
  uint8_t buf[16];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const LaneAddress la = lane_address(w, i, r, lane);
    for (unsigned c = 0; c < Bytes; c += chunk) {
      uint64_t addr;
      if (!device_address(w, i, r, la, c, chunk, addr)) {
        std::memset(buf + c, 0, chunk);
        continue;
      }
      const uint8_t* p = w.global(addr, chunk);
      if (!p) return;
      std::memcpy(buf + c, p, chunk);
    }
    mem::load_into(w, i.dst[0], lane, buf, Width{Bytes, Sign, D16});
  }
}

template <unsigned Bytes, int D16>
void store(W& w, const I& i) {
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  const unsigned chunk = r.swizzle && Bytes > 4 ? 4 : Bytes;
  const uint64_t exec = w.exec();
  uint8_t buf[16];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const LaneAddress la = lane_address(w, i, r, lane);
    mem::store_from(w, i.src[1], lane, buf, Width{Bytes, false, D16});
    for (unsigned c = 0; c < Bytes; c += chunk) {
      uint64_t addr;
      if (!device_address(w, i, r, la, c, chunk, addr)) continue;
      uint8_t* p = w.global(addr, chunk);
      if (!p) return;
      std::memcpy(p, buf + c, chunk);
    }
  }
}

template <Rmw Op, Elem E>
void atomic(W& w, const I& i) {
  if (!check_resource(w, i)) return;
  constexpr bool wide = E == Elem::U64 || E == Elem::F64;
  constexpr unsigned bytes = wide ? 8 : 4;
  const BufferResource r = resource(w, i.src[2]);
  const uint64_t exec = w.exec();
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint64_t addr;
    uint64_t old = 0;
    if (device_address(w, i, r, lane_address(w, i, r, lane), 0, bytes, addr)) {
      uint8_t* p = w.global(addr, bytes);
      if (!p) return;
      const unsigned n = wide ? 2 : 1;
      const uint64_t src = wide ? mem::lane_value64(w, i.src[1], 0, lane) : mem::lane_value(w, i.src[1], 0, lane);
      uint64_t cmp = 0;
      if (Op == Rmw::CmpSwap) cmp = wide ? mem::lane_value64(w, i.src[1], n, lane) : mem::lane_value(w, i.src[1], n, lane);
      old = mem::rmw(p, E, Op, src, cmp);
    }
    if (i.glc) {
      // Returning atomics write the old value over VDATA's first registers.
      const Operand& dst = i.dst[0].kind != OperandKind::None ? i.dst[0] : i.src[1];
      mem::set_lane(w, dst, 0, lane, static_cast<uint32_t>(old));
      if (wide) mem::set_lane(w, dst, 1, lane, static_cast<uint32_t>(old >> 32));
    }
  }
}

void no_op(W&, const I&) {}

}  // namespace

void register_mubuf_semantics(SemanticsTable& t) {
  t.add("buffer_load_ubyte", load<1, false, 0>);
  t.add("buffer_load_sbyte", load<1, true, 0>);
  t.add("buffer_load_ushort", load<2, false, 0>);
  t.add("buffer_load_sshort", load<2, true, 0>);
  t.add("buffer_load_dword", load<4, false, 0>);
  t.add("buffer_load_dwordx2", load<8, false, 0>);
  t.add("buffer_load_dwordx3", load<12, false, 0>);
  t.add("buffer_load_dwordx4", load<16, false, 0>);
  t.add("buffer_load_ubyte_d16", load<1, false, 1>);
  t.add("buffer_load_ubyte_d16_hi", load<1, false, 2>);
  t.add("buffer_load_sbyte_d16", load<1, true, 1>);
  t.add("buffer_load_sbyte_d16_hi", load<1, true, 2>);
  t.add("buffer_load_short_d16", load<2, false, 1>);
  t.add("buffer_load_short_d16_hi", load<2, false, 2>);
  t.add("buffer_store_byte", store<1, 0>);
  t.add("buffer_store_byte_d16_hi", store<1, 2>);
  t.add("buffer_store_short", store<2, 0>);
  t.add("buffer_store_short_d16_hi", store<2, 2>);
  t.add("buffer_store_dword", store<4, 0>);
  t.add("buffer_store_dwordx2", store<8, 0>);
  t.add("buffer_store_dwordx3", store<12, 0>);
  t.add("buffer_store_dwordx4", store<16, 0>);
  t.add("buffer_atomic_swap", atomic<Rmw::Swap, Elem::U32>);
  t.add("buffer_atomic_cmpswap", atomic<Rmw::CmpSwap, Elem::U32>);
  t.add("buffer_atomic_add", atomic<Rmw::Add, Elem::U32>);
  t.add("buffer_atomic_sub", atomic<Rmw::Sub, Elem::U32>);
  t.add("buffer_atomic_smin", atomic<Rmw::SMin, Elem::U32>);
  t.add("buffer_atomic_umin", atomic<Rmw::UMin, Elem::U32>);
  t.add("buffer_atomic_smax", atomic<Rmw::SMax, Elem::U32>);
  t.add("buffer_atomic_umax", atomic<Rmw::UMax, Elem::U32>);
  t.add("buffer_atomic_and", atomic<Rmw::And, Elem::U32>);
  t.add("buffer_atomic_or", atomic<Rmw::Or, Elem::U32>);
  t.add("buffer_atomic_xor", atomic<Rmw::Xor, Elem::U32>);
  t.add("buffer_atomic_inc", atomic<Rmw::Inc, Elem::U32>);
  t.add("buffer_atomic_dec", atomic<Rmw::Dec, Elem::U32>);
  t.add("buffer_atomic_add_f32", atomic<Rmw::FAdd, Elem::F32>);
  t.add("buffer_atomic_swap_x2", atomic<Rmw::Swap, Elem::U64>);
  t.add("buffer_atomic_cmpswap_x2", atomic<Rmw::CmpSwap, Elem::U64>);
  t.add("buffer_atomic_add_x2", atomic<Rmw::Add, Elem::U64>);
  t.add("buffer_atomic_add_f64", atomic<Rmw::FAdd, Elem::F64>);
  // Cache maintenance: functional execution has no caches to write back or invalidate.
  t.add("buffer_wbinvl1", no_op);
  t.add("buffer_wbinvl1_vol", no_op);
  t.add("buffer_wbl2", no_op);
  t.add("buffer_invl2", no_op);
}

}  // namespace tessera::isa
