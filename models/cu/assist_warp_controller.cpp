#include "models/cu/assist_warp_controller.h"

#include "models/cu/isa/wave_runner.h"
#include "models/cu/isa/hex.h"

namespace tessera {

AssistWarpStats::AssistWarpStats(StatGroup& g)
    : started_decompress_high(g.counter("assist_started_decompress_high",
                                        "decompression assist warps started at high priority (a load's compressed line)")),
      finished_decompress_high(g.counter("assist_finished_decompress_high",
                                         "decompression assist warps that rebuilt their line (high priority)")),
      instructions_high(g.counter("assist_instructions_high", "instructions issued by high-priority assist warps")),
      instructions_low(g.counter("assist_instructions_low", "instructions issued by low-priority assist warps")),
      parent_wait_cycles(g.counter("assist_parent_wait_cycles",
                                   "cycles loads waited for their compressed lines' assist warps, from the line's "
                                   "arrival to the routine's end, summed over lines")),
      queued(g.counter("assist_queued", "assist warps that waited for their parent's reserved registers")),
      fill_waiters(g.counter("assist_fill_waiters",
                             "requests answered from a compressed fill whose line another request's assist warp "
                             "rebuilt (one assist warp per fill)")),
      hits_waited(g.counter("assist_hits_waited",
                            "loads served from a line still being rebuilt (L1 hits), which waited for its assist warp")),
      checked(g.counter("assist_lines_checked",
                        "lines whose assist warp's result was compared with bdi (assist_warp_check)")),
      started_compress_low(g.counter("assist_started_compress_low",
                                     "compression assist warps started at low priority (a store writing a whole line)")),
      finished_compress_low(g.counter("assist_finished_compress_low",
                                      "compression assist warps that chose their line's encoding (low priority)")),
      buffer_full(g.counter("assist_buffer_full",
                            "whole-line stores sent uncompressed because the store buffer was full")),
      stores_waited(g.counter("assist_stores_waited",
                              "whole-line stores buffered while both low-priority entries were compressing")),
      first_kept(g.counter("assist_compress_first_kept",
                           "compressed lines that fitted the encoding tested first (the one chosen last), so "
                           "no other encoding was tested")) {
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    const std::string n = bdi::name(bdi::Encoding(e));
    lines_decompressed.push_back(&g.counter("assist_lines_decompressed_" + n,
                                            "lines rebuilt by assist warps from the " + n + " encoding"));
    lines_compressed.push_back(&g.counter("assist_lines_compressed_" + n,
                                          "written lines the compression assist warps encoded " + n));
  }
}

AssistWarpController::AssistWarpController(StatGroup& g, const CuConfig& cfg, unsigned slots,
                                           std::function<void(const std::string&)> fail)
    : cfg_(cfg),
      store_(cfg),
      st_(g),
      policy_(g, cfg),
      fail_(std::move(fail)),
      table_(slots * cfg.assist_warps_per_wave),
      low_(2) {}

bool AssistWarpController::compress(const std::string& kernel, unsigned parent, unsigned simd, uint64_t addr,
                                    const std::vector<uint8_t>& line, std::function<void(bdi::Encoding)> done,
                                    uint64_t c) {
  if (!policy_.deploy(kernel)) return false;
  if (low_live_ + stores_.size() >= cfg_.assist_store_buffer) {
    ++st_.buffer_full;
    return false;
  }
  Waiting w{parent, simd, addr, c + 1, line, nullptr, std::move(done), &kernel};  // (the store issues this cycle)
  for (Entry& e : low_)
    if (!e.live) {
      start_compress(e, std::move(w));
      return true;
    }
  ++st_.stores_waited;
  stores_.push_back(std::move(w));
  return true;
}

// The compression routine starts on the written line in a free entry of the
// low-priority partition.
void AssistWarpController::start_compress(Entry& e, Waiting&& w) {
  if (!e.wave) e.wave = std::make_unique<isa::Wave>(AssistWarpStore::kVgprs, 0);
  store_.start_compress(*e.wave, w.line, last_chosen_);
  e.board.reset(kVgprSlot + AssistWarpStore::kVgprs, AssistWarpStore::kVgprs);
  e.live = true;
  e.parent = w.parent;
  e.simd = w.simd;
  e.routine = AssistRoutine::Compress;
  e.priority = AssistPriority::Low;
  e.ready_at = e.arrived = w.arrived;
  e.addr = w.addr;
  e.encoding = last_chosen_;  // the encoding the routine tests first
  e.line = std::move(w.line);
  e.compressed = std::move(w.compressed);
  e.kernel = w.kernel;
  ++low_live_;
  ++st_.started_compress_low;
}

