// A bridge's pin clock that runs only while the bridge has work: rising edges
// on the clock period's grid while `busy()` holds and for a few cycles after
// (so the last handshakes settle), none while idle, so that the simulation
// can go idle and end. Its edges stay on the grid a free-running clock would
// use, so cycle counts are those of a free-running clock. `rst_n` is low for
// the first three rising edges ever (Verilator may not count the very first
// as an edge) and rises on a falling edge, apart from any edge RTL samples.
#pragma once
#include <cstdint>
#include <functional>

#include <systemc>

#include "platform/stats.h"

namespace tessera {

class GatedClock : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(GatedClock);
  // `busy` says whether there is work; `work_arrived` is notified when work
  // comes to an idle bridge; `cycles` counts the rising edges.
  GatedClock(sc_core::sc_module_name name, sc_core::sc_time period, std::function<bool()> busy,
             const sc_core::sc_event& work_arrived, Counter& cycles);

  sc_core::sc_signal<bool> clk{"clk"}, rst_n{"rst_n"};

 private:
  void run();

  const sc_core::sc_time period_;
  std::function<bool()> busy_;
  const sc_core::sc_event& work_arrived_;
  Counter& cycles_;
  uint64_t reset_cycles_left_ = 3;
};

}  // namespace tessera
