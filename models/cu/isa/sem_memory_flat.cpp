// FLAT, GLOBAL and SCRATCH semantics: per-lane loads, stores and atomics under
// EXEC. Operands: dst[0] = VDST; src[0] = VADDR (64-bit, or a 32-bit offset
// with SADDR, or the private offset for scratch); src[1] = VDATA; src[2] =
// SADDR (None when "off"); `offset` signed; `glc` on an atomic returns the
// old value.
#include "models/cu/isa/float_ops.h"
#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

uint32_t mem::pk_add_f16(uint32_t a, uint32_t b) {
  const uint16_t lo = fp::f32_to_f16(fp::f16_to_f32(uint16_t(a)) + fp::f16_to_f32(uint16_t(b)));
  const uint16_t hi = fp::f32_to_f16(fp::f16_to_f32(uint16_t(a >> 16)) + fp::f16_to_f32(uint16_t(b >> 16)));
  return lo | (uint32_t(hi) << 16);
}

namespace {

using W = Wave;
using I = Instruction;
using mem::Elem;
using mem::Rmw;
using mem::Width;

using mem::Space;

// The host pointer of lane `lane`'s access at `addr` (+ `extra` bytes), or nullptr after a fault.
template <Space S>
uint8_t* lane_ptr(W& w, uint64_t addr, unsigned lane, unsigned bytes, unsigned extra = 0) {
  return mem::resolve<S>(w, addr + extra, lane, bytes).host;
}

template <Space S, unsigned Bytes, bool Sign, int D16>
void load(W& w, const I& i) {
  const uint64_t exec = w.exec();
  constexpr unsigned chunk = mem::chunk_bytes<S>(Bytes);
  uint8_t buf[16];
  uint64_t addr[kWaveSize];
  mem::lane_addresses<S>(w, i, addr);
  uint64_t lo = 0;
  if (const uint8_t* all = mem::all_lanes_in_one_allocation<S>(w, addr, exec, Bytes, lo)) {
    for (unsigned lane = 0; lane < kWaveSize; ++lane)
      if ((exec >> lane) & 1) mem::load_into(w, i.dst[0], lane, all + (addr[lane] - lo), Width{Bytes, Sign, D16});
    return;
  }
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    for (unsigned c = 0; c < Bytes; c += chunk) {
      const uint8_t* p = lane_ptr<S>(w, addr[lane], lane, chunk, c);
      if (!p) return;
      std::memcpy(buf + c, p, chunk);
    }
    mem::load_into(w, i.dst[0], lane, buf, Width{Bytes, Sign, D16});
  }
}

template <Space S, unsigned Bytes, int D16>
void store(W& w, const I& i) {
  const uint64_t exec = w.exec();
  constexpr unsigned chunk = mem::chunk_bytes<S>(Bytes);
  uint8_t buf[16];
  uint64_t addr[kWaveSize];
  mem::lane_addresses<S>(w, i, addr);
  uint64_t lo = 0;
  if (uint8_t* all = mem::all_lanes_in_one_allocation<S>(w, addr, exec, Bytes, lo)) {
    for (unsigned lane = 0; lane < kWaveSize; ++lane)
      if ((exec >> lane) & 1) mem::store_from(w, i.src[1], lane, all + (addr[lane] - lo), Width{Bytes, false, D16});
    return;
  }
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    mem::store_from(w, i.src[1], lane, buf, Width{Bytes, false, D16});
    for (unsigned c = 0; c < Bytes; c += chunk) {
      uint8_t* p = lane_ptr<S>(w, addr[lane], lane, chunk, c);
      if (!p) return;
      std::memcpy(p, buf + c, chunk);
    }
  }
}

