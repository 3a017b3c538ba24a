// An AXI4 protocol checker: watches a link's pins on the rising clock edge and
// records every rule broken, with the time, the signal and the rule's name,
// as a warning line and in `violations()`. It never stops the simulation and
// never drives a pin, so it can be put on any link.
//
// Rules (names as reported):
//   valid_held          a VALID fell before its READY
//   payload_stable      a payload signal changed while VALID waited for READY
//   burst_type          AxBURST is the reserved value 3
//   burst_size          AxSIZE is wider than the 64-bit bus
//   4k_boundary         an INCR burst crosses a 4 KiB boundary
//   wrap_burst          a WRAP burst of a length other than 2, 4, 8, 16 beats
//                       or at an address not aligned to its beat size
//   fixed_length        a FIXED burst of more than 16 beats
//   wlast               WLAST not on exactly the burst's last beat (AWLEN + 1)
//   rlast               RLAST not on exactly the burst's last beat (ARLEN + 1)
//   response_order      a write response before the last W beat of the
//                       oldest write of its ID
//   response_without_request  a B or R beat whose ID has nothing outstanding
//   handshake_timeout   a VALID waited more than `timeout_cycles` for READY
//   response_timeout    a write waited more than `timeout_cycles` for its W
//                       data or its B, or a read as long for its next R beat
// Responses are matched to the oldest outstanding request of their ID, which
// is AXI's ordering rule; a subordinate that answered two requests of one ID
// in the wrong order with the right beat counts cannot be told apart on the
// pins (they carry no other tag), so that case goes unseen.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "tlm_bridges/axi_pins.h"
#include "tlm_bridges/handshake_watch.h"

namespace tessera::axi {

using tessera::Violation;

class AxiChecker : public sc_core::sc_module {
 public:
  struct Config {
    uint64_t timeout_cycles = 1000;  // 0: no timeouts
  };
  SC_HAS_PROCESS(AxiChecker);
  AxiChecker(sc_core::sc_module_name name, const Pins& pins, Config config);

  sc_core::sc_in<bool> clk;

  const std::vector<Violation>& violations() const { return log_.all(); }
  // How many times `rule` was broken.
  size_t count(const std::string& rule) const { return log_.count(rule); }

 private:
  struct Request {
    uint32_t id, len;
    uint64_t since;
    unsigned beats = 0;  // read beats seen
    bool timed_out = false;
  };

  void clock_method();
  void check_address(const char* channel, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst);
  void on_aw();
  void on_w();
  void on_b();
  void on_ar();
  void on_r();
  void write_data_done(const Request& aw, unsigned beats, bool had_last);
  void check_timeouts(std::deque<Request>& q, const char* signal);
  void report(const std::string& signal, const std::string& rule, const std::string& detail);

  const Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  HandshakeWatch aw_{"AW", {"AWID", "AWADDR", "AWLEN", "AWSIZE", "AWBURST"}};
  HandshakeWatch w_{"W", {"WDATA", "WSTRB", "WLAST"}};
  HandshakeWatch b_{"B", {"BID", "BRESP"}};
  HandshakeWatch ar_{"AR", {"ARID", "ARADDR", "ARLEN", "ARSIZE", "ARBURST"}};
  HandshakeWatch r_{"R", {"RID", "RDATA", "RRESP", "RLAST"}};
  std::deque<Request> aw_without_data_;  // AW seen, W beats not all in
  std::deque<unsigned> data_without_aw_; // W bursts (beat counts) ahead of their AW
  unsigned w_beats_ = 0;                 // beats of the W burst in progress
  std::map<uint32_t, std::deque<Request>> awaiting_b_, awaiting_r_;  // by ID
  ViolationLog log_;
};

}  // namespace tessera::axi
