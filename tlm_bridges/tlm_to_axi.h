// TLM target -> AXI4 manager pins. A TLM transaction (b_transport, or
// nb_transport through the socket's adapter) becomes one or more AXI bursts on
// the pins: INCR bursts of full-width beats, split at 4 KiB boundaries and at
// 256 beats, with write strobes from the address range and the byte enables;
// a transaction whose streaming width is one bus word becomes a FIXED burst.
// Each transaction holds one AXI ID (read and write IDs are separate pools of
// `ids`) while its bursts are in flight, so up to `ids` reads and `ids` writes
// are outstanding at once; a further transaction waits for a free ID (TLM-side
// back-pressure). Pins are driven and sampled on the rising clock edge; VALID
// stays up with its payload until READY (pin-side back-pressure).
// Responses: OKAY -> TLM_OK, SLVERR -> TLM_GENERIC_ERROR, DECERR ->
// TLM_ADDRESS_ERROR; the worst response of a transaction's bursts wins.
#pragma once
#include <deque>
#include <map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "tlm_bridges/axi_pins.h"

namespace tessera::axi {

class TlmToAxi : public sc_core::sc_module {
 public:
  struct Config {
    unsigned ids = 4;           // AXI IDs per direction: outstanding transactions
    unsigned ready_every = 1;   // BREADY/RREADY up one cycle in N (test back-pressure)
  };
  SC_HAS_PROCESS(TlmToAxi);
  TlmToAxi(sc_core::sc_module_name name, Pins& pins, Config config);

  sc_core::sc_in<bool> clk;
  tlm_utils::simple_target_socket<TlmToAxi> in;

  // Bursts sent whose response has not come back (for a run's end report).
  size_t outstanding() const { return writes_.size() + reads_.size(); }
  // Whether a transaction is in hand, and the event of one arriving: a
  // clock that runs only while there is work waits for it.
  bool busy() const { return active_ != 0; }
  const sc_core::sc_event& arrived() const { return arrived_; }

 private:
  struct Beat {
    uint64_t data = 0;
    uint32_t strb = 0;
    bool last = false;
  };
  struct Request {  // one burst on AW or AR
    uint32_t id, len, burst;
    uint64_t addr;
  };
  struct InFlight {  // a burst awaiting its response
    std::vector<uint64_t> data;  // read beats as they arrive
    uint32_t resp = kOkay;
    bool done = false;
    sc_core::sc_event finished;
  };

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void transport(tlm::tlm_generic_payload& trans);
  unsigned take_id(std::vector<bool>& busy, sc_core::sc_event& freed);
  uint32_t write_burst(uint32_t id, const Request& r, const tlm::tlm_generic_payload& trans, uint64_t first);
  uint32_t read_burst(uint32_t id, const Request& r, tlm::tlm_generic_payload& trans, uint64_t first);
  void clock_method();
  void drive_address(std::deque<Request>& q, sc_core::sc_signal<bool>& valid,
                     sc_core::sc_signal<uint32_t>& id, sc_core::sc_signal<uint64_t>& addr,
                     sc_core::sc_signal<uint32_t>& len, sc_core::sc_signal<uint32_t>& size,
                     sc_core::sc_signal<uint32_t>& burst);
  void drive_write_data();
  void take_responses();

  Pins& pins_;
  Config config_;
  uint64_t cycle_ = 0;
  std::deque<Request> aw_, ar_;
  std::deque<Beat> w_;
  std::map<uint32_t, InFlight*> writes_, reads_;  // by ID
  std::vector<bool> write_ids_, read_ids_;
  sc_core::sc_event write_id_freed_, read_id_freed_;
  unsigned active_ = 0;  // transactions inside b_transport
  sc_core::sc_event arrived_;
};

}  // namespace tessera::axi