// Compare-swap data is {new value, compare value} in consecutive registers.
template <Space S, Rmw Op, Elem E>
void atomic(W& w, const I& i) {
  constexpr bool wide = E == Elem::U64 || E == Elem::F64;
  constexpr unsigned bytes = wide ? 8 : 4;
  const uint64_t exec = w.exec();
  uint64_t addr[kWaveSize];
  mem::lane_addresses<S>(w, i, addr);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p = lane_ptr<S>(w, addr[lane], lane, bytes);
    if (!p) return;
    const mem::AtomicOperands o = mem::atomic_operands<Op, E>(w, i.src[1], lane);
    const uint64_t old = mem::rmw(p, E, Op, o.src, o.cmp);
    if (i.glc && i.dst[0].kind != OperandKind::None) {
      mem::set_lane(w, i.dst[0], 0, lane, static_cast<uint32_t>(old));
      if (wide) mem::set_lane(w, i.dst[0], 1, lane, static_cast<uint32_t>(old >> 32));
    }
  }
}

// --- Two-phase forms (mem_plan.h) ---

// The active lanes are lanes 0..n-1 (EXEC a run of low bits, not empty),
// each `bytes` after the one before: one run of n * bytes from addr[0].
bool unit_stride(const uint64_t* addr, uint64_t exec, unsigned bytes) {
  if (exec & (exec + 1)) return false;
  const unsigned n = exec == ~0ull ? kWaveSize : static_cast<unsigned>(__builtin_ctzll(~exec));
  bool ok = true;  // (no early exit: the loop vectorises)
  for (unsigned lane = 1; lane < n; ++lane) ok &= addr[lane] == addr[0] + uint64_t(lane) * bytes;
  return ok;
}

// Lists the chunks of every lane in the plan's EXEC, `chunk` bytes at a time
// as the ExecFn checks them (merged back where contiguous), and checks each
// exactly as the ExecFn does; false after faulting the wave. With `pack`
// (loads and stores) and every lane in one allocation, the data is packed
// (MemPlan::lane_stride) and lanes at consecutive addresses share a chunk:
// a unit-stride access is one chunk.
template <Space S>
bool plan_lanes(W& w, const I& i, MemPlan& p, unsigned bytes, unsigned chunk, bool pack) {
  uint64_t addr[kWaveSize];
  mem::lane_addresses<S>(w, i, addr);
  uint64_t lo = 0;
  if (mem::all_lanes_in_one_allocation<S>(w, addr, p.exec, bytes, lo)) {
    // The common case first: unit_stride() is a vectorised test, cheaper than
    // finding the same single run with the loop below.
    if (pack && unit_stride(addr, p.exec, bytes)) {
      p.lane_stride = static_cast<uint8_t>(bytes);
      p.add(MemSpace::Global, addr[0], static_cast<unsigned>(__builtin_popcountll(p.exec)) * bytes, 0, 0);
      return true;
    }
    // Nothing to check: a chunk per active lane (or run of lanes), written in place.
    const unsigned stride = pack ? bytes : MemPlan::kLaneBytes;
    p.lane_stride = static_cast<uint8_t>(stride);
    p.chunks.resize(static_cast<size_t>(__builtin_popcountll(p.exec)));
    MemChunk* const first = p.chunks.data();
    MemChunk* c = first;  // the next one to write
    for (unsigned lane = 0; lane < kWaveSize; ++lane) {
      if (!((p.exec >> lane) & 1)) continue;
      if (pack && c != first) {
        MemChunk& last = c[-1];
        if (last.data_offset + last.bytes == lane * stride && last.addr + last.bytes == addr[lane]) {
          last.bytes = static_cast<uint16_t>(last.bytes + bytes);
          continue;
        }
      }
      c->addr = addr[lane];
      c->data_offset = static_cast<uint16_t>(lane * stride);
      c->bytes = static_cast<uint16_t>(bytes);
      c->lane = static_cast<uint8_t>(lane);
      c->space = MemSpace::Global;
      ++c;
    }
    p.chunks.resize(static_cast<size_t>(c - first));
    return true;
  }
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((p.exec >> lane) & 1)) continue;
    for (unsigned c = 0; c < bytes; c += chunk) {
      const mem::Target t = mem::resolve<S>(w, addr[lane] + c, lane, chunk);
      if (!t.host) {
        p.chunks.clear();
        return false;
      }
      p.add(t.lds ? MemSpace::Lds : MemSpace::Global, t.addr, chunk, lane, lane * MemPlan::kLaneBytes + c);
    }
  }
  return true;
}


