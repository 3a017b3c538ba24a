// Scalar memory semantics (SMEM) and the memory group's registration.
// Operands: dst[0] = SDATA (loads) or src[1] = SDATA (stores); src[0] = SBASE;
// src[2] = SOFFSET when present; `offset` = the immediate offset.
#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;

using mem::sdata_fits;
using mem::smem_address;

// s_load_dword*: dwords from SBASE + offset (the low two bits ignored).
template <unsigned N>
void s_load(W& w, const I& i) {
  if (!sdata_fits(w, i.dst[0], N)) return;
  const uint64_t addr = smem_address(w, i);
  const uint8_t* p = w.global(addr, 4 * N);
  if (!p) return;
  for (unsigned d = 0; d < N; ++d) std::memcpy(&w.s(static_cast<uint16_t>(i.dst[0].reg + d)), p + 4 * d, 4);
}

template <unsigned N>
void s_store(W& w, const I& i) {
  if (!sdata_fits(w, i.src[1], N)) return;
  const uint64_t addr = smem_address(w, i);
  uint8_t* p = w.global(addr, 4 * N);
  if (!p) return;
  for (unsigned d = 0; d < N; ++d) std::memcpy(p + 4 * d, &w.s(static_cast<uint16_t>(i.src[1].reg + d)), 4);
}

// s_buffer_load_dword*: dwords past num_records read as zero.
template <unsigned N>
void s_buffer_load(W& w, const I& i) {
  if (!sdata_fits(w, i.dst[0], N) || !sdata_fits(w, i.src[0], 4)) return;
  const mem::ScalarBuffer b = mem::scalar_buffer(w, i.src[0]);
  const uint64_t off = mem::smem_offset(w, i) & ~3ull;
  for (unsigned d = 0; d < N; ++d) {
    uint32_t v = 0;
    if (off + 4 * d + 4 <= b.num_records) {
      const uint8_t* p = w.global(b.base + off + 4 * d, 4);
      if (!p) return;
      std::memcpy(&v, p, 4);
    }
    w.s(static_cast<uint16_t>(i.dst[0].reg + d)) = v;
  }
}

// --- Two-phase forms (mem_plan.h): one chunk for the wave, into SGPRs ---

void start_scalar_plan(W& w, const I& i, MemPlan& p, MemKind kind) {
  p.clear();
  p.zero_data(64);  // dwords past an s_buffer_load's num_records read zero
  p.kind = kind;
  p.scalar = true;
  p.glc = i.glc;
  p.exec = w.exec();
}

template <unsigned N>
void plan_s_load(W& w, const I& i, MemPlan& p) {
  start_scalar_plan(w, i, p, MemKind::Load);
  if (!sdata_fits(w, i.dst[0], N)) return;
  const uint64_t addr = smem_address(w, i);
  if (w.global(addr, 4 * N)) p.add(MemSpace::Global, addr, 4 * N, 0, 0);
}

// Dwords past num_records have no chunk and read zero; in-range ones are
// checked one by one as the ExecFn checks them (and merged into one chunk).
template <unsigned N>
void plan_s_buffer_load(W& w, const I& i, MemPlan& p) {
  start_scalar_plan(w, i, p, MemKind::Load);
  if (!sdata_fits(w, i.dst[0], N) || !sdata_fits(w, i.src[0], 4)) return;
  const mem::ScalarBuffer b = mem::scalar_buffer(w, i.src[0]);
  const uint64_t off = mem::smem_offset(w, i) & ~3ull;
  for (unsigned d = 0; d < N; ++d) {
    if (off + 4 * d + 4 > b.num_records) continue;
    if (!w.global(b.base + off + 4 * d, 4)) {
      p.chunks.clear();
      return;
    }
    p.add(MemSpace::Global, b.base + off + 4 * d, 4, 0, 4 * d);
  }
}

template <unsigned N>
void complete_s_load(W& w, const I& i, const MemPlan& p) {
  for (unsigned d = 0; d < N; ++d) std::memcpy(&w.s(static_cast<uint16_t>(i.dst[0].reg + d)), p.data.data() + 4 * d, 4);
}

template <unsigned N>
void plan_s_store(W& w, const I& i, MemPlan& p) {
  start_scalar_plan(w, i, p, MemKind::Store);
  if (!sdata_fits(w, i.src[1], N)) return;
  const uint64_t addr = smem_address(w, i);
  if (!w.global(addr, 4 * N)) return;
  p.add(MemSpace::Global, addr, 4 * N, 0, 0);
  for (unsigned d = 0; d < N; ++d) std::memcpy(p.data.data() + 4 * d, &w.s(static_cast<uint16_t>(i.src[1].reg + d)), 4);
}

template <unsigned N>
struct LoadOp {
  static constexpr ExecFn exec = s_load<N>;
  static constexpr PlanFn plan = plan_s_load<N>;
  static constexpr CompleteFn complete = complete_s_load<N>;
};
template <unsigned N>
struct BufferLoadOp {
  static constexpr ExecFn exec = s_buffer_load<N>;
  static constexpr PlanFn plan = plan_s_buffer_load<N>;
  static constexpr CompleteFn complete = complete_s_load<N>;
};
template <unsigned N>
struct StoreOp {
  static constexpr ExecFn exec = s_store<N>;
  static constexpr PlanFn plan = plan_s_store<N>;
  static constexpr CompleteFn complete = complete_nothing;
};

template <class Table>
void register_all(Table& t) {
  add_op(t, "s_load_dword", LoadOp<1>{});
  add_op(t, "s_load_dwordx2", LoadOp<2>{});
  add_op(t, "s_load_dwordx4", LoadOp<4>{});
  add_op(t, "s_load_dwordx8", LoadOp<8>{});
  add_op(t, "s_load_dwordx16", LoadOp<16>{});
  add_op(t, "s_buffer_load_dword", BufferLoadOp<1>{});
  add_op(t, "s_buffer_load_dwordx2", BufferLoadOp<2>{});
  add_op(t, "s_buffer_load_dwordx4", BufferLoadOp<4>{});
  add_op(t, "s_buffer_load_dwordx8", BufferLoadOp<8>{});
  add_op(t, "s_buffer_load_dwordx16", BufferLoadOp<16>{});
  add_op(t, "s_store_dword", StoreOp<1>{});
  add_op(t, "s_store_dwordx2", StoreOp<2>{});
  add_op(t, "s_store_dwordx4", StoreOp<4>{});
}

}  // namespace

void register_smem_semantics(SemanticsTable& t) {
  register_all(t);
  // The scalar cache holds no state in functional execution (and no plan:
  // the timing model handles these as cache maintenance).
  t.add("s_dcache_inv", no_op);
  t.add("s_dcache_wb", no_op);
  t.add("s_dcache_inv_vol", no_op);
  t.add("s_dcache_wb_vol", no_op);
}

void register_smem_mem_fns(MemFnsTable& t) { register_all(t); }

void register_memory_semantics(SemanticsTable& t) {
  register_smem_semantics(t);
  register_ds_semantics(t);
  register_vmem_semantics(t);
  register_mubuf_semantics(t);
}

}  // namespace tessera::isa
