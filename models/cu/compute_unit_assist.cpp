// CABA's assist warps in the compute unit (assist_warp_controller.h,
// docs/CABA.md, "Assist warps"): the hooks of the cycle loop, only with
// assist_warps on.
#include <algorithm>

#include "models/cu/compute_unit.h"

namespace tessera {

// A vector load's line answered compressed (the L1 set cu_decompress): its
// bytes are read through the caches (a debug read, as load_values execute
// does), and an assist warp rebuilds the line from their image; the request
// counts as returned when the routine ends. False when nothing is to be
// rebuilt: the request counts as returned now.
bool ComputeUnit::assist_line(MemRequest& r, MemInst& m, uint64_t c) {
  if (m.scalar || m.plan.kind != isa::MemKind::Load || r.access->cu_decompress == bdi::Encoding::uncompressed)
    return false;
  const uint64_t line_addr = r.get_address() & ~uint64_t(cfg_.vmem_line - 1);
  std::vector<uint8_t> line(cfg_.vmem_line);
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(line_addr);
  t.set_data_ptr(line.data());
  t.set_data_length(cfg_.vmem_line);
  t.set_streaming_width(cfg_.vmem_line);
  if (vmem->transport_dbg(t) != cfg_.vmem_line) return false;
  MemInst* inst = &m;
  return assist_->decompress(m.wave->index, m.wave->simd, line_addr, line, [this, inst] {
    if (--inst->pending == 0) inst_returned(*inst);
  }, c);
}

// Before the waves: the live assist warps issue on the units still free.
void ComputeUnit::issue_assist(uint64_t c) {
  AssistUnits units{simd_free_, salu_free_, branch_free_};
  assist_->issue(c, units);
}

// After the waves, in a cycle where none issued: the low-priority ones.
void ComputeUnit::issue_assist_idle(uint64_t c) {
  AssistUnits units{simd_free_, salu_free_, branch_free_};
  assist_->issue_idle(c, units);
}

// A vector store's requests that write a whole line (as a written-back line
// is whole) are held while a low-priority assist warp compresses the line;
// they go with cu_compressed set to its encoding. With the low-priority
// buffer full the line goes uncompressed.
void ComputeUnit::assist_store(WaveSlot& w, uint64_t c) {
  const unsigned line = cfg_.vmem_line;
  for (MemRequest* r : coalesced_) {
    if (r->get_address() % line != 0 || r->get_data_length() != line) continue;
    if (!std::all_of(r->enables.begin(), r->enables.begin() + line, [](uint8_t b) { return b == 0xff; })) continue;
    const std::vector<uint8_t> bytes(r->data.begin(), r->data.begin() + line);
    r->held = assist_->compress(w.index, w.simd, r->get_address(), bytes, [r](bdi::Encoding e) {
      r->access->cu_compressed = e;
      r->held = false;
    }, c);
  }
}

}  // namespace tessera
