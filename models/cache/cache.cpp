#include "models/cache/cache.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

static_assert(std::is_base_of_v<tlm::tlm_target_socket<>, Cache::TargetSocket>);

Cache::InSocket::InSocket(const char* name, Cache& cache, int port)
    : tlm::tlm_target_socket<>(name), cache_(cache), port_(port) {
  bind(static_cast<tlm::tlm_fw_transport_if<>&>(*this));
}

// No DMI, answered as a simple socket without a DMI callback answers.
bool Cache::InSocket::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_read_write();
  dmi.set_start_address(0x0);
  dmi.set_end_address(~sc_dt::uint64{0});
  return false;
}

Cache::Cache(const BlockContext& ctx, const CacheConfig& cfg)
    : Block(ctx),
      out("out"),
      ctrl("ctrl"),
      cfg_(cfg),
      array_(cfg.sets(), cfg.ways, cfg.line_size, cfg.xor_index),
      period_ticks_(clock_period().value()),
      hit_delay_(cycles(cfg.hit_latency)),
      miss_delay_(cycles(cfg.miss_latency)),
      zero_hit_delay_(cycles(cfg.zero_hit_latency ? cfg.zero_hit_latency : cfg.hit_latency)),
      bank_fold_(log2_of(cfg.banks)),
      req_peq_(accept_),
      bank_stamp_(cfg.banks, 0),
      mshrs_(cfg.mshrs),
      down_peq_(down_),
      ctrl_peq_(maint_),
      hits_(stats().counter("hits", "lookups that found their line (reads, writes, owner atomics)")),
      misses_(stats().counter("misses", "lookups that did not find their line, merged ones included")),
      mshr_merges_(stats().counter("mshr_merges", "misses that joined a fill already outstanding for their line")),
      mshr_full_stalls_(stats().counter("mshr_full_stalls", "requests that waited without END_REQ for an MSHR or MSHR "
                                        "target (counted once per request)")),
      bypasses_(stats().counter("bypasses", "glc loads passed below without lookup or allocation")),
      forwarded_(stats().counter("forwarded", "requests passed below: write-through writes, bypasses, atomics at "
                                 "a cache that does not own the data, no-allocate write misses")),
      fills_(stats().counter("fills", "lines fetched from below")),
      evictions_(stats().counter("evictions", "valid lines replaced by a fill")),
      writebacks_(stats().counter("writebacks", "dirty lines written below (evictions and maintenance)")),
      atomic_lanes_(stats().counter("atomic_lanes", "atomic lanes applied on a line of this cache")),
      errors_(stats().counter("errors", "requests answered with an error status")),
      bytes_from_below_(stats().counter("bytes_from_below", "bytes received from out (fills, forwarded reads)")),
      bytes_to_below_(stats().counter("bytes_to_below", "bytes sent on out (writebacks, forwarded writes)")),
      bytes_read_(stats().counter("bytes_read", "bytes returned to requesters by reads")),
      bytes_written_(stats().counter("bytes_written", "bytes of write requests accepted from requesters")),
      req_load_(stats().counter("requests_load", "load requests (vector memory reads)")),
      req_store_(stats().counter("requests_store", "store requests")),
      req_atomic_(stats().counter("requests_atomic", "atomic requests")),
      req_scalar_(stats().counter("requests_scalar_load", "scalar load requests")),
      req_ifetch_(stats().counter("requests_inst_fetch", "instruction fetch requests")),
      req_writeback_(stats().counter("requests_writeback", "writeback requests from a cache above")),
      req_fill_(stats().counter("requests_fill", "fill requests from a cache above")),
      maint_commands_(stats().counter("maintenance_commands", "maintenance commands completed")),
      lines_invalidated_(stats().counter("lines_invalidated", "lines dropped by maintenance commands")),
      lines_written_back_(stats().counter("lines_written_back", "dirty lines written back by maintenance commands")),
      maint_cycles_(stats().counter("maintenance_cycles", "cycles from accepting maintenance commands to answering")),
      dirty_lines_dropped_(stats().counter("dirty_lines_dropped",
                                           "dirty lines an Invalidate discarded: writes that never reached below")),
      atomic_conflicts_(stats().counter("atomic_conflicts",
                                        "atomics applied here on bytes another cache held dirty: one of the two "
                                        "updates is lost (atomics on one address must be applied in one place)")),
      occupancy_hist_(stats().histogram("queue_occupancy", "requests accepted and not answered, weighted by time in ps",
                                        1, cfg.queue_depth + 1)),
      latency_hist_(stats().histogram("latency_cycles", "request arrival to response, in cycles", 8, 64)) {
  const int n_in = ctx.socket_count("in");
  if (n_in <= 0) throw UserError(ctx.path + ": no in[] sockets are bound; bind at least in[0]");
  for (int i = 0; i < n_in; ++i) {
    in.push_back(std::make_unique<InSocket>(("in_" + std::to_string(i)).c_str(), *this, i));
    in_port_.add(*in.back());
  }
  targets_.add("in", in);
  initiators_.add("out", out);
  mshr_free_bits_.assign((mshrs_.size() + 63) / 64, 0);
  for (size_t i = 0; i < mshrs_.size(); ++i) set_mshr_free(i, true);
  out.register_nb_transport_bw(this, &Cache::out_bw);
  out_port_.add(out);
  ctrl.register_nb_transport_fw(this, &Cache::ctrl_fw, 0);
  ctrl.register_b_transport(this, &Cache::ctrl_b_transport, 0);
  ctrl.register_transport_dbg(this, &Cache::ctrl_dbg, 0);
  if (cfg_.write_back && !cfg_.atomics_below) atomic_homes_ = &shared().get<AtomicHomes>("atomic_homes");
  if (cfg_.zero_bytes) zero_ = std::make_unique<ZeroCache>(cfg_, stats(), &shared(), zero_group(ctx.path));
  setup_compression();
  setup_hmg();
}

