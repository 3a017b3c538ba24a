#include "tlm_bridges/vr_checker.h"

#include "models/cu/isa/hex.h"

namespace tessera::vr {

VrChecker::VrChecker(sc_core::sc_module_name name, const Pins& pins, Config config)
    : sc_module(name), clk("clk"), pins_(pins), config_(config), log_(this->name(), "valid/ready") {
  SC_METHOD(clock_method);
  sensitive << clk.pos();
  dont_initialize();
}

void VrChecker::clock_method() {
  ++cycle_;
  const Pins& p = pins_;
  const uint64_t t = config_.timeout_cycles;
  req_.sample(cycle_, p.req_valid.read(), p.req_ready.read(),
              {p.req_write.read(), p.req_addr.read(), p.req_wdata.read(), p.req_wstrb.read()}, t, log_);
  resp_.sample(cycle_, p.resp_valid.read(), p.resp_ready.read(), {p.resp_rdata.read(), p.resp_error.read()}, t,
               log_);
  if (p.req_valid.read() && p.req_ready.read()) {
    if (p.req_addr.read() % kWordBytes)
      log_.report("REQ_ADDR", "unaligned", "request at " + hex(p.req_addr.read()) + ", not a multiple of 8");
    outstanding_.push_back({p.req_addr.read(), cycle_});
  }
  if (p.resp_valid.read() && p.resp_ready.read()) {
    if (outstanding_.empty())
      log_.report("RESP_VALID", "response_without_request", "a response with no request outstanding");
    else
      outstanding_.pop_front();
    if (!outstanding_.empty()) outstanding_.front().since = cycle_;  // its wait for a response starts now
  }
  if (t && !outstanding_.empty()) {
    Outstanding& o = outstanding_.front();
    if (!o.timed_out && cycle_ - o.since >= t) {
      o.timed_out = true;
      log_.report("RESP_VALID", "response_timeout", "the request at " + hex(o.addr) + " waited " +
                                                        std::to_string(cycle_ - o.since) + " cycles");
    }
  }
}

}  // namespace tessera::vr
