// CABA's assist warps in the compute unit (assist_warp_controller.h,
// docs/CABA.md, "Assist warps"): the hooks of the cycle loop, only with
// assist_warps on.
#include <algorithm>

#include "models/cu/compute_unit.h"

namespace tessera {

// A vector load's line answered from a compressed fill of the L1 (it set
// cu_decompress): its bytes are read through the caches (a debug read, as
// load_values execute does), and an assist warp rebuilds the line from their
// image, once per fill; the request counts as returned when the routine
// ends. A load served from a line still being rebuilt (an L1 hit) waits for
// it as well. False when there is nothing to wait for: the request counts as
// returned now.
bool ComputeUnit::assist_line(MemRequest& r, MemInst& m, uint64_t c) {
  if (m.scalar || m.plan.kind != isa::MemKind::Load) return false;
  const uint64_t line_addr = r.get_address() & ~uint64_t(cfg_.vmem_line - 1);
  MemInst* inst = &m;
  auto done = [this, inst] {
    if (--inst->pending == 0) inst_returned(*inst);
  };
  if (r.access->cu_decompress == bdi::Encoding::uncompressed) return assist_->wait_rebuild(line_addr, done);
  std::vector<uint8_t> line(cfg_.vmem_line);
  tlm::tlm_generic_payload t;
  t.set_command(tlm::TLM_READ_COMMAND);
  t.set_address(line_addr);
  t.set_data_ptr(line.data());
  t.set_data_length(cfg_.vmem_line);
  t.set_streaming_width(cfg_.vmem_line);
  if (vmem->transport_dbg(t) != cfg_.vmem_line) return false;
  return assist_->decompress(m.wave->index, m.wave->simd, line_addr, r.access->cu_fill, line, done, c);
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
// they go with cu_compressed set to its encoding. With the store buffer
// full, or when its kernel's compression policy skips it
// (assist_compress_policy.h), the line goes uncompressed. A held store
// stays in the vmem queue, as the paper buffers it beside the L1, but does
// not hold the requests behind it (next_past_held).
void ComputeUnit::assist_store(WaveSlot& w, uint64_t c) {
  const unsigned line = cfg_.vmem_line;
  for (MemRequest* r : coalesced_) {
    if (r->get_address() % line != 0 || r->get_data_length() != line) continue;
    if (!std::all_of(r->enables.begin(), r->enables.begin() + line, [](uint8_t b) { return b == 0xff; })) continue;
    const std::vector<uint8_t> bytes(r->data.begin(), r->data.begin() + line);
    r->held = assist_->compress(w.wg->task.ctx->kernel->name, w.index, w.simd, r->get_address(), bytes,
                                [r](bdi::Encoding e) {
      r->access->cu_compressed = e;
      r->held = false;
    }, c);
  }
}

// The queue's first request that may go while stores ahead of it are held
// for compression: one to a line no held store ahead of it writes (a load or
// store of such a line stays behind it, so it sees the stored data and
// stores stay in order). The queue's size when none may go.
size_t ComputeUnit::next_past_held(Port& p) {
  const uint64_t line = cfg_.vmem_line;
  held_lines_.clear();
  for (size_t i = 0; i < p.queue.size(); ++i) {
    const MemRequest* r = p.queue[i];
    const uint64_t first = r->get_address() / line, last = (r->get_address() + r->get_data_length() - 1) / line;
    const bool blocked = std::any_of(held_lines_.begin(), held_lines_.end(),
                                     [&](uint64_t h) { return h >= first && h <= last; });
    if (!r->held && !blocked) return i;
    if (r->held) held_lines_.push_back(first);
    else if (blocked) for (uint64_t l = first; l <= last; ++l) held_lines_.push_back(l);
  }
  return p.queue.size();
}

}  // namespace tessera