void AssistWarpController::issue_idle(uint64_t c, AssistUnits& units) {
  if (!low_live_) return;
  for (Entry& e : low_)
    if (e.live) issue_one(e, c, units);
}

bool AssistWarpController::decompress(unsigned parent, unsigned simd, uint64_t addr, uint64_t fill,
                                      const std::vector<uint8_t>& line, std::function<void()> done, uint64_t c) {
  Fill& f = fills_[addr];
  // Another answer of a fill already rebuilt or being rebuilt; a new fill of
  // a line still being rebuilt waits for that rebuild too.
  if ((fill != 0 && f.id == fill) || f.rebuilding) {
    if (!f.rebuilding) return false;
    ++st_.fill_waiters;
    f.waiting.push_back(std::move(done));
    return true;
  }
  if (bdi::compress(line).encoding == bdi::Encoding::uncompressed) return false;
  f.id = fill;
  f.rebuilding = true;
  f.waiting.push_back(std::move(done));
  Waiting w{parent, simd, addr, c, line, [this, addr] { rebuilt(addr); }, nullptr};
  Entry* free = nullptr;
  for (unsigned k = 0; k < cfg_.assist_warps_per_wave && !free; ++k) {
    Entry& e = table_[parent * cfg_.assist_warps_per_wave + k];
    if (!e.live) free = &e;
  }
  if (free) {
    start(*free, std::move(w));
  } else {
    ++st_.queued;
    waiting_.push_back(std::move(w));
  }
  return true;
}

bool AssistWarpController::wait_rebuild(uint64_t addr, std::function<void()> done) {
  if (fills_.empty()) return false;
  const auto it = fills_.find(addr);
  if (it == fills_.end() || !it->second.rebuilding) return false;
  ++st_.hits_waited;
  it->second.waiting.push_back(std::move(done));
  return true;
}

// The line at addr is rebuilt (held uncompressed in the L1 from now on):
// every request waiting for it is served.
void AssistWarpController::rebuilt(uint64_t addr) {
  Fill& f = fills_[addr];
  f.rebuilding = false;
  std::vector<std::function<void()>> waiting = std::move(f.waiting);
  f.waiting.clear();
  for (std::function<void()>& done : waiting) done();
}

// The routine starts on the line's image (bdi::compress of its bytes) in the
// parent's reserved registers, from the routine's first instruction.
void AssistWarpController::start(Entry& e, Waiting&& w) {
  const bdi::Compressed image = bdi::compress(w.line);
  if (!e.wave) e.wave = std::make_unique<isa::Wave>(AssistWarpStore::kVgprs, 0);
  store_.start_decompress(*e.wave, image.image, w.line.size());
  e.board.reset(kVgprSlot + AssistWarpStore::kVgprs, AssistWarpStore::kVgprs);
  e.live = true;
  e.parent = w.parent;
  e.simd = w.simd;
  e.routine = AssistRoutine::Decompress;
  e.priority = AssistPriority::High;
  e.ready_at = w.arrived;
  e.arrived = w.arrived;
  e.addr = w.addr;
  e.encoding = image.encoding;
  e.line = std::move(w.line);
  e.done = std::move(w.done);
  ++live_;
  ++st_.started_decompress_high;
  ++*st_.lines_decompressed[size_t(image.encoding)];
}

void AssistWarpController::issue(uint64_t c, AssistUnits& units) {
  if (!live_) return;
  for (Entry& e : table_)
    if (e.live) issue_one(e, c, units);
}

