// Scalar memory semantics (SMEM) and the memory group's registration.
// Operands: dst[0] = SDATA (loads) or src[1] = SDATA (stores); src[0] = SBASE;
// src[2] = SOFFSET when present; `offset` = the immediate offset.
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;

uint64_t smem_offset(const W& w, const I& i) {
  uint64_t off = static_cast<uint64_t>(static_cast<int64_t>(i.offset));
  if (i.src[2].kind != OperandKind::None) off += w.scalar32(i.src[2]);
  return off;
}

// Data registers N..N+count-1 must exist; the decoder rejects most overflows,
// but the file's end is checked here so no code can index past it.
bool sdata_fits(W& w, const Operand& op, unsigned dwords) {
  if (op.kind == OperandKind::Scalar && op.reg + dwords <= reg::kScalarFileSize) return true;
  w.fault("scalar memory data operand s" + std::to_string(op.reg) + " of " + std::to_string(dwords) +
          " dwords is not a scalar register range");
  return false;
}

// s_load_dword*: dwords from SBASE + offset (the low two bits ignored).
template <unsigned N>
void s_load(W& w, const I& i) {
  if (!sdata_fits(w, i.dst[0], N)) return;
  const uint64_t addr = (w.scalar64(i.src[0]) + smem_offset(w, i)) & ~3ull;
  const uint8_t* p = w.global(addr, 4 * N);
  if (!p) return;
  for (unsigned d = 0; d < N; ++d) std::memcpy(&w.s(static_cast<uint16_t>(i.dst[0].reg + d)), p + 4 * d, 4);
}

template <unsigned N>
void s_store(W& w, const I& i) {
  if (!sdata_fits(w, i.src[1], N)) return;
  const uint64_t addr = (w.scalar64(i.src[0]) + smem_offset(w, i)) & ~3ull;
  uint8_t* p = w.global(addr, 4 * N);
  if (!p) return;
  for (unsigned d = 0; d < N; ++d) std::memcpy(p + 4 * d, &w.s(static_cast<uint16_t>(i.src[1].reg + d)), 4);
}

// A buffer resource in four SGPRs: base 47:0, num_records in dword 2.
struct ScalarBuffer {
  uint64_t base;
  uint32_t num_records;
};
ScalarBuffer scalar_buffer(const W& w, const Operand& op) {
  const uint16_t r = op.reg;
  return {w.s(r) | (uint64_t(w.s(static_cast<uint16_t>(r + 1)) & 0xffff) << 32), w.s(static_cast<uint16_t>(r + 2))};
}

// s_buffer_load_dword*: dwords past num_records read as zero.
template <unsigned N>
void s_buffer_load(W& w, const I& i) {
  if (!sdata_fits(w, i.dst[0], N) || !sdata_fits(w, i.src[0], 4)) return;
  const ScalarBuffer b = scalar_buffer(w, i.src[0]);
  const uint64_t off = smem_offset(w, i) & ~3ull;
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

void no_op(W&, const I&) {}

}  // namespace

void register_smem_semantics(SemanticsTable& t) {
  t.add("s_load_dword", s_load<1>);
  t.add("s_load_dwordx2", s_load<2>);
  t.add("s_load_dwordx4", s_load<4>);
  t.add("s_load_dwordx8", s_load<8>);
  t.add("s_load_dwordx16", s_load<16>);
  t.add("s_buffer_load_dword", s_buffer_load<1>);
  t.add("s_buffer_load_dwordx2", s_buffer_load<2>);
  t.add("s_buffer_load_dwordx4", s_buffer_load<4>);
  t.add("s_buffer_load_dwordx8", s_buffer_load<8>);
  t.add("s_buffer_load_dwordx16", s_buffer_load<16>);
  t.add("s_store_dword", s_store<1>);
  t.add("s_store_dwordx2", s_store<2>);
  t.add("s_store_dwordx4", s_store<4>);
  // The scalar cache holds no state in functional execution.
  t.add("s_dcache_inv", no_op);
  t.add("s_dcache_wb", no_op);
  t.add("s_dcache_inv_vol", no_op);
  t.add("s_dcache_wb_vol", no_op);
}

void register_memory_semantics(SemanticsTable& t) {
  register_smem_semantics(t);
  register_ds_semantics(t);
  register_vmem_semantics(t);
  register_mubuf_semantics(t);
}

}  // namespace tessera::isa
