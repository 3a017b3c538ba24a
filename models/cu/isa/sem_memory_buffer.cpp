// Buffer (MUBUF) semantics: loads, stores and atomics through a buffer
// resource (V#), including the swizzled, thread-indexed addressing of the
// private segment buffer that kernels use for scratch. Operands: dst[0] =
// VDATA (loads); src[0] = VADDR (index and/or offset), src[1] = VDATA (stores,
// atomics), src[2] = SRSRC (4 SGPRs), src[3] = SOFFSET; offen/idxen/offset.
// Out-of-range accesses follow the hardware: loads read 0, stores are dropped.
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

using mem::BufferLane;
using mem::BufferResource;

bool check_resource(W& w, const I& i) { return mem::check_buffer_operands(w, i); }
BufferResource resource(const W& w, const Operand& op) { return mem::buffer_resource(w, op); }
BufferLane lane_address(const W& w, const I& i, const BufferResource& r, unsigned lane) {
  return mem::buffer_lane(w, i, r, lane);
}
bool device_address(const W& w, const I& i, const BufferResource& r, const BufferLane& la, unsigned extra,
                    unsigned bytes, uint64_t& out) {
  return mem::buffer_address(w, i, r, la, extra, bytes, out);
}

template <unsigned Bytes, bool Sign, int D16>
void load(W& w, const I& i) {
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  const unsigned chunk = mem::buffer_chunk_bytes(r, Bytes);
  const uint64_t exec = w.exec();
  uint8_t buf[16];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const BufferLane la = lane_address(w, i, r, lane);
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
  const unsigned chunk = mem::buffer_chunk_bytes(r, Bytes);
  const uint64_t exec = w.exec();
  uint8_t buf[16];
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    const BufferLane la = lane_address(w, i, r, lane);
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
      const mem::AtomicOperands o = mem::atomic_operands<Op, E>(w, i.src[1], lane);
      old = mem::rmw(p, E, Op, o.src, o.cmp);
    }
    if (i.glc) {
      // Returning atomics write the old value over VDATA's first registers.
      const Operand& dst = i.dst[0].kind != OperandKind::None ? i.dst[0] : i.src[1];
      mem::set_lane(w, dst, 0, lane, static_cast<uint32_t>(old));
      if (wide) mem::set_lane(w, dst, 1, lane, static_cast<uint32_t>(old >> 32));
    }
  }
}

// --- Two-phase forms (mem_plan.h) ---


// Chunks of every active lane's in-range pieces, checked as the ExecFn checks
// them; false after faulting the wave.
bool plan_lanes(W& w, const I& i, const BufferResource& r, MemPlan& p, unsigned bytes, unsigned chunk) {
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((p.exec >> lane) & 1)) continue;
    const BufferLane la = lane_address(w, i, r, lane);
    for (unsigned c = 0; c < bytes; c += chunk) {
      uint64_t addr;
      if (!device_address(w, i, r, la, c, chunk, addr)) continue;
      if (!w.global(addr, chunk)) {
        p.chunks.clear();
        return false;
      }
      p.add(MemSpace::Global, addr, chunk, lane, lane * MemPlan::kLaneBytes + c);
    }
  }
  return true;
}

template <unsigned Bytes>
void plan_load(W& w, const I& i, MemPlan& p) {
  start_vector_plan(w, i, p, MemKind::Load);
  p.zero_data();  // lanes out of range read zero
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  plan_lanes(w, i, r, p, Bytes, mem::buffer_chunk_bytes(r, Bytes));
}

template <unsigned Bytes, int D16>
void plan_store(W& w, const I& i, MemPlan& p) {
  start_vector_plan(w, i, p, MemKind::Store);
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  if (!plan_lanes(w, i, r, p, Bytes, mem::buffer_chunk_bytes(r, Bytes))) return;
  fill_store_data(w, i.src[1], p, Width{Bytes, false, D16});
}

// One chunk per in-range lane; out-of-range lanes have none and return 0.
template <Rmw Op, Elem E>
void plan_atomic(W& w, const I& i, MemPlan& p) {
  constexpr unsigned bytes = mem::elem_bytes(E);
  start_vector_plan(w, i, p, MemKind::Atomic);
  p.zero_data();  // lanes out of range return zero
  p.op = Op;
  p.elem = E;
  p.returns_data = i.glc;
  if (!check_resource(w, i)) return;
  const BufferResource r = resource(w, i.src[2]);
  if (!plan_lanes(w, i, r, p, bytes, bytes)) return;
  fill_atomic_operands<Op, E>(w, i.src[1], p);
}

// Returning atomics write the old value over VDATA's first registers.
void complete_atomic_op(W& w, const I& i, const MemPlan& p) {
  complete_atomic(w, i.dst[0].kind != OperandKind::None ? i.dst[0] : i.src[1], p);
}

