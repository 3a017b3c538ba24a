#include "platform/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "platform/errors.h"
#include "platform/scheduler.h"

namespace tessera {
namespace {

// Simulated time steps between clock reads: a few milliseconds of a run.
constexpr uint64_t kStepsPerPoll = 4096;
constexpr double kTerminalInterval = 10.0;
// Longer intervals are this one (about 30 years), so that the wall-clock
// arithmetic stays in range.
constexpr double kLongestInterval = 1e9;

}  // namespace

ProgressReporter::ProgressReporter(double interval_seconds, Line line, std::ostream& out)
    : active_(interval_seconds > 0),
      period_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(std::min(interval_seconds, kLongestInterval)))),
      line_(std::move(line)),
      out_(out),
      start_(Clock::now()),
      next_(start_ + period_) {
  if (active_) Scheduler::instance().set_poll(kStepsPerPoll, [this] { poll(); });
}

ProgressReporter::~ProgressReporter() {
  if (active_) Scheduler::instance().set_poll(0, nullptr);
}

void ProgressReporter::poll() {
  const Clock::time_point now = Clock::now();
  if (now < next_) return;
  // The next report is due a whole interval after this one: a long pause
  // (the host working between launches) gives one line, not a burst.
  next_ = now + period_;
  ++reports_;
  out_ << "progress: " << line_(std::chrono::duration<double>(now - start_).count()) << std::endl;
}

double progress_interval(const std::optional<std::string>& option) {
  if (!option) return isatty(STDERR_FILENO) ? kTerminalInterval : 0.0;
  size_t used = 0;
  double v = -1;
  try {
    v = std::stod(*option, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != option->size() || !std::isfinite(v) || v < 0)
    throw UsageError("--progress expects seconds between reports (0: none), got \"" + *option + "\"");
  return v;
}

}  // namespace tessera
