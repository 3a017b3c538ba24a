// The `out` side of a cache: fills, forwarded requests and writebacks leave
// `out_ports` per cycle (one by default) in the order they became ready, each waiting for the level
// below to accept it (END_REQ) before the next one goes.
#include <algorithm>
#include <cstring>

#include "models/cache/cache.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

Cache::DownTxn::DownTxn() : ext(new GpuAccess) { set_extension(ext); }  // the payload owns ext

Cache::DownTxn* Cache::new_down(DownKind kind) {
  if (down_free_.empty()) {
    down_pool_.push_back(std::make_unique<DownTxn>());
    down_free_.push_back(down_pool_.back().get());
  }
  DownTxn* d = down_free_.back();
  down_free_.pop_back();
  d->kind = kind;
  d->busy = true;
  d->mshr = -1;
  d->line = 0;
  d->up = Upstream{};
  d->ext->reset();
  d->enables.clear();
  d->set_byte_enable_ptr(nullptr);
  d->set_byte_enable_length(0);
  d->set_dmi_allowed(false);
  d->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return d;
}

void Cache::free_down(DownTxn* d) {
  d->busy = false;
  down_free_.push_back(d);
}

void Cache::send_down(DownTxn* d, const sc_time& when) {
  // out_bw completes every BEGIN_RESP at once: a level below may answer as soon
  // as it knows when (a crossbar or router in between clears this again).
  d->ext->early_response = true;
  ++down_outstanding_;
  out_queue_.insert(when.value(), d);
  out_event_.notify_at(when.value());
}

void Cache::send_fill(int mshr, const sc_time& when) {
  Mshr& m = mshrs_[mshr];
  if (wb_in_flight_.count(m.line)) {
    // A writeback of this line is still on its way down; a fill sent now could
    // overtake it and bring back stale data. writeback_done() sends it.
    m.waiting_wb = true;
    return;
  }
  DownTxn* d = new_down(DownKind::Fill);
  d->mshr = mshr;
  d->line = m.line;
  if (ZeroCache::is_key(m.line)) {
    send_mask_fill(*d, m.line);
    send_down(d, when);
    return;
  }
  d->data.assign(cfg_.line_size, 0);
  d->set_command(tlm::TLM_READ_COMMAND);
  d->set_address(m.line);
  d->set_data_ptr(d->data.data());
  d->set_data_length(cfg_.line_size);
  d->set_streaming_width(cfg_.line_size);
  d->ext->kind = AccessKind::Fill;
  send_down(d, when);
}

void Cache::copy_request(const tlm_generic_payload& from, DownTxn& to) {
  const uint64_t len = from.get_data_length();
  to.set_command(from.get_command());
  to.set_address(from.get_address());
  if (from.is_write())
    to.data.assign(from.get_data_ptr(), from.get_data_ptr() + len);
  else
    to.data.assign(len, 0);
  to.set_data_ptr(to.data.data());
  to.set_data_length(static_cast<unsigned>(len));
  to.set_streaming_width(static_cast<unsigned>(len));
  if (from.get_byte_enable_ptr()) {
    to.enables.resize(len);
    for (uint64_t i = 0; i < len; ++i) to.enables[i] = from.get_byte_enable_ptr()[i % from.get_byte_enable_length()];
    to.set_byte_enable_ptr(to.enables.data());
    to.set_byte_enable_length(static_cast<unsigned>(len));
  }
  if (const GpuAccess* ext = from.get_extension<GpuAccess>())
    *to.ext = *ext;
  else
    to.ext->kind = from.is_read() ? AccessKind::Load : AccessKind::Store;
}

void Cache::forward(const Upstream& u, const sc_time& when) {
  DownTxn* d = new_down(DownKind::Forward);
  d->up = u;
  copy_request(*u.trans, *d);
  ++forwarded_;
  if (u.trans->is_write()) bytes_to_below_ += u.trans->get_data_length();
  if (bdi_) compress_down(*d);
  send_down(d, when);
}

void Cache::send_writeback(Victim& wb, const sc_time& when) {
  DownTxn* d = new_down(DownKind::Writeback);
  const uint64_t line = wb.line;
  d->line = line;
  d->data.swap(wb.data);
  d->enables.swap(wb.enables);
  d->set_command(tlm::TLM_WRITE_COMMAND);
  d->set_address(writeback_address(line));
  d->set_data_ptr(d->data.data());
  d->set_data_length(cfg_.line_size);
  d->set_streaming_width(cfg_.line_size);
  d->set_byte_enable_ptr(d->enables.empty() ? nullptr : d->enables.data());
  d->set_byte_enable_length(static_cast<unsigned>(d->enables.size()));
  d->ext->kind = writeback_kind(line);
  d->seq = ++writeback_seq_;
  ++wb_in_flight_[line];
  count_writeback(line);
  if (bdi_) compress_down(*d);
  send_down(d, when);
}