template <Space S, unsigned Bytes>
void plan_load(W& w, const I& i, MemPlan& p) {
  start_vector_plan(w, i, p, MemKind::Load);
  plan_lanes<S>(w, i, p, Bytes, mem::chunk_bytes<S>(Bytes), true);
}

template <Space S, unsigned Bytes, int D16>
void plan_store(W& w, const I& i, MemPlan& p) {
  start_vector_plan(w, i, p, MemKind::Store);
  if (!plan_lanes<S>(w, i, p, Bytes, mem::chunk_bytes<S>(Bytes), true)) return;
  fill_store_data(w, i.src[1], p, Width{Bytes, false, D16});
}

// Atomics are one chunk per lane (a wide atomic is not split, as the ExecFn
// does not split it: one reaching private memory faults there).
template <Space S, Rmw Op, Elem E>
void plan_atomic(W& w, const I& i, MemPlan& p) {
  constexpr unsigned bytes = mem::elem_bytes(E);
  start_vector_plan(w, i, p, MemKind::Atomic);
  p.op = Op;
  p.elem = E;
  p.returns_data = i.glc && i.dst[0].kind != OperandKind::None;
  if (!plan_lanes<S>(w, i, p, bytes, bytes, false)) return;
  fill_atomic_operands<Op, E>(w, i.src[1], p);
}

void complete_atomic_op(W& w, const I& i, const MemPlan& p) { complete_atomic(w, i.dst[0], p); }

// The three functions of each instruction, registered from one list.
template <Space S, unsigned Bytes, bool Sign, int D16>
struct LoadOp {
  static constexpr ExecFn exec = load<S, Bytes, Sign, D16>;
  static constexpr PlanFn plan = plan_load<S, Bytes>;
  static constexpr CompleteFn complete = complete_load<Bytes, Sign, D16>;
};
template <Space S, unsigned Bytes, int D16>
struct StoreOp {
  static constexpr ExecFn exec = store<S, Bytes, D16>;
  static constexpr PlanFn plan = plan_store<S, Bytes, D16>;
  static constexpr CompleteFn complete = complete_nothing;
};
template <Space S, Rmw Op, Elem E>
struct AtomicOp {
  static constexpr ExecFn exec = atomic<S, Op, E>;
  static constexpr PlanFn plan = plan_atomic<S, Op, E>;
  static constexpr CompleteFn complete = complete_atomic_op;
};

template <Space S, class Table>
void register_loads_stores(Table& t, const std::string& prefix) {
  const auto add = [&](const char* name, auto op) { add_op(t, prefix + name, op); };
  add("load_ubyte", LoadOp<S, 1, false, 0>{});
  add("load_sbyte", LoadOp<S, 1, true, 0>{});
  add("load_ushort", LoadOp<S, 2, false, 0>{});
  add("load_sshort", LoadOp<S, 2, true, 0>{});
  add("load_dword", LoadOp<S, 4, false, 0>{});
  add("load_dwordx2", LoadOp<S, 8, false, 0>{});
  add("load_dwordx3", LoadOp<S, 12, false, 0>{});
  add("load_dwordx4", LoadOp<S, 16, false, 0>{});
  add("load_ubyte_d16", LoadOp<S, 1, false, 1>{});
  add("load_ubyte_d16_hi", LoadOp<S, 1, false, 2>{});
  add("load_sbyte_d16", LoadOp<S, 1, true, 1>{});
  add("load_sbyte_d16_hi", LoadOp<S, 1, true, 2>{});
  add("load_short_d16", LoadOp<S, 2, false, 1>{});
  add("load_short_d16_hi", LoadOp<S, 2, false, 2>{});
  add("store_byte", StoreOp<S, 1, 0>{});
  add("store_byte_d16_hi", StoreOp<S, 1, 2>{});
  add("store_short", StoreOp<S, 2, 0>{});
  add("store_short_d16_hi", StoreOp<S, 2, 2>{});
  add("store_dword", StoreOp<S, 4, 0>{});
  add("store_dwordx2", StoreOp<S, 8, 0>{});
  add("store_dwordx3", StoreOp<S, 12, 0>{});
  add("store_dwordx4", StoreOp<S, 16, 0>{});
}

