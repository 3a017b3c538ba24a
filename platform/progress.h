// Progress reports for long runs: while a ProgressReporter lives, a line on a
// stream (stderr) every `interval` seconds of wall time, built by the
// caller's function from the seconds elapsed. It polls through the scheduler
// (platform/scheduler.h): a counter per simulated time step and a clock read
// every few thousand, so a run pays nothing measurable; it reads counters and
// schedules nothing, so the simulation is the same with or without it.
// A platform with no block on the scheduler (a command processor alone)
// prints no progress.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace tessera {

class ProgressReporter {
 public:
  using Line = std::function<std::string(double wall_seconds)>;
  // interval_seconds <= 0: report nothing.
  ProgressReporter(double interval_seconds, Line line, std::ostream& out);
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  unsigned reports() const { return reports_; }

 private:
  using Clock = std::chrono::steady_clock;
  void poll();

  bool active_;            // an interval above 0 was asked for
  Clock::duration period_;  // between reports
  Line line_;
  std::ostream& out_;
  Clock::time_point start_, next_;
  unsigned reports_ = 0;
};

// The interval a --progress option asks for: its value in seconds (0: off),
// or without the option 10 s when stderr is a terminal and off otherwise.
// Throws UsageError for a value that is not a non-negative number.
double progress_interval(const std::optional<std::string>& option);

}  // namespace tessera
