// SIGINT and SIGTERM during a simulation. While an InterruptGuard lives, the
// first signal asks the run to stop at the next safe point (the scheduler
// and the command processor look between time steps and quanta and call
// sc_stop()); the command then writes the statistics gathered so far, marked
// incomplete. A second signal ends the process at once, as without a guard.
#pragma once
#include <stdexcept>
#include <string>

namespace tessera {

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers
  ~InterruptGuard();  // restores the previous ones
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

// The signal that asked the run to stop (0: none). Cheap: one load.
int interrupt_signal();
inline bool interrupt_requested() { return interrupt_signal() != 0; }
// Ends the SystemC simulation (once; quietly: SystemC announces sc_stop() as
// an info report, routine here).
void stop_simulation();

// "SIGINT", "SIGTERM".
std::string signal_name(int signal);

// Thrown where a run waits for work that an interrupt cut short (a launch).
class Interrupted : public std::runtime_error {
 public:
  explicit Interrupted(int signal)
      : std::runtime_error("interrupted by " + signal_name(signal)), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

}  // namespace tessera
