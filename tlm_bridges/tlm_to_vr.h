// TLM target -> valid/ready memory manager pins. A transaction (b_transport,
// or nb_transport through the socket's adapter) becomes one request per
// aligned 8-byte word it touches: writes carry the word's bytes under strobes
// (the transaction's bytes, less those its byte enables disable), reads copy
// back the enabled bytes. Requests of concurrent transactions queue in arrival
// order; at most `outstanding` requests are sent and unanswered (REQ_VALID
// waits). Responses come in request order. RESP_ERROR on any word ->
// TLM_GENERIC_ERROR_RESPONSE (the protocol has one error bit).
#pragma once
#include <deque>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm_bridges/vr_pins.h"

namespace tessera::vr {

class TlmToVr : public sc_core::sc_module {
 public:
  struct Config {
    unsigned outstanding = 4;  // requests sent and not yet answered
    unsigned ready_every = 1;  // RESP_READY high one cycle in N (test back-pressure)
  };
  SC_HAS_PROCESS(TlmToVr);
  TlmToVr(sc_core::sc_module_name name, Pins& pins, Config config);

  sc_core::sc_in<bool> clk;
  tlm_utils::simple_target_socket<TlmToVr> in;

  size_t outstanding() const { return awaiting_.size(); }
  // Whether a transaction is in hand, and the event of one arriving: a
  // clock that runs only while there is work waits for it.
  bool busy() const { return active_ != 0; }
  const sc_core::sc_event& arrived() const { return arrived_; }

 private:
  struct Pending {  // one transaction's words
    unsigned left = 0;
    bool error = false;
    sc_core::sc_event done;
  };
  struct Request {
    bool write;
    uint64_t addr, wdata;
    uint32_t wstrb;
    Pending* owner;
    uint8_t* data;        // the transaction's data (reads: the word's enabled bytes go there)
    int64_t word_offset;  // the word's first byte relative to the transaction's address
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void transport(tlm::tlm_generic_payload& trans);
  void clock_method();

  Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  std::deque<Request> to_send_, awaiting_;
  unsigned active_ = 0;  // transactions inside b_transport
  sc_core::sc_event arrived_;
};

}  // namespace tessera::vr
