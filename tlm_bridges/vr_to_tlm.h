// Valid/ready memory subordinate pins -> TLM initiator: each request becomes
// one 8-byte TLM transaction at its (aligned) address, a write's strobes its
// byte enables; requests are carried out in order and answered in order. At
// most `max_outstanding` requests are accepted and not yet answered
// (REQ_READY falls). Any TLM error status -> RESP_ERROR.
#pragma once
#include <deque>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm_bridges/vr_pins.h"

namespace tessera::vr {

class VrToTlm : public sc_core::sc_module {
 public:
  struct Config {
    unsigned max_outstanding = 4;  // requests accepted and not yet answered
    unsigned ready_every = 1;      // REQ_READY high at most one cycle in N (test back-pressure)
  };
  SC_HAS_PROCESS(VrToTlm);
  VrToTlm(sc_core::sc_module_name name, Pins& pins, Config config);

  sc_core::sc_in<bool> clk;
  tlm_utils::simple_initiator_socket<VrToTlm> out;

  size_t outstanding() const { return accepted_; }

 private:
  struct Request {
    bool write;
    uint64_t addr, wdata;
    uint32_t wstrb;
  };
  struct Response {
    uint64_t rdata;
    bool error;
  };

  void clock_method();
  void worker_thread();

  Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  size_t accepted_ = 0;
  std::deque<Request> requests_;
  std::deque<Response> responses_;
  sc_core::sc_event work_;
};

}  // namespace tessera::vr