Cache::~Cache() = default;

tlm::tlm_initiator_socket<>* Cache::initiator_socket(const std::string& name, int index) {
  return initiators_.find(name, index);
}

tlm::tlm_target_socket<>* Cache::target_socket(const std::string& name, int index) {
  if (name == "ctrl" && index < 0) {
    ctrl_bound_ = true;  // the caller binds what it asks for
    return &ctrl;
  }
  return targets_.find(name, index);
}

// ctrl is optional, but a TLM target socket must be bound: tie an unused one
// to an initiator of our own that never sends anything.
void Cache::before_end_of_elaboration() {
  connect_hmg();
  if (ctrl_bound_) return;
  ctrl_tie_ = std::make_unique<tlm_utils::simple_initiator_socket<Cache>>("ctrl_tie");
  ctrl_tie_->bind(ctrl);
}

std::string Cache::summary() const {
  const uint64_t lookups = hits_.value + misses_.value;
  if (lookups == 0 && maint_commands_.value == 0) return "";
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %llu hits, %llu misses (%.1f%% hit), %llu MSHR merges, %llu writebacks",
                path().c_str(), static_cast<unsigned long long>(hits_.value),
                static_cast<unsigned long long>(misses_.value), lookups ? 100.0 * hits_.value / lookups : 0.0,
                static_cast<unsigned long long>(mshr_merges_.value), static_cast<unsigned long long>(writebacks_.value));
  return buf;
}

void Cache::describe_pending(std::vector<std::string>& lines) const {
  const size_t mshrs_busy = mshr_by_line_.size();
  if (waiting_.empty() && req_peq_.empty() && !occupancy_ && !mshrs_busy && !down_outstanding_ &&
      maint_state_ == MaintState::Idle && ctrl_waiting_.empty())
    return;
  std::string line = path() + ": " + std::to_string(waiting_.size() + req_peq_.size()) +
                     " requests waiting for acceptance, " + std::to_string(occupancy_) + " accepted and unanswered (" +
                     std::to_string(cfg_.queue_depth) + " places), " + std::to_string(mshrs_busy) + " of " +
                     std::to_string(mshrs_.size()) + " MSHRs busy, " + std::to_string(down_outstanding_) +
                     " transactions outstanding below";
  if (maint_state_ != MaintState::Idle) line += ", a maintenance command running";
  if (!ctrl_waiting_.empty()) line += ", " + std::to_string(ctrl_waiting_.size()) + " maintenance commands waiting";
  lines.push_back(line);
}

