// Cache maintenance commands on `ctrl` (CacheCommand extension): invalidate,
// write back, or both. In AT a command is accepted (END_REQ) when no other is
// running; from then on the cache takes no new requests, lets every
// outstanding fill, forwarded request and writeback finish (drain), then
// walks the lines the command touches at maintenance_cycles per line, queuing
// each dirty line's writeback as the walk reaches it, and answers when the
// walk is over and every writeback is acknowledged.
#include "models/cache/cache.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

tlm::tlm_sync_enum Cache::ctrl_fw(int, tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
  if (ph == tlm::BEGIN_REQ) {
    ctrl_peq_.push_at(&t, align_due(d));
    return tlm::TLM_ACCEPTED;
  }
  if (ph == tlm::END_RESP && &t == maint_cmd_ && maint_state_ == MaintState::Responding) {
    maint_finish();
    return tlm::TLM_COMPLETED;
  }
  checker_.unexpected_phase(t, ph, "ctrl");
  return tlm::TLM_COMPLETED;
}

template <class F>
uint64_t Cache::maint_apply(CacheOp op, CacheCommand& cmd, F writeback) {
  cmd.lines_written_back = cmd.lines_invalidated = 0;
  uint64_t touched = 0, dropped = 0;
  for (int idx = 0; idx < array_.capacity(); ++idx) {
    const bool dirty = array_.dirty(idx);
    if (!array_.valid(idx) || (op == CacheOp::Writeback && !dirty)) continue;
    if (op != CacheOp::Invalidate && dirty) {
      Victim wb = take_dirty(idx);
      writeback(wb, touched);
      ++cmd.lines_written_back;
    }
    dropped += op == CacheOp::Invalidate && dirty;
    if (op != CacheOp::Writeback) {
      array_.invalidate(idx);
      ++cmd.lines_invalidated;
    }
    ++touched;
  }
  if (zero_) {  // mask lines are maintained like data lines, after them
    zero_->maintain(op, [&](uint64_t key, bool dirty) {
      if (dirty && op != CacheOp::Invalidate) {
        Victim wb = mask_victim(key);
        writeback(wb, touched);
        ++cmd.lines_written_back;
      }
      if (op != CacheOp::Writeback) ++cmd.lines_invalidated;
      ++touched;
    });
  }
  lines_written_back_ += cmd.lines_written_back;
  lines_invalidated_ += cmd.lines_invalidated;
  if (dropped) dropped_dirty(dropped);
  return touched;
}

// Discarding dirty data is what Invalidate means, but a platform whose
// kernel-boundary policy invalidates a write-back cache without writing it
// back first loses writes and computes wrong results: say so, once.
void Cache::dropped_dirty(uint64_t lines) {
  dirty_lines_dropped_ += lines;
  if (dropped_logged_) return;
  dropped_logged_ = true;
  warn("an Invalidate discarded " + std::to_string(lines) +
       " dirty line(s): their writes never reached the level below. A write-back cache needs a Writeback before "
       "it is invalidated (the kernel-start acquire invalidates the CU-side caches, which the dispatcher writes "
       "back only at a release that writes back; further drops are only counted in dirty_lines_dropped)");
}

void Cache::maint_method() {
  for (tlm_generic_payload* t; ctrl_peq_.pop(t);) ctrl_waiting_.push_back(t);
  const sc_time now = sim_now();
  if (maint_state_ == MaintState::Idle && !maint_start()) return;
  if (maint_state_ == MaintState::Draining) {
    if (!mshr_by_line_.empty() || down_outstanding_) return;  // down_method wakes us
    maint_walk(now);
  }
  if (maint_state_ != MaintState::Walking) return;
  if (now < maint_walk_end_) {
    maint_event_.notify(maint_walk_end_ - now);
    return;
  }
  if (down_outstanding_) return;  // writebacks not yet acknowledged
  if (maint_cmd_->get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
    maint_cmd_->set_response_status(tlm::TLM_OK_RESPONSE);
  ++maint_commands_;
  maint_cycles_ += static_cast<uint64_t>((now - maint_started_) / clock_period());
  maint_state_ = MaintState::Responding;
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_time d = SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = ctrl->nb_transport_bw(*maint_cmd_, ph, d);
  if (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::END_RESP)) maint_finish();
}

bool Cache::maint_start() {
  if (ctrl_waiting_.empty()) return false;
  maint_cmd_ = ctrl_waiting_.front();
  ctrl_waiting_.pop_front();
  maint_started_ = sim_now();
  tlm::tlm_phase ph = tlm::END_REQ;
  sc_time d = SC_ZERO_TIME;
  ctrl->nb_transport_bw(*maint_cmd_, ph, d);
  maint_cmd_->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  maint_state_ = MaintState::Draining;
  if (!maint_cmd_->get_extension<CacheCommand>()) {
    warn("maintenance request without a CacheCommand extension: " + describe(*maint_cmd_));
    maint_cmd_->set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    maint_state_ = MaintState::Walking;
    maint_walk_end_ = maint_started_;
  }
  return true;
}

void Cache::maint_walk(const sc_time& now) {
  CacheCommand& cmd = *maint_cmd_->get_extension<CacheCommand>();
  const uint64_t touched = maint_apply(cmd.op, cmd, [&](Victim& wb, uint64_t k) {
    send_writeback(wb, now + cycles((k + 1) * cfg_.maintenance_cycles));
  });
  maint_walk_end_ = now + cycles(touched * cfg_.maintenance_cycles);
  maint_state_ = MaintState::Walking;
}

void Cache::maint_finish() {
  maint_state_ = MaintState::Idle;
  maint_cmd_ = nullptr;
  accept_event_.notify(SC_ZERO_TIME);
  if (!ctrl_waiting_.empty()) maint_event_.notify(SC_ZERO_TIME);
}

// Functional: the command takes effect at once; its cost is the walk plus the
// writebacks' own delays, one after the other.
void Cache::ctrl_b_transport(int, tlm_generic_payload& t, sc_time& d) {
  CacheCommand* cmd = t.get_extension<CacheCommand>();
  if (!cmd) {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const uint64_t touched = maint_apply(cmd->op, *cmd, [&](Victim& wb, uint64_t) { writeback_lt(wb, d); });
  d += cycles(touched * cfg_.maintenance_cycles);
  ++maint_commands_;
  t.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Describes the cache to whoever sends it commands: whether it may hold dirty
// lines and applies atomics itself. Moves no data (returns 0 bytes) and takes
// no time.
unsigned int Cache::ctrl_dbg(int, tlm_generic_payload& t) {
  if (CacheCommand* cmd = t.get_extension<CacheCommand>()) {
    cmd->write_back = cfg_.write_back;
    cmd->atomics_here = cfg_.write_back && !cfg_.atomics_below;
    cmd->path = &path();
    t.set_response_status(tlm::TLM_OK_RESPONSE);
  } else {
    t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
  }
  return 0;
}

}  // namespace tessera
