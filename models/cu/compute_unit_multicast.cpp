// The compute unit's side of the LDS multicast unit (models/lds/lds_multicast.h,
// docs/IWMA.md): which reads it sees, how a merged access is timed, the
// release of reads whose partner cannot come, and the counters.
#include <algorithm>

#include "models/cu/compute_unit.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/hex.h"

namespace tessera {

namespace {

analysis::WorkgroupShape shape_of(const Workgroup& wg) { return extent_of(wg.task); }

}  // namespace

// One LDS read's bank access (for one wave, or for two with `second`), counted.
void ComputeUnit::serve_lds_read(const lds::LdsRequest& r, uint64_t c, lds::LdsPipeline::Tag tag,
                                 const lds::LdsPipeline::Tag* second) {
  const lds::LdsCost cost = second ? lds_.submit_shared(r, c, tag, *second) : lds_.submit(r, c, tag);
  st_.lds_conflict_cycles += cost.conflict_cycles;
  st_.lds_busy_cycles += cost.cycles;
  st_.lds_read_bytes += uint64_t(__builtin_popcountll(r.exec)) * r.bytes * r.addresses_per_lane;
}

// When the wave's next LDS instruction can enter: a marked read goes through
// the unit's request queue (lds_multicast_queue places of waiting room for the
// banks); every other one waits for free banks, as without the unit.
uint64_t ComputeUnit::multicast_accepts_at(const WaveSlot& w) const {
  const bool marked = w.marks && lds::multicast_allowed(w.marks->at(w.wave->pc), shape_of(*w.wg));
  return lds_.accepts_at(marked ? cfg_.lds_multicast_queue : 0);
}

// A marked ds_read* the workgroup's shape allows to merge, from a wave whose
// lanes are all active (a partial wave takes no part, as the analysis assumes).
bool ComputeUnit::multicast_candidate(const WaveSlot& w, const isa::DecodedOp& op, const lds::LdsRequest& r) const {
  return w.marks && r.exec == ~0ull && lds::multicast_allowed(w.marks->at(op.inst.pc), shape_of(*w.wg));
}

void ComputeUnit::multicast_read(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, const lds::LdsRequest& r,
                                 uint64_t c) {
  ++st_.lds_reads_marked;
  lds::MulticastRead read;
  read.group = w.wg;
  read.tag = {&w, &info};
  read.key = uint64_t(op.inst.words[1]) << 32 | op.inst.words[0];  // DS is a 64-bit encoding
  read.request = r;
  lds::HeldRead partner;
  switch (multicast_->offer(read, c, partner)) {
    case lds::LdsMulticast::Outcome::Waiting: return;  // no bank access until its partner comes
    case lds::LdsMulticast::Outcome::TableFull:
      ++st_.lds_multicast_table_full;
      serve_lds_read(r, c, read.tag);
      return;
    case lds::LdsMulticast::Outcome::Mismatch: {
      ++st_.lds_multicast_fallbacks;
      report_mismatch(w, partner, op);
      const lds::LdsRequest held = partner.request();
      serve_lds_read(held, c, partner.tag());
      serve_lds_read(r, c, read.tag);
      return;
    }
    case lds::LdsMulticast::Outcome::Merged: {
      ++st_.lds_reads_merged;
      // Both waves' destination registers must be free before the one
      // access writes them: no ALU result still due in either.
      const WaveSlot& other = *static_cast<const WaveSlot*>(partner.tag().owner);
      const InstInfo& other_info = *static_cast<const InstInfo*>(partner.tag().what);
      const uint64_t start = std::max({c, w.board.results_ready(info), other.board.results_ready(other_info)});
      const lds::LdsPipeline::Tag first = partner.tag();
      serve_lds_read(r, start, first, &read.tag);
      return;
    }
  }
}

// A mismatch means the static marks were wrong: said once per run, with the
// kernel, the PC and the two waves; counted every time.
void ComputeUnit::report_mismatch(const WaveSlot& w, const lds::HeldRead& partner, const isa::DecodedOp& op) {
  bool& reported = shared().get<bool>("lds_multicast_mismatch_reported");
  if (reported) return;
  reported = true;
  const WaveSlot& other = *static_cast<const WaveSlot*>(partner.tag().owner);
  warn("LDS multicast: marked read with different addresses in two waves (a wrong mark; served as two reads): kernel " +
       w.wg->task.ctx->kernel->name + ", pc " + hex(op.inst.pc) + " (" + isa::disassemble(op.inst) + "), waves " +
       std::to_string(other.wave->id.wave_in_group) + " and " + std::to_string(w.wave->id.wave_in_group) +
       " of workgroup " + std::to_string(w.wg->task.workgroup[0]) + "," + std::to_string(w.wg->task.workgroup[1]) +
       "," + std::to_string(w.wg->task.workgroup[2]) + " (counted in lds_multicast_fallbacks; reported once)");
}

// Reads whose wait for a partner has ended are served alone.
void ComputeUnit::expire_multicast(uint64_t c) {
  lds::HeldRead h;
  while (multicast_->pop_expired(c, h)) {
    ++st_.lds_multicast_expired;
    serve_lds_read(h.request(), c, h.tag());
  }
}

// When at most one wave of a workgroup is neither at a barrier nor ended, no
// other wave can send a partner before the barrier opens: its waiting reads
// are served alone at once.
void ComputeUnit::release_multicast(Workgroup& wg, uint64_t c) {
  if (wg.running > wg.at_barrier + 1 || !multicast_->waiting()) return;
  lds::HeldRead h;
  while (multicast_->pop_group(&wg, h)) {
    ++st_.lds_multicast_released;
    serve_lds_read(h.request(), c, h.tag());
  }
}

}  // namespace tessera