template <unsigned Bytes, bool Sign, int D16>
struct LoadOp {
  static constexpr ExecFn exec = load<Bytes, Sign, D16>;
  static constexpr PlanFn plan = plan_load<Bytes>;
  static constexpr CompleteFn complete = complete_load<Bytes, Sign, D16>;
};
template <unsigned Bytes, int D16>
struct StoreOp {
  static constexpr ExecFn exec = store<Bytes, D16>;
  static constexpr PlanFn plan = plan_store<Bytes, D16>;
  static constexpr CompleteFn complete = complete_nothing;
};
template <Rmw Op, Elem E>
struct AtomicOp {
  static constexpr ExecFn exec = atomic<Op, E>;
  static constexpr PlanFn plan = plan_atomic<Op, E>;
  static constexpr CompleteFn complete = complete_atomic_op;
};

template <class Table>
void register_all(Table& t) {
  add_op(t, "buffer_load_ubyte", LoadOp<1, false, 0>{});
  add_op(t, "buffer_load_sbyte", LoadOp<1, true, 0>{});
  add_op(t, "buffer_load_ushort", LoadOp<2, false, 0>{});
  add_op(t, "buffer_load_sshort", LoadOp<2, true, 0>{});
  add_op(t, "buffer_load_dword", LoadOp<4, false, 0>{});
  add_op(t, "buffer_load_dwordx2", LoadOp<8, false, 0>{});
  add_op(t, "buffer_load_dwordx3", LoadOp<12, false, 0>{});
  add_op(t, "buffer_load_dwordx4", LoadOp<16, false, 0>{});
  add_op(t, "buffer_load_ubyte_d16", LoadOp<1, false, 1>{});
  add_op(t, "buffer_load_ubyte_d16_hi", LoadOp<1, false, 2>{});
  add_op(t, "buffer_load_sbyte_d16", LoadOp<1, true, 1>{});
  add_op(t, "buffer_load_sbyte_d16_hi", LoadOp<1, true, 2>{});
  add_op(t, "buffer_load_short_d16", LoadOp<2, false, 1>{});
  add_op(t, "buffer_load_short_d16_hi", LoadOp<2, false, 2>{});
  add_op(t, "buffer_store_byte", StoreOp<1, 0>{});
  add_op(t, "buffer_store_byte_d16_hi", StoreOp<1, 2>{});
  add_op(t, "buffer_store_short", StoreOp<2, 0>{});
  add_op(t, "buffer_store_short_d16_hi", StoreOp<2, 2>{});
  add_op(t, "buffer_store_dword", StoreOp<4, 0>{});
  add_op(t, "buffer_store_dwordx2", StoreOp<8, 0>{});
  add_op(t, "buffer_store_dwordx3", StoreOp<12, 0>{});
  add_op(t, "buffer_store_dwordx4", StoreOp<16, 0>{});
  add_op(t, "buffer_atomic_swap", AtomicOp<Rmw::Swap, Elem::U32>{});
  add_op(t, "buffer_atomic_cmpswap", AtomicOp<Rmw::CmpSwap, Elem::U32>{});
  add_op(t, "buffer_atomic_add", AtomicOp<Rmw::Add, Elem::U32>{});
  add_op(t, "buffer_atomic_sub", AtomicOp<Rmw::Sub, Elem::U32>{});
  add_op(t, "buffer_atomic_smin", AtomicOp<Rmw::SMin, Elem::U32>{});
  add_op(t, "buffer_atomic_umin", AtomicOp<Rmw::UMin, Elem::U32>{});
  add_op(t, "buffer_atomic_smax", AtomicOp<Rmw::SMax, Elem::U32>{});
  add_op(t, "buffer_atomic_umax", AtomicOp<Rmw::UMax, Elem::U32>{});
  add_op(t, "buffer_atomic_and", AtomicOp<Rmw::And, Elem::U32>{});
  add_op(t, "buffer_atomic_or", AtomicOp<Rmw::Or, Elem::U32>{});
  add_op(t, "buffer_atomic_xor", AtomicOp<Rmw::Xor, Elem::U32>{});
  add_op(t, "buffer_atomic_inc", AtomicOp<Rmw::Inc, Elem::U32>{});
  add_op(t, "buffer_atomic_dec", AtomicOp<Rmw::Dec, Elem::U32>{});
  add_op(t, "buffer_atomic_add_f32", AtomicOp<Rmw::FAdd, Elem::F32>{});
  add_op(t, "buffer_atomic_swap_x2", AtomicOp<Rmw::Swap, Elem::U64>{});
  add_op(t, "buffer_atomic_cmpswap_x2", AtomicOp<Rmw::CmpSwap, Elem::U64>{});
  add_op(t, "buffer_atomic_add_x2", AtomicOp<Rmw::Add, Elem::U64>{});
  add_op(t, "buffer_atomic_add_f64", AtomicOp<Rmw::FAdd, Elem::F64>{});
}

}  // namespace

void register_mubuf_semantics(SemanticsTable& t) {
  register_all(t);
  // Cache maintenance: functional execution has no caches to write back or
  // invalidate (and no plan: the timing model handles these as commands).
  t.add("buffer_wbinvl1", no_op);
  t.add("buffer_wbinvl1_vol", no_op);
  t.add("buffer_wbl2", no_op);
  t.add("buffer_invl2", no_op);
}

void register_mubuf_mem_fns(MemFnsTable& t) { register_all(t); }

}  // namespace tessera::isa
