#include "tlm_bridges/gated_clock.h"

namespace tessera {

namespace {
constexpr unsigned kSettleCycles = 4;  // the clock runs on this long after the last work
}

GatedClock::GatedClock(sc_core::sc_module_name name, sc_core::sc_time period, std::function<bool()> busy,
                       const sc_core::sc_event& work_arrived, Counter& cycles)
    : sc_core::sc_module(name), period_(period), busy_(std::move(busy)), work_arrived_(work_arrived),
      cycles_(cycles) {
  rst_n.write(false);
  SC_THREAD(run);
}

void GatedClock::run() {
  const sc_core::sc_time high = period_ / 2.0;
  unsigned settle = 0;
  for (;;) {
    if (!busy_() && settle == 0) wait(work_arrived_);
    const uint64_t into = sc_core::sc_time_stamp().value() % period_.value();
    if (into) wait(sc_core::sc_time::from_value(period_.value() - into));
    clk.write(true);
    ++cycles_;
    wait(high);
    clk.write(false);
    if (reset_cycles_left_ && --reset_cycles_left_ == 0) rst_n.write(true);
    wait(period_ - high);
    settle = busy_() ? kSettleCycles : (settle ? settle - 1 : 0);
  }
}

}  // namespace tessera
