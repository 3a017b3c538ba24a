// A protocol checker for the valid/ready memory link: watches the pins on the
// rising clock edge, drives nothing, never stops the simulation; each rule
// broken is recorded (`violations()`) and logged with time, signal and rule.
//
// Rules (names as reported):
//   valid_held                REQ_VALID or RESP_VALID fell before its READY
//   payload_stable            a payload signal changed while its VALID waited
//   unaligned                 REQ_ADDR is not a multiple of 8
//   response_without_request  a response with no request outstanding
//   handshake_timeout         a VALID waited `timeout_cycles` for READY
//   response_timeout          the oldest request waited as long for its response
//                             (counted from its request, or from the response before it)
#pragma once
#include <cstdint>
#include <deque>

#include <systemc>

#include "tlm_bridges/handshake_watch.h"
#include "tlm_bridges/vr_pins.h"

namespace tessera::vr {

class VrChecker : public sc_core::sc_module {
 public:
  struct Config {
    uint64_t timeout_cycles = 1000;  // 0: no timeouts
  };
  SC_HAS_PROCESS(VrChecker);
  VrChecker(sc_core::sc_module_name name, const Pins& pins, Config config);

  sc_core::sc_in<bool> clk;

  const std::vector<Violation>& violations() const { return log_.all(); }
  size_t count(const std::string& rule) const { return log_.count(rule); }

 private:
  struct Outstanding {
    uint64_t addr, since;
    bool timed_out = false;
  };
  void clock_method();

  const Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  HandshakeWatch req_{"REQ_", {"REQ_WRITE", "REQ_ADDR", "REQ_WDATA", "REQ_WSTRB"}};
  HandshakeWatch resp_{"RESP_", {"RESP_RDATA", "RESP_ERROR"}};
  std::deque<Outstanding> outstanding_;
  ViolationLog log_;
};

}  // namespace tessera::vr
