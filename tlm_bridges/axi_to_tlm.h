// AXI4 subordinate pins -> TLM initiator: an RTL manager's bursts become TLM
// transactions (b_transport) on `out`. An INCR burst of full-width beats is one
// transaction (write strobes become byte enables); FIXED, WRAP and narrow
// bursts become one 8-byte transaction per beat at the beat's address
// (AXI4 A3.4.1). Up to `max_outstanding` bursts are accepted and not yet
// answered; AWREADY/ARREADY fall while that many are (pin-side back-pressure),
// and W beats are taken ahead of their AW up to one burst's worth. Bursts are
// carried out one at a time in the order they became complete, and answered
// in that order (so in order per ID). TLM_OK -> OKAY, TLM_ADDRESS_ERROR ->
// DECERR, any other error -> SLVERR.
#pragma once
#include <deque>
#include <map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "tlm_bridges/axi_pins.h"

namespace tessera::axi {

class AxiToTlm : public sc_core::sc_module {
 public:
  struct Config {
    unsigned max_outstanding = 8;  // bursts accepted and not yet answered
    unsigned ready_every = 1;      // AWREADY/WREADY/ARREADY up one cycle in N (test back-pressure)
    unsigned workers = 1;          // bursts carried out at once
  };
  SC_HAS_PROCESS(AxiToTlm);
  AxiToTlm(sc_core::sc_module_name name, Pins& pins, Config config);

  sc_core::sc_in<bool> clk;
  tlm_utils::simple_initiator_socket<AxiToTlm> out;

  size_t outstanding() const { return outstanding_; }

 private:
  struct Burst {
    bool write = false;
    uint32_t id = 0, len = 0, size = 0, burst = 0;
    uint64_t addr = 0;
    std::vector<uint64_t> data;
    std::vector<uint32_t> strb;
  };
  struct WBeat {
    uint64_t data;
    uint32_t strb;
  };
  struct RBeat {
    uint32_t id;
    uint64_t data;
    uint32_t resp;
    bool last;
  };
  struct BResp {
    uint32_t id, resp;
  };

  void clock_method();
  void sample_handshakes();
  void gather_write_data();
  void drive();
  void worker_thread();
  // Whether a burst taken before `order` and still being carried out
  // overlaps `b`'s bytes or has its ID and direction.
  bool conflicts(uint64_t order, const Burst& b) const;
  void execute_write(const Burst& b);
  void execute_read(const Burst& b);
  // One TLM transaction; returns the AXI response it maps to.
  uint32_t transact(tlm::tlm_command cmd, uint64_t addr, uint8_t* data, unsigned len, uint8_t* byte_enables);

  Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  size_t outstanding_ = 0;
  std::deque<Burst> aw_waiting_;  // AW taken, W beats still to come
  std::deque<WBeat> w_beats_;
  std::deque<Burst> to_execute_;
  uint64_t taken_ = 0;                         // bursts taken by workers so far
  std::map<uint64_t, const Burst*> running_;  // bursts being carried out, by order taken
  sc_core::sc_event retired_;
  std::deque<RBeat> r_;
  std::deque<BResp> b_;
  sc_core::sc_event work_;
};

}  // namespace tessera::axi