void Cache::out_method() {
  if (out_port_.busy(0) || out_queue_.empty()) return;  // END_REQ or new work wakes us
  const uint64_t now = sim_now().value();
  const uint64_t when = std::max(out_queue_.front().when, out_next_);
  if (when > now) {
    out_event_.notify_at(when);
    return;
  }
  DownTxn* d = out_queue_.front().item;
  out_queue_.pop_front();
  // Up to out_ports requests leave in one cycle (a memory-side cache's banks
  // each have their path to memory); the rest wait for the next cycle.
  out_sent_ = now == out_cycle_ ? out_sent_ + 1 : 1;
  out_cycle_ = now;
  out_next_ = out_sent_ < cfg_.out_ports ? now : now + period_ticks_;
  out_port_.begin_req(*this, 0, *d, SC_ZERO_TIME);
  if (!out_port_.busy(0) && !out_queue_.empty()) out_event_.notify_at(out_next_);
}

tlm::tlm_sync_enum Cache::out_bw(tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
  return out_port_.nb_transport_bw(*this, 0, t, ph, d);
}

// The next request may go when END_REQ is due (a crossbar's is its input link's
// crossing). On the call's return out_method itself looks at its queue again.
void Cache::request_taken(int, tlm_generic_payload&, const sc_time& d, bool on_call) {
  if (on_call) return;
  out_next_ = std::max<uint64_t>(out_next_, sim_now().value() + d.value());
  if (!out_queue_.empty()) out_event_.notify_at(out_next_);
}

// An END_REQ on the call's return is due as one on the backward path would be.
void Cache::end_req(int, tlm_generic_payload&, sc_time& d, bool on_call) {
  if (on_call) out_next_ = std::max<uint64_t>(out_next_, sim_now().value() + d.value());
}

// Responses are always taken at once; an END_RESP owed goes back at once.
tlm::tlm_sync_enum Cache::begin_resp(int, tlm_generic_payload& t, sc_time& d, bool, bool on_call) {
  down_peq_.push_at(&t, align_due(bdi_ ? d + decompress_delay(t) : d));
  if (on_call) d = SC_ZERO_TIME;
  return tlm::TLM_COMPLETED;
}

void Cache::down_method() {
  const sc_time now = sim_now();
  for (tlm_generic_payload* t; down_peq_.pop(t);) {
    DownTxn* d = static_cast<DownTxn*>(t);  // only our own payloads travel on out
    --down_outstanding_;
    switch (d->kind) {
      case DownKind::Fill: complete_fill(*d, now); break;
      case DownKind::Forward: forward_done(*d, now); break;
      case DownKind::Writeback: writeback_done(*d); break;
    }
    free_down(d);
  }
  if (maint_state_ != MaintState::Idle) maint_event_.notify(SC_ZERO_TIME);
}

void Cache::forward_done(DownTxn& d, const sc_time& now) {
  tlm_generic_payload& t = *d.up.trans;
  const tlm::tlm_response_status status = d.get_response_status();
  if (status == tlm::TLM_OK_RESPONSE && t.is_read()) {
    const uint8_t* be = t.get_byte_enable_ptr();
    for (uint64_t i = 0; i < t.get_data_length(); ++i)
      if (!be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED) t.get_data_ptr()[i] = d.data[i];
    bytes_read_ += t.get_data_length();
    bytes_from_below_ += t.get_data_length();
  }
  GpuAccess* ext = t.get_extension<GpuAccess>();
  if (ext && ext->kind == AccessKind::Atomic)
    for (size_t i = 0; i < ext->lanes.size() && i < d.ext->lanes.size(); ++i) ext->lanes[i].old = d.ext->lanes[i].old;
  t.set_response_status(status);
  sc_time when = bdi_ ? now + compress_delay(d) : now;
  if (hmg_ && t.is_write()) when += hmg_written(array_.line_of(t.get_address()));
  respond(d.up, when);
  // The answer frees the request's queue place (at once, or when an early
  // response is due): a request may have waited for it.
  if (!waiting_.empty()) accept_event_.notify(sc_core::SC_ZERO_TIME);
}

void Cache::writeback_done(DownTxn& d) {
  if (d.get_response_status() != tlm::TLM_OK_RESPONSE)
    warn("writeback of line " + hex(d.line) + " failed (" + d.get_response_string() + "); its data is lost");
  auto it = wb_in_flight_.find(d.line);
  if (--it->second > 0) return;
  wb_in_flight_.erase(it);
  below_done(d.line);
}

void Cache::below_done(uint64_t line) {
  if (Mshr* m = mshr_of(line); m && m->waiting_wb) {
    m->waiting_wb = false;
    send_fill(static_cast<int>(m - mshrs_.data()), align(sim_now()));
  }
}

}  // namespace tessera