// The entry's next instruction, if its operands are ready and its unit free.
bool AssistWarpController::issue_one(Entry& e, uint64_t c, AssistUnits& u) {
  if (c < e.ready_at) return false;
  isa::Wave& w = *e.wave;
  isa::FaultSite site;
  const isa::DecodedOp* op = isa::next_op(store_.program(), w, site);
  if (!op) {
    fail_("assist warp of wave slot " + std::to_string(e.parent) + " cannot run the routine at " + hex(site.pc) + ": " +
          w.fault_message());
    return false;
  }
  const InstInfo& info = store_.info().info(*op);
  if (e.board.operands_ready(info) > c) return false;
  switch (info.cls) {
    case IssueClass::Valu:
      if (u.simd_free[e.simd] > c) return false;
      u.simd_free[e.simd] = c + info.busy;
      break;
    case IssueClass::Salu:
      if (u.salu_free > c) return false;
      u.salu_free = c + 1;
      break;
    case IssueClass::Branch:
      if (u.branch_free > c) return false;
      u.branch_free = c + 1;
      e.ready_at = c + cfg_.branch_latency;
      break;
    default: break;  // ds_bpermute (the LDS crossbar, its latency below), s_waitcnt, s_endpgm
  }
  ++(e.priority == AssistPriority::High ? st_.instructions_high : st_.instructions_low);
  isa::execute(w, *op);
  if (w.status() == isa::WaveStatus::Faulted) {
    fail_("assist warp of wave slot " + std::to_string(e.parent) + " faulted at " + hex(op->inst.pc) + ": " +
          w.fault_message());
    return false;
  }
  e.board.mark_results(info, c + (info.cls == IssueClass::Lds ? cfg_.lds_latency : info.latency));
  if (info.cls == IssueClass::EndPgm) finish(e, c);
  return true;
}

// The routine ended at cycle c: its line counts as returned; the parent's
// registers go to the next assist warp waiting for them.
void AssistWarpController::finish(Entry& e, uint64_t c) {
  if (e.priority == AssistPriority::Low) return finish_compress(e, c);
  ++st_.finished_decompress_high;
  st_.parent_wait_cycles += c + 1 - e.arrived;
  if (cfg_.assist_warp_check) {
    ++st_.checked;
    if (AssistWarpStore::line_of(*e.wave, e.line.size(), e.encoding) != e.line)
      fail_("assist warp check: the line rebuilt for wave slot " + std::to_string(e.parent) + " at " + hex(e.addr) +
            " from its " + bdi::name(e.encoding) + " image differs from the line's bytes");
  }
  e.live = false;
  --live_;
  std::function<void()> done = std::move(e.done);
  for (auto it = waiting_.begin(); it != waiting_.end(); ++it)
    if (it->parent == e.parent) {
      it->arrived = std::max(it->arrived, c + 1);
      start(e, std::move(*it));
      waiting_.erase(it);
      break;
    }
  done();
}

// The compression routine chose the line's encoding: the held store goes
// with it.
void AssistWarpController::finish_compress(Entry& e, uint64_t c) {
  ++st_.finished_compress_low;
  const bdi::Encoding chosen = AssistWarpStore::encoding_of(*e.wave);
  ++*st_.lines_compressed[size_t(chosen)];
  if (chosen == e.encoding && chosen != bdi::Encoding::uncompressed) ++st_.first_kept;
  if (cfg_.assist_warp_check) {
    ++st_.checked;
    const bdi::Encoding expected = AssistWarpStore::expected_choice(e.line, e.encoding);
    if (chosen != expected)
      fail_("assist warp check: the compression routine chose " + std::string(bdi::name(chosen)) + " for the line at " +
            hex(e.addr) + " written by wave slot " + std::to_string(e.parent) + " (testing " + bdi::name(e.encoding) +
            " first), BDI chooses " + bdi::name(expected));
  }
  policy_.outcome(*e.kernel, chosen != bdi::Encoding::uncompressed);
  last_chosen_ = chosen;
  e.live = false;
  --low_live_;
  std::function<void(bdi::Encoding)> done = std::move(e.compressed);
  e.compressed = nullptr;
  if (!stores_.empty()) {  // the entry goes to the next buffered store
    stores_.front().arrived = std::max(stores_.front().arrived, c + 1);
    start_compress(e, std::move(stores_.front()));
    stores_.pop_front();
  }
  done(chosen);
}

}  // namespace tessera
