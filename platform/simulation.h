// The simulation driver: runs an elaborated Platform until no events remain
// (or until a time limit), then gathers what the run produced: simulated and
// wall time, speed, each block's verdict and summary, and the statistics.
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace tessera {

struct RunOptions {
  std::optional<sc_core::sc_time> max_time;  // stop here even if events remain
};

struct RunResult {
  sc_core::sc_time simulated;   // simulated time at the end
  double wall_seconds = 0;      // host time spent in sc_start
  uint64_t delta_cycles = 0;    // SystemC delta cycles executed
  bool stopped_at_limit = false;  // --max-time reached with activity still pending
  int interrupted_by = 0;         // the signal that stopped the run early (0: none)
  double default_clock_hz = 0;
  std::vector<std::string> failed_blocks;  // paths of blocks whose ok() is false

  bool ok() const { return failed_blocks.empty() && !interrupted_by; }
  std::string interrupted_message() const;  // "interrupted by SIGINT at 1.2 us: statistics so far"
  double simulated_cycles() const { return simulated.to_seconds() * default_clock_hz; }
  double cycles_per_second() const { return wall_seconds > 0 ? simulated_cycles() / wall_seconds : 0; }
};

// Runs the platform's simulation once (SystemC allows one run per process).
// An interrupt (platform/interrupt.h) ends it early, with `interrupted_by` set.
RunResult simulate(Platform& platform, const RunOptions& options);

// The statistics JSON: every block's statistics nested by path, plus a
// "simulation" section with times, speed and verdicts.
json stats_json(const Platform& platform, const RunResult& result);

// Writes `stats_json` to `file` through a temporary file and a rename
// (platform/output_file.h). Refuses to replace an existing file unless
// `force`; throws UserError on failure.
void write_stats_file(const std::string& file, const json& stats, bool force);

// The human summary: times and speed, each block's summary line, the largest
// counters. `quiet` prints only the one-line verdict.
void print_summary(std::ostream& os, const Platform& platform, const RunResult& result, bool quiet);

}  // namespace tessera
