#include "tlm_bridges/axi_checker.h"

#include <algorithm>

#include "models/cu/isa/hex.h"

namespace tessera::axi {

AxiChecker::AxiChecker(sc_core::sc_module_name name, const Pins& pins, Config config)
    : sc_module(name), clk("clk"), pins_(pins), config_(config), log_(this->name(), "AXI") {
  SC_METHOD(clock_method);
  sensitive << clk.pos();
  dont_initialize();
}

void AxiChecker::report(const std::string& signal, const std::string& rule, const std::string& detail) {
  log_.report(signal, rule, detail);
}

void AxiChecker::clock_method() {
  ++cycle_;
  const Pins& p = pins_;
  const uint64_t t = config_.timeout_cycles;
  aw_.sample(cycle_, p.awvalid.read(), p.awready.read(),
             {p.awid.read(), p.awaddr.read(), p.awlen.read(), p.awsize.read(), p.awburst.read()}, t, log_);
  w_.sample(cycle_, p.wvalid.read(), p.wready.read(), {p.wdata.read(), p.wstrb.read(), p.wlast.read()}, t, log_);
  b_.sample(cycle_, p.bvalid.read(), p.bready.read(), {p.bid.read(), p.bresp.read()}, t, log_);
  ar_.sample(cycle_, p.arvalid.read(), p.arready.read(),
             {p.arid.read(), p.araddr.read(), p.arlen.read(), p.arsize.read(), p.arburst.read()}, t, log_);
  r_.sample(cycle_, p.rvalid.read(), p.rready.read(),
            {p.rid.read(), p.rdata.read(), p.rresp.read(), p.rlast.read()}, t, log_);
  if (p.awvalid.read() && p.awready.read()) on_aw();
  if (p.wvalid.read() && p.wready.read()) on_w();
  if (p.bvalid.read() && p.bready.read()) on_b();
  if (p.arvalid.read() && p.arready.read()) on_ar();
  if (p.rvalid.read() && p.rready.read()) on_r();
  if (config_.timeout_cycles) {
    check_timeouts(aw_without_data_, "WVALID");
    for (auto& [id, q] : awaiting_b_) check_timeouts(q, "BVALID");
    for (auto& [id, q] : awaiting_r_) check_timeouts(q, "RVALID");
  }
}

void AxiChecker::check_address(const char* ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst) {
  const std::string what = std::string(ch) + " burst at " + hex(addr) + " of " + std::to_string(len + 1) + " beats";
  if (burst == 3) report(std::string(ch) + "BURST", "burst_type", what + " has the reserved burst type 3");
  if (size > kBusSize)
    report(std::string(ch) + "SIZE", "burst_size",
           what + ": beats of " + std::to_string(1u << std::min(size, 31u)) + " bytes on an 8-byte bus");
  const uint32_t s = std::min(size, kBusSize);
  if (burst == kIncr && crosses_4k(addr, len, s))
    report(std::string(ch) + "ADDR", "4k_boundary", what + " crosses a 4 KiB boundary");
  if (burst == kWrap && ((len != 1 && len != 3 && len != 7 && len != 15) || addr % (1u << s) != 0))
    report(std::string(ch) + "LEN", "wrap_burst", what + ": a WRAP burst is 2, 4, 8 or 16 aligned beats");
  if (burst == kFixed && len > 15)
    report(std::string(ch) + "LEN", "fixed_length", what + ": a FIXED burst is at most 16 beats");
}

void AxiChecker::on_aw() {
  const Request aw{pins_.awid.read(), pins_.awlen.read(), cycle_};
  check_address("AW", pins_.awaddr.read(), aw.len, pins_.awsize.read(), pins_.awburst.read());
  if (!data_without_aw_.empty()) {  // its data came first
    const unsigned beats = data_without_aw_.front();
    data_without_aw_.pop_front();
    write_data_done(aw, beats, true);
  } else {
    aw_without_data_.push_back(aw);
  }
}

void AxiChecker::on_w() {
  ++w_beats_;
  const bool last = pins_.wlast.read();
  if (aw_without_data_.empty()) {  // data ahead of its AW: counted until WLAST
    if (last) {
      data_without_aw_.push_back(w_beats_);
      w_beats_ = 0;
    } else if (w_beats_ > 256) {
      report("WLAST", "wlast", "257 W beats without WLAST");
      w_beats_ = 0;
    }
    return;
  }
  const Request& aw = aw_without_data_.front();
  if (last || w_beats_ == aw.len + 1) {
    const Request done = aw;
    aw_without_data_.pop_front();
    write_data_done(done, w_beats_, last);
    w_beats_ = 0;
  }
}

void AxiChecker::write_data_done(const Request& aw, unsigned beats, bool had_last) {
  if (!had_last)
    report("WLAST", "wlast", "no WLAST on beat " + std::to_string(beats) + ", the last of AWID " +
                                 std::to_string(aw.id) + "'s burst");
  else if (beats != aw.len + 1)
    report("WLAST", "wlast", "WLAST on beat " + std::to_string(beats) + " of a " + std::to_string(aw.len + 1) +
                                 "-beat burst (AWID " + std::to_string(aw.id) + ")");
  Request waiting = aw;
  waiting.since = cycle_;
  awaiting_b_[aw.id].push_back(waiting);
}

void AxiChecker::on_b() {
  const uint32_t id = pins_.bid.read();
  auto& q = awaiting_b_[id];
  if (!q.empty()) {
    q.pop_front();
    return;
  }
  const bool data_pending = std::any_of(aw_without_data_.begin(), aw_without_data_.end(),
                                        [&](const Request& r) { return r.id == id; });
  if (data_pending)
    report("BVALID", "response_order", "write response for BID " + std::to_string(id) +
                                           " before the last W beat of its burst");
  else
    report("BVALID", "response_without_request", "write response for BID " + std::to_string(id) +
                                                     " with no write of that ID outstanding");
}

void AxiChecker::on_ar() {
  check_address("AR", pins_.araddr.read(), pins_.arlen.read(), pins_.arsize.read(), pins_.arburst.read());
  awaiting_r_[pins_.arid.read()].push_back({pins_.arid.read(), pins_.arlen.read(), cycle_});
}

void AxiChecker::on_r() {
  const uint32_t id = pins_.rid.read();
  auto& q = awaiting_r_[id];
  if (q.empty()) {
    report("RVALID", "response_without_request",
           "read data for RID " + std::to_string(id) + " with no read of that ID outstanding");
    return;
  }
  Request& r = q.front();
  ++r.beats;
  r.since = cycle_;  // a long burst that keeps coming is not late
  const bool last = pins_.rlast.read();
  if (last && r.beats != r.len + 1)
    report("RLAST", "rlast", "RLAST on beat " + std::to_string(r.beats) + " of a " + std::to_string(r.len + 1) +
                                 "-beat burst (RID " + std::to_string(id) + ")");
  else if (!last && r.beats == r.len + 1)
    report("RLAST", "rlast", "no RLAST on beat " + std::to_string(r.beats) + ", the last of RID " +
                                 std::to_string(id) + "'s burst");
  if (last || r.beats == r.len + 1) q.pop_front();
}

void AxiChecker::check_timeouts(std::deque<Request>& q, const char* signal) {
  for (Request& r : q)
    if (!r.timed_out && cycle_ - r.since >= config_.timeout_cycles) {
      r.timed_out = true;
      report(signal, "response_timeout", "ID " + std::to_string(r.id) + " waited " +
                                             std::to_string(cycle_ - r.since) + " cycles");
    }
}

}  // namespace tessera::axi
