// FLAT, GLOBAL and SCRATCH semantics: per-lane loads, stores and atomics under
// EXEC. Operands: dst[0] = VDST; src[0] = VADDR (64-bit, or a 32-bit offset
// with SADDR, or the private offset for scratch); src[1] = VDATA; src[2] =
// SADDR (None when "off"); `offset` signed; `glc` on an atomic returns the
// old value.
#include "models/cu/isa/float_ops.h"
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

enum class Space : uint8_t { Flat, Global, Scratch };

// The host pointer of lane `lane`'s access, or nullptr after a fault.
// Addresses of all 64 lanes, computed in one pass the compiler can vectorise:
// a flat/global address, or the private offset for scratch.
template <Space S>
void lane_addresses(const W& w, const I& i, uint64_t* addr) {
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

// The host pointer of lane `lane`'s access at `addr` (+ `extra` bytes), or nullptr after a fault.
template <Space S>
uint8_t* lane_ptr(W& w, uint64_t addr, unsigned lane, unsigned bytes, unsigned extra = 0) {
  if (S == Space::Scratch) return w.scratch((addr + extra) & 0xffffffffu, lane, bytes);
  return S == Space::Flat ? w.flat(addr + extra, lane, bytes) : w.global(addr + extra, bytes);
}

// Private memory is swizzled per dword, so wide accesses that may reach it
// (scratch, and flat through the private aperture) go dword by dword.
template <Space S>
constexpr unsigned chunk_bytes(unsigned bytes) {
  return S != Space::Global && bytes > 4 ? 4 : bytes;
}

// Checks every active lane's access [addr, addr + Bytes) at once: if the span
// from the lowest to the highest address lies inside one device allocation
// (and, for flat, touches neither aperture), returns the host pointer of
// `lo`, the lowest address; lanes then need no check of their own. Otherwise
// nullptr, and the per-lane path reports the first faulting lane exactly.
template <Space S>
uint8_t* all_lanes_in_one_allocation(W& w, const uint64_t* addr, uint64_t exec, unsigned bytes, uint64_t& lo) {
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

template <Space S, unsigned Bytes, bool Sign, int D16>
void load(W& w, const I& i) {
  const uint64_t exec = w.exec();
  constexpr unsigned chunk = chunk_bytes<S>(Bytes);
  uint8_t buf[16];
  uint64_t addr[kWaveSize];
  lane_addresses<S>(w, i, addr);
  uint64_t lo = 0;
  if (const uint8_t* all = all_lanes_in_one_allocation<S>(w, addr, exec, Bytes, lo)) {
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
  constexpr unsigned chunk = chunk_bytes<S>(Bytes);
  uint8_t buf[16];
  uint64_t addr[kWaveSize];
  lane_addresses<S>(w, i, addr);
  uint64_t lo = 0;
  if (uint8_t* all = all_lanes_in_one_allocation<S>(w, addr, exec, Bytes, lo)) {
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
  lane_addresses<S>(w, i, addr);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p = lane_ptr<S>(w, addr[lane], lane, bytes);
    if (!p) return;
    const unsigned n = wide ? 2 : 1;
    const uint64_t src = wide ? mem::lane_value64(w, i.src[1], 0, lane) : mem::lane_value(w, i.src[1], 0, lane);
    uint64_t cmp = 0;
    if (Op == Rmw::CmpSwap) cmp = wide ? mem::lane_value64(w, i.src[1], n, lane) : mem::lane_value(w, i.src[1], n, lane);
    const uint64_t old = mem::rmw(p, E, Op, src, cmp);
    if (i.glc && i.dst[0].kind != OperandKind::None) {
      mem::set_lane(w, i.dst[0], 0, lane, static_cast<uint32_t>(old));
      if (wide) mem::set_lane(w, i.dst[0], 1, lane, static_cast<uint32_t>(old >> 32));
    }
  }
}

template <Space S>
void pk_add_f16_atomic(W& w, const I& i) {
  const uint64_t exec = w.exec();
  uint64_t addr[kWaveSize];
  lane_addresses<S>(w, i, addr);
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((exec >> lane) & 1)) continue;
    uint8_t* p = lane_ptr<S>(w, addr[lane], lane, 4);
    if (!p) return;
    uint32_t old;
    std::memcpy(&old, p, 4);
    const uint32_t v = mem::pk_add_f16(old, mem::lane_value(w, i.src[1], 0, lane));
    std::memcpy(p, &v, 4);
    if (i.glc && i.dst[0].kind != OperandKind::None) mem::set_lane(w, i.dst[0], 0, lane, old);
  }
}

template <Space S>
void register_loads_stores(SemanticsTable& t, const std::string& prefix) {
  const auto add = [&](const char* name, ExecFn fn) { t.add((prefix + name).c_str(), fn); };
  add("load_ubyte", load<S, 1, false, 0>);
  add("load_sbyte", load<S, 1, true, 0>);
  add("load_ushort", load<S, 2, false, 0>);
  add("load_sshort", load<S, 2, true, 0>);
  add("load_dword", load<S, 4, false, 0>);
  add("load_dwordx2", load<S, 8, false, 0>);
  add("load_dwordx3", load<S, 12, false, 0>);
  add("load_dwordx4", load<S, 16, false, 0>);
  add("load_ubyte_d16", load<S, 1, false, 1>);
  add("load_ubyte_d16_hi", load<S, 1, false, 2>);
  add("load_sbyte_d16", load<S, 1, true, 1>);
  add("load_sbyte_d16_hi", load<S, 1, true, 2>);
  add("load_short_d16", load<S, 2, false, 1>);
  add("load_short_d16_hi", load<S, 2, false, 2>);
  add("store_byte", store<S, 1, 0>);
  add("store_byte_d16_hi", store<S, 1, 2>);
  add("store_short", store<S, 2, 0>);
  add("store_short_d16_hi", store<S, 2, 2>);
  add("store_dword", store<S, 4, 0>);
  add("store_dwordx2", store<S, 8, 0>);
  add("store_dwordx3", store<S, 12, 0>);
  add("store_dwordx4", store<S, 16, 0>);
}

template <Space S>
void register_atomics(SemanticsTable& t, const std::string& prefix) {
  const auto add = [&](const char* name, ExecFn fn) { t.add((prefix + name).c_str(), fn); };
  add("atomic_swap", atomic<S, Rmw::Swap, Elem::U32>);
  add("atomic_cmpswap", atomic<S, Rmw::CmpSwap, Elem::U32>);
  add("atomic_add", atomic<S, Rmw::Add, Elem::U32>);
  add("atomic_sub", atomic<S, Rmw::Sub, Elem::U32>);
  add("atomic_smin", atomic<S, Rmw::SMin, Elem::U32>);
  add("atomic_umin", atomic<S, Rmw::UMin, Elem::U32>);
  add("atomic_smax", atomic<S, Rmw::SMax, Elem::U32>);
  add("atomic_umax", atomic<S, Rmw::UMax, Elem::U32>);
  add("atomic_and", atomic<S, Rmw::And, Elem::U32>);
  add("atomic_or", atomic<S, Rmw::Or, Elem::U32>);
  add("atomic_xor", atomic<S, Rmw::Xor, Elem::U32>);
  add("atomic_inc", atomic<S, Rmw::Inc, Elem::U32>);
  add("atomic_dec", atomic<S, Rmw::Dec, Elem::U32>);
  add("atomic_add_f32", atomic<S, Rmw::FAdd, Elem::F32>);
  add("atomic_pk_add_f16", pk_add_f16_atomic<S>);
  add("atomic_swap_x2", atomic<S, Rmw::Swap, Elem::U64>);
  add("atomic_cmpswap_x2", atomic<S, Rmw::CmpSwap, Elem::U64>);
  add("atomic_add_x2", atomic<S, Rmw::Add, Elem::U64>);
  add("atomic_sub_x2", atomic<S, Rmw::Sub, Elem::U64>);
  add("atomic_smin_x2", atomic<S, Rmw::SMin, Elem::U64>);
  add("atomic_umin_x2", atomic<S, Rmw::UMin, Elem::U64>);
  add("atomic_smax_x2", atomic<S, Rmw::SMax, Elem::U64>);
  add("atomic_umax_x2", atomic<S, Rmw::UMax, Elem::U64>);
  add("atomic_and_x2", atomic<S, Rmw::And, Elem::U64>);
  add("atomic_or_x2", atomic<S, Rmw::Or, Elem::U64>);
  add("atomic_xor_x2", atomic<S, Rmw::Xor, Elem::U64>);
  add("atomic_inc_x2", atomic<S, Rmw::Inc, Elem::U64>);
  add("atomic_dec_x2", atomic<S, Rmw::Dec, Elem::U64>);
  add("atomic_add_f64", atomic<S, Rmw::FAdd, Elem::F64>);
  add("atomic_min_f64", atomic<S, Rmw::FMin, Elem::F64>);
  add("atomic_max_f64", atomic<S, Rmw::FMax, Elem::F64>);
}

}  // namespace

void register_vmem_semantics(SemanticsTable& t) {
  register_loads_stores<Space::Flat>(t, "flat_");
  register_loads_stores<Space::Global>(t, "global_");
  register_loads_stores<Space::Scratch>(t, "scratch_");
  register_atomics<Space::Flat>(t, "flat_");
  register_atomics<Space::Global>(t, "global_");
}

}  // namespace tessera::isa