unsigned Cache::bank_of(uint64_t line) const {
  const uint64_t n = line / cfg_.line_size;
  if (cfg_.xor_index) return static_cast<unsigned>(bank_fold_(n));
  return static_cast<unsigned>(index_mod(n, cfg_.banks));
}

// ---- upstream AT ------------------------------------------------------------

tlm::tlm_sync_enum Cache::begin_req(int port, tlm_generic_payload& t, tlm::tlm_phase& ph, sc_time& d) {
  const sc_time& now = sim_now();
  if (d == SC_ZERO_TIME && waiting_.empty() && req_peq_.empty() && maint_state_ == MaintState::Idle &&
      align_ticks(now.value()) == now.value())
    return accept_at_once(Upstream{&t, port, now, false, ~uint64_t{0}, t.get_extension<GpuAccess>()}, ph, d);
  req_peq_.push_at(Arrival{&t, port}, align_due(d));
  return tlm::TLM_ACCEPTED;
}

void Cache::end_resp(int, tlm_generic_payload&, sc_time& d) {
  retire();
  // Only a response already due can have waited for this port.
  if (!responses_.empty() && responses_.begin()->when <= (sim_now() + d).value()) respond_event_.notify(d);
}

// A request arriving on a clock edge with nothing waiting ahead of it is
// accepted (or not) exactly as accept_method would in this instant, only
// without waking it: the answer goes back on the return path. One that cannot
// be accepted now waits like any other.
tlm::tlm_sync_enum Cache::accept_at_once(Upstream u, tlm::tlm_phase& ph, sc_time& d) {
  const sc_time now = u.arrived;
  release_early(now.value());
  start_cycle(now);
  if (admit(u, now) != Admission::Accepted) {
    waiting_.push_back(u);
    accept_event_.notify(SC_ZERO_TIME);  // accept_method arranges the wake-up it waits for
    return tlm::TLM_ACCEPTED;
  }
  if (accepted_early_) {
    early_answered(u, accepted_early_when_);
    ph = tlm::BEGIN_RESP;
    d = accepted_early_when_ - now;
    return tlm::TLM_COMPLETED;
  }
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void Cache::start_cycle(const sc_time& now) {
  if (now != cycle_ || cycle_stamp_ == 0) {
    cycle_ = now;
    ++cycle_stamp_;
    accepted_in_cycle_ = 0;
  }
}

// The acceptance rules for one request in the current cycle; accepting it is
// its tag lookup.
Cache::Admission Cache::admit(Upstream& u, const sc_time& now) {
  if (accepted_in_cycle_ >= cfg_.ports) return Admission::PortsUsed;
  if (occupancy_ >= cfg_.queue_depth) return Admission::QueueFull;
  const unsigned bank = bank_of(array_.line_of(u.trans->get_address()));
  if (bank_stamp_[bank] == cycle_stamp_) return Admission::BankBusy;
  if (u.blocked_at == array_epoch_) return Admission::NoMshr;  // nothing it waits for has changed
  accepting_ = u.trans;
  accepted_early_ = false;
  const bool done = lookup(u, now);
  accepting_ = nullptr;
  if (!done) {  // no MSHR: a completed fill wakes us
    u.blocked_at = array_epoch_;
    return Admission::NoMshr;
  }
  bank_stamp_[bank] = cycle_stamp_;
  ++accepted_in_cycle_;
  set_occupancy(occupancy_ + 1, now.value());
  return Admission::Accepted;
}

void Cache::accept_method() {
  const sc_time now = sim_now();
  for (Arrival a; req_peq_.pop(a);)
    waiting_.push_back(Upstream{a.trans, a.port, now, false, ~uint64_t{0}, a.trans->get_extension<GpuAccess>()});
  if (waiting_.empty() || maint_state_ != MaintState::Idle) return;  // maintenance holds new requests
  release_early(now.value());
  if (const uint64_t edge = align_ticks(now.value()); edge != now.value()) {  // only on clock edges
    cycle_event_.notify_at(edge);
    return;
  }
  start_cycle(now);
  bool next_cycle = false;  // something waits only for a port or a bank: try again next cycle
  // Requests that stay keep their order: they are moved down over the accepted ones.
  size_t kept = 0, i = 0;
  for (; i < waiting_.size(); ++i) {
    Upstream& u = waiting_[i];
    const Admission a = admit(u, now);
    if (a == Admission::PortsUsed) {
      next_cycle = true;
      break;
    }
    if (a == Admission::QueueFull) {  // retire(), or the next early response due, wakes us
      if (!early_due_.empty()) cycle_event_.notify_at(early_due_.front().when);
      break;
    }
    if (a != Admission::Accepted) {
      next_cycle |= a == Admission::BankBusy;
      if (kept != i) waiting_[kept] = u;
      ++kept;
      continue;
    }
    if (accepted_early_) {  // answered by the lookup: BEGIN_RESP stands for END_REQ
      respond_early(u, accepted_early_when_);
      continue;
    }
    in_port_.end_req(u.port, *u.trans, SC_ZERO_TIME);
  }
  if (kept != i) {
    std::move(waiting_.begin() + static_cast<std::ptrdiff_t>(i), waiting_.end(),
              waiting_.begin() + static_cast<std::ptrdiff_t>(kept));
    waiting_.resize(waiting_.size() - (i - kept));
  }
  if (next_cycle) cycle_event_.notify(clock_period());
}

void Cache::respond(const Upstream& u, const sc_time& when) {
  if (bdi_) compress_answer(u);
  if (u.ext && u.ext->early_response) {
    if (u.trans != accepting_) {
      respond_early(u, when);
    } else {  // accept_method sends it once the request counts as accepted
      accepted_early_ = true;
      accepted_early_when_ = when;
    }
    return;
  }
  responses_.insert(when.value(), u);
  respond_event_.notify_at(when.value());
}

void Cache::respond_early(const Upstream& u, const sc_time& when) {
  early_answered(u, when);
  in_port_.respond_early(u.port, *u.trans, when - sim_now());
}

// What answering `u` for `when` means here, however the answer travels.
void Cache::early_answered(const Upstream& u, const sc_time& when) {
  const uint64_t period = clock_period().value();
  latency_hist_.sample(period ? (when - u.arrived).value() / period : 0);
  if (u.trans->get_response_status() != tlm::TLM_OK_RESPONSE) ++errors_;
  early_due_.insert(when.value(), u.port);
}

void Cache::respond_method() {
  const sc_time now = sim_now();
  const uint64_t period = clock_period().value();
  auto it = responses_.begin();
  while (it != responses_.end() && it->when <= now.value()) {
    const Upstream u = it->item;
    if (in_port_.busy(u.port)) {  // END_RESP on that port wakes us
      ++it;
      continue;
    }
    it = responses_.erase(it);
    latency_hist_.sample(period ? (now - u.arrived).value() / period : 0);
    if (u.trans->get_response_status() != tlm::TLM_OK_RESPONSE) ++errors_;
    if (in_port_.begin_resp(u.port, *u.trans, SC_ZERO_TIME)) retire();
  }
  // Nothing answered here inserts a response, so `it` is the first one not due yet.
  if (it != responses_.end()) respond_event_.notify_at(it->when);
}

// A freed place matters only to requests already waiting for one.
void Cache::retire() {
  const uint64_t now = sim_now().value();
  release_early(now);
  set_occupancy(occupancy_ - 1, now);
  if (!waiting_.empty()) accept_event_.notify(SC_ZERO_TIME);
}

void Cache::release_due(uint64_t now) {
  while (!early_due_.empty() && early_due_.front().when <= now) {
    set_occupancy(occupancy_ - 1, early_due_.front().when);
    early_due_.pop_front();
  }
}

void Cache::end_of_simulation() {
  release_early(sim_now().value());
  if (zero_) zero_->update_hit_rate();
}

}  // namespace tessera
