// Valid/ready memory subordinate pins -> TLM initiator: each request becomes
// one 8-byte TLM transaction at its (aligned) address, a write's strobes its
// byte enables; requests are carried out in order and answered in order. At
// most `max_outstanding` requests are accepted and not yet answered
// (REQ_READY falls). Up to `workers` requests are carried out at once (a
// request waits for an earlier one to the same word), and the responses
// still go out in request order. Any TLM error status -> RESP_ERROR.
#pragma once
#include <deque>
#include <map>

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
    unsigned workers = 1;          // requests carried out at once
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
    uint64_t rdata = 0;
    bool error = false;
    bool ready = false;  // carried out: may go on the pins once those before it have
  };

  void clock_method();
  void worker_thread();
  void carry_out(const Request& r, Response& resp);

  Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  size_t accepted_ = 0;
  uint64_t taken_ = 0;                    // requests taken by workers so far
  std::deque<Request> requests_;          // accepted, not yet taken by a worker
  std::deque<Response> responses_;        // every accepted request's, in order (references stay valid)
  std::map<uint64_t, uint64_t> running_;  // word address of each request being carried out, by order taken
  sc_core::sc_event work_, retired_;
};

}  // namespace tessera::vr
