#include "platform/simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/output_file.h"
#include "platform/units.h"

namespace tessera {
namespace {

constexpr size_t kTopCounters = 10;

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// "1.23 M" style for rates people read at a glance.
std::string si(double v) {
  if (v >= 1e9) return fmt("%.3g G", v / 1e9);
  if (v >= 1e6) return fmt("%.3g M", v / 1e6);
  if (v >= 1e3) return fmt("%.3g k", v / 1e3);
  return fmt("%.3g ", v);
}

std::string sim_time_text(const sc_core::sc_time& t) {
  return t == sc_core::SC_ZERO_TIME ? "0 s" : format_quantity(t.to_seconds(), Quantity::Time);
}

struct NamedCounter {
  std::string name;
  uint64_t value;
};

// Every integer statistic of the run, largest first, ties by name.
std::vector<NamedCounter> largest_counters(const StatRegistry& stats, size_t n) {
  std::vector<NamedCounter> all;
  for (const StatGroup* g : stats.groups()) {
    const json values = g->to_json();
    for (const auto& [name, value] : values.items())
      if (value.is_number_unsigned() && value.get<uint64_t>() > 0)
        all.push_back({g->path() + "." + name, value.get<uint64_t>()});
  }
  std::sort(all.begin(), all.end(), [](const NamedCounter& a, const NamedCounter& b) {
    return a.value != b.value ? a.value > b.value : a.name < b.name;
  });
  if (all.size() > n) all.resize(n);
  return all;
}

}  // namespace

namespace {

// Until the platform is idle, the time limit is reached, or an interrupt or a
// block stops it. A command processor's host notification pauses the
// simulation for a host program's wait; a plain run has no host, so it goes on.
void run_until_done(const RunOptions& options) {
  auto more = [&] {
    return sc_core::sc_get_status() != sc_core::SC_STOPPED && sc_core::sc_pending_activity() &&
           !interrupt_requested() && (!options.max_time || sc_core::sc_time_stamp() < *options.max_time);
  };
  do {
    if (!options.max_time) {
      sc_core::sc_start();
      continue;
    }
    // Stop at the last event if the platform goes idle before the limit; if
    // events remain beyond it, the run has lasted exactly the limit.
    const sc_core::sc_time limit = *options.max_time;
    sc_core::sc_start(limit - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
    if (more() && sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity() > limit)
      sc_core::sc_start(limit - sc_core::sc_time_stamp(), sc_core::SC_RUN_TO_TIME);
  } while (more());
}

}  // namespace

RunResult simulate(Platform& platform, const RunOptions& options) {
  RunResult r;
  r.default_clock_hz = platform.netlist().default_clock_hz();
  const auto start = std::chrono::steady_clock::now();
  run_until_done(options);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.simulated = sc_core::sc_time_stamp();
  r.delta_cycles = sc_core::sc_delta_count();
  r.interrupted_by = interrupt_signal();
  r.stopped_at_limit = !r.interrupted_by && options.max_time.has_value() && sc_core::sc_pending_activity();
  // Ends the simulation so that blocks' end_of_simulation() hooks run before
  // their statistics and verdicts are read.
  stop_simulation();
  for (const auto& b : platform.blocks())
    if (!b->ok()) r.failed_blocks.push_back(b->path());
  return r;
}

std::string RunResult::interrupted_message() const {
  return "interrupted by " + signal_name(interrupted_by) + " at " + sim_time_text(simulated) +
         "; the statistics are those gathered so far";
}

json stats_json(const Platform& platform, const RunResult& r) {
  json root = platform.stats().to_json();
  json summaries = json::object();
  for (const auto& b : platform.blocks()) {
    const std::string s = b->summary();
    if (!s.empty()) summaries[b->path()] = s;
  }
  root["simulation"] = {
      {"simulated_time_s", r.simulated.to_seconds()},
      {"simulated_time", sim_time_text(r.simulated)},
      {"wall_time_s", r.wall_seconds},
      {"default_clock", platform.netlist().default_clock},
      {"default_clock_hz", r.default_clock_hz},
      {"simulated_cycles", r.simulated_cycles()},
      {"simulated_cycles_per_second", r.cycles_per_second()},
      {"delta_cycles", r.delta_cycles},
      {"stopped_at_max_time", r.stopped_at_limit},
      {"complete", !r.interrupted_by},
      {"instances", platform.netlist().instances.size()},
      {"bindings", platform.netlist().bindings.size()},
      {"ok", r.ok()},
      {"failed_blocks", r.failed_blocks},
      {"summaries", summaries},
  };
  if (r.interrupted_by) root["simulation"]["interrupted_by"] = signal_name(r.interrupted_by);
  return root;
}

void write_stats_file(const std::string& file, const json& stats, bool force) {
  write_file_atomically(file, stats.dump(2) + "\n", force, "statistics file");
}

void print_summary(std::ostream& os, const Platform& platform, const RunResult& r, bool quiet) {
  const std::string verdict =
      r.interrupted_by ? "INCOMPLETE (" + r.interrupted_message() + ")"
      : r.ok()         ? "ok"
                       : "FAILED (" + std::to_string(r.failed_blocks.size()) + " block(s) not ok: " +
                          r.failed_blocks.front() + (r.failed_blocks.size() > 1 ? ", ..." : "") + ")";
  const Netlist& n = platform.netlist();
  os << "simulated " << sim_time_text(r.simulated) << " in " << fmt("%.3f", r.wall_seconds) << " s wall: "
     << si(r.cycles_per_second()) << "cycles/s of clock " << n.default_clock << " ("
     << format_quantity(r.default_clock_hz, Quantity::Frequency) << "), " << r.delta_cycles << " delta cycles"
     << (r.stopped_at_limit ? ", stopped at --max-time with events pending" : "") << '\n';
  if (!quiet) {
    for (const auto& b : platform.blocks()) {
      const std::string s = b->summary();
      if (s.empty()) continue;
      // Blocks may or may not start their line with their own path.
      const bool named = s.compare(0, b->path().size() + 1, b->path() + ":") == 0;
      os << "  " << (named ? "" : b->path() + ": ") << s << (b->ok() ? "" : "  [NOT OK]") << '\n';
    }
    const auto top = largest_counters(platform.stats(), kTopCounters);
    if (!top.empty()) {
      size_t width = 0;
      for (const auto& c : top) width = std::max(width, c.name.size());
      os << "top counters:\n";
      for (const auto& c : top) os << "  " << c.name << std::string(width - c.name.size() + 2, ' ') << c.value << '\n';
    }
  }
  print_repeated_messages(std::cerr);
  os << "result: " << verdict << '\n';
}

}  // namespace tessera