template <Space S, class Table>
void register_atomics(Table& t, const std::string& prefix) {
  const auto add = [&](const char* name, auto op) { add_op(t, prefix + name, op); };
  add("atomic_swap", AtomicOp<S, Rmw::Swap, Elem::U32>{});
  add("atomic_cmpswap", AtomicOp<S, Rmw::CmpSwap, Elem::U32>{});
  add("atomic_add", AtomicOp<S, Rmw::Add, Elem::U32>{});
  add("atomic_sub", AtomicOp<S, Rmw::Sub, Elem::U32>{});
  add("atomic_smin", AtomicOp<S, Rmw::SMin, Elem::U32>{});
  add("atomic_umin", AtomicOp<S, Rmw::UMin, Elem::U32>{});
  add("atomic_smax", AtomicOp<S, Rmw::SMax, Elem::U32>{});
  add("atomic_umax", AtomicOp<S, Rmw::UMax, Elem::U32>{});
  add("atomic_and", AtomicOp<S, Rmw::And, Elem::U32>{});
  add("atomic_or", AtomicOp<S, Rmw::Or, Elem::U32>{});
  add("atomic_xor", AtomicOp<S, Rmw::Xor, Elem::U32>{});
  add("atomic_inc", AtomicOp<S, Rmw::Inc, Elem::U32>{});
  add("atomic_dec", AtomicOp<S, Rmw::Dec, Elem::U32>{});
  add("atomic_add_f32", AtomicOp<S, Rmw::FAdd, Elem::F32>{});
  add("atomic_pk_add_f16", AtomicOp<S, Rmw::PkAddF16, Elem::U32>{});
  add("atomic_swap_x2", AtomicOp<S, Rmw::Swap, Elem::U64>{});
  add("atomic_cmpswap_x2", AtomicOp<S, Rmw::CmpSwap, Elem::U64>{});
  add("atomic_add_x2", AtomicOp<S, Rmw::Add, Elem::U64>{});
  add("atomic_sub_x2", AtomicOp<S, Rmw::Sub, Elem::U64>{});
  add("atomic_smin_x2", AtomicOp<S, Rmw::SMin, Elem::U64>{});
  add("atomic_umin_x2", AtomicOp<S, Rmw::UMin, Elem::U64>{});
  add("atomic_smax_x2", AtomicOp<S, Rmw::SMax, Elem::U64>{});
  add("atomic_umax_x2", AtomicOp<S, Rmw::UMax, Elem::U64>{});
  add("atomic_and_x2", AtomicOp<S, Rmw::And, Elem::U64>{});
  add("atomic_or_x2", AtomicOp<S, Rmw::Or, Elem::U64>{});
  add("atomic_xor_x2", AtomicOp<S, Rmw::Xor, Elem::U64>{});
  add("atomic_inc_x2", AtomicOp<S, Rmw::Inc, Elem::U64>{});
  add("atomic_dec_x2", AtomicOp<S, Rmw::Dec, Elem::U64>{});
  add("atomic_add_f64", AtomicOp<S, Rmw::FAdd, Elem::F64>{});
  add("atomic_min_f64", AtomicOp<S, Rmw::FMin, Elem::F64>{});
  add("atomic_max_f64", AtomicOp<S, Rmw::FMax, Elem::F64>{});
}

template <class Table>
void register_all(Table& t) {
  register_loads_stores<Space::Flat>(t, "flat_");
  register_loads_stores<Space::Global>(t, "global_");
  register_loads_stores<Space::Scratch>(t, "scratch_");
  register_atomics<Space::Flat>(t, "flat_");
  register_atomics<Space::Global>(t, "global_");
}

}  // namespace

void register_vmem_semantics(SemanticsTable& t) { register_all(t); }
void register_vmem_mem_fns(MemFnsTable& t) { register_all(t); }

}  // namespace tessera::isa
