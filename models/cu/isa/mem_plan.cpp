// The plan container, the mem_fns() table, moving a plan's bytes directly
// against the wave's memory, and the complete() steps that FLAT/GLOBAL/
// SCRATCH and MUBUF share. The per-instruction plan/complete functions live
// next to their ExecFns in sem_memory*.cpp.
#include "models/cu/isa/mem_plan.h"

#include <cstdio>
#include <cstdlib>

#include "models/cu/isa/wave.h"

namespace tessera::isa {

void MemPlan::clear() {
  kind = MemKind::Load;
  scalar = false;
  glc = slc = false;
  exec = 0;
  lane_stride = kLaneBytes;
  chunks.clear();
  op = mem::Rmw::Add;
  elem = mem::Elem::U32;
  atomic_cmp.clear();
  returns_data = false;
  lds_chunks = false;
}

unsigned MemPlan::bytes() const {
  unsigned n = 0;
  for (const MemChunk& c : chunks) n += c.bytes;
  return n;
}

void MemFnsTable::add(const char* mnemonic, MemFns fns) {
  if (!fns_.emplace(mnemonic, fns).second) {
    std::fprintf(stderr, "tessera: plan/complete for %s registered twice\n", mnemonic);
    std::abort();
  }
}

MemFns MemFnsTable::find(const char* mnemonic) const {
  auto it = fns_.find(mnemonic);
  return it == fns_.end() ? MemFns{} : it->second;
}

const MemFnsTable& mem_fns_table() {
  static const MemFnsTable table = [] {
    MemFnsTable t;
    register_smem_mem_fns(t);
    register_vmem_mem_fns(t);
    register_mubuf_mem_fns(t);
    return t;
  }();
  return table;
}

MemFns mem_fns(const char* mnemonic) { return mem_fns_table().find(mnemonic); }

namespace {

// Copies a chunk's bytes with a fixed-size copy for the sizes chunks have:
// a variable-length memcpy becomes `rep movs`, whose start-up cost is
// several times the copy itself.
inline void copy_chunk(uint8_t* dst, const uint8_t* src, unsigned bytes) {
  switch (bytes) {
    case 1: std::memcpy(dst, src, 1); return;
    case 2: std::memcpy(dst, src, 2); return;
    case 4: std::memcpy(dst, src, 4); return;
    case 8: std::memcpy(dst, src, 8); return;
    case 12: std::memcpy(dst, src, 12); return;
    case 16: std::memcpy(dst, src, 16); return;
    default: std::memcpy(dst, src, bytes); return;
  }
}

// The host bytes of one chunk, or nullptr after faulting the wave.
uint8_t* chunk_host(Wave& wave, const MemChunk& c) {
  return c.space == MemSpace::Lds ? wave.lds(c.addr, c.bytes) : wave.global(c.addr, c.bytes);
}

// Moves chunk k's bytes; false after faulting the wave.
bool perform_chunk(Wave& wave, MemPlan& plan, size_t k) {
  const MemChunk& c = plan.chunks[k];
  uint8_t* p = chunk_host(wave, c);
  if (!p) return false;
  uint8_t* d = plan.data.data() + c.data_offset;
  switch (plan.kind) {
    case MemKind::Load: copy_chunk(d, p, c.bytes); break;
    case MemKind::Store: copy_chunk(p, d, c.bytes); break;
    case MemKind::Atomic: {
      const unsigned n = mem::elem_bytes(plan.elem);
      uint64_t src = 0;
      std::memcpy(&src, d, n);
      const uint64_t old = mem::rmw(p, plan.elem, plan.op, src, plan.atomic_cmp[k]);
      std::memcpy(d, &old, n);
      break;
    }
  }
  return true;
}

}  // namespace

bool perform_directly(Wave& wave, MemPlan& plan) {
  for (size_t k = 0; k < plan.chunks.size(); ++k)
    if (!perform_chunk(wave, plan, k)) return false;
  return true;
}

bool perform_directly(Wave& wave, MemPlan& plan, MemSpace space) {
  for (size_t k = 0; k < plan.chunks.size(); ++k)
    if (plan.chunks[k].space == space && !perform_chunk(wave, plan, k)) return false;
  return true;
}

void start_vector_plan(const Wave& wave, const Instruction& inst, MemPlan& p, MemKind kind) {
  p.clear();
  p.kind = kind;
  p.glc = inst.glc;
  p.slc = inst.slc;
  p.exec = wave.exec();
}

void fill_store_data(const Wave& wave, const Operand& data, MemPlan& p, const mem::Width& width) {
  for (unsigned lane = 0; lane < kWaveSize; ++lane)
    if ((p.exec >> lane) & 1) mem::store_from(wave, data, lane, p.data.data() + lane * p.lane_stride, width);
}

void complete_vector_load(Wave& wave, const Operand& dst, const MemPlan& plan, const mem::Width& width) {
  const uint64_t exec = plan.exec;
  const uint8_t* data = plan.data.data();
  const unsigned stride = plan.lane_stride;
  if (width.bytes % 4 == 0) {
    // Whole dwords: gather each register's lanes, then one merged write.
    uint32_t out[kWaveSize];
    for (unsigned d = 0; d < width.bytes / 4; ++d) {
      for (unsigned lane = 0; lane < kWaveSize; ++lane)
        std::memcpy(&out[lane], data + lane * stride + 4 * d, 4);
      wave.write32(dst, out, exec, d);
    }
    return;
  }
  for (unsigned lane = 0; lane < kWaveSize; ++lane)
    if ((exec >> lane) & 1) mem::load_into(wave, dst, lane, data + lane * stride, width);
}

void complete_atomic(Wave& wave, const Operand& dst, const MemPlan& plan) {
  if (!plan.returns_data) return;
  const bool wide = mem::elem_bytes(plan.elem) == 8;
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((plan.exec >> lane) & 1)) continue;
    uint64_t old;
    std::memcpy(&old, plan.data.data() + lane * plan.lane_stride, 8);
    mem::set_lane(wave, dst, 0, lane, static_cast<uint32_t>(old));
    if (wide) mem::set_lane(wave, dst, 1, lane, static_cast<uint32_t>(old >> 32));
  }
}

void complete_nothing(Wave&, const Instruction&, const MemPlan&) {}

}  // namespace tessera::isa
