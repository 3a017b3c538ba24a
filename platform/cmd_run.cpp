// `tessera run NETLIST`: validate, elaborate, simulate, report.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/netlist.h"
#include "platform/options.h"
#include "platform/output_file.h"
#include "platform/platform.h"
#include "platform/progress.h"
#include "platform/simulation.h"
#include "platform/trace_options.h"
#include "platform/units.h"

namespace tessera {
namespace {

RunOptions run_options(const cli::ParsedArgs& parsed) {
  RunOptions o;
  if (auto t = parsed.value("--max-time")) {
    double seconds = 0;
    try {
      seconds = parse_quantity(*t, Quantity::Time);
    } catch (const UserError& e) {
      throw UsageError(std::string("bad --max-time: ") + e.what());
    }
    if (seconds <= 0) throw UsageError("bad --max-time: it must be positive");
    o.max_time = sc_core::sc_time(seconds, sc_core::SC_SEC);
  }
  return o;
}

// How far the run has got: simulated time, and cycles of the default clock.
std::string progress_line(const Netlist& netlist, double wall_seconds) {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const double cycles = now.to_seconds() * netlist.default_clock_hz();
  char line[200];
  std::snprintf(line, sizeof line, "%.1f s: simulated %s (%.0f cycles of clock %s, %.3g M/s)", wall_seconds,
                now == sc_core::SC_ZERO_TIME ? "0 s" : format_quantity(now.to_seconds(), Quantity::Time).c_str(),
                cycles, netlist.default_clock.c_str(), wall_seconds > 0 ? cycles / wall_seconds / 1e6 : 0.0);
  return line;
}

int run_run(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(
      args,
      with_trace_options({{"--set", true, true},
                          {"--stats", true},
                          {"--max-time", true},
                          {"--quiet"},
                          {"--force"},
                          {"--progress", true}}),
      1, 1);
  std::vector<Override> overrides;
  for (const auto& s : parsed.values("--set")) overrides.push_back(parse_override(s));
  const RunOptions options = run_options(parsed);
  const double progress_seconds = progress_interval(parsed.value("--progress"));
  const auto stats_file = parsed.value("--stats");
  const bool force = parsed.flag("--force");
  // Refuse before spending time on the run, and check again when writing.
  if (stats_file) check_output_path(*stats_file, force, "statistics file");
  const TraceOptions trace = trace_options(parsed);
  const bool quiet = parsed.flag("--quiet");
  if (quiet) set_log_level(LogLevel::Warning);

  const Netlist netlist = load_netlist_file(parsed.positional[0], overrides);
  Platform platform(netlist, trace);
  RunResult result;
  {
    InterruptGuard interrupts;
    ProgressReporter progress(progress_seconds, [&](double s) { return progress_line(netlist, s); }, std::cerr);
    result = simulate(platform, options);
  }
  print_summary(std::cout, platform, result, quiet);
  if (stats_file) {
    write_stats_file(*stats_file, stats_json(platform, result), force);
    if (!quiet) std::cout << "statistics written to " << *stats_file << '\n';
  }
  write_trace(platform, std::cout);
  if (result.interrupted_by) return cli::kInterrupted + result.interrupted_by;
  return result.ok() ? cli::kOk : cli::kFailure;
}

TESSERA_REGISTER_COMMAND(run_command,
                         cli::Command{"run", "simulate a netlist and report statistics",
                                      "usage: tessera run NETLIST [--set PATH=VALUE]... [--stats FILE [--force]]\n"
                                      "                   [--max-time TIME] [--quiet] [--progress SECONDS]\n"
                                      "                   [--trace FILE [--trace-filter F]... [--trace-limit N]]\n\n"
                                      "Validates NETLIST, builds the platform and simulates until no events remain.\n"
                                      "Prints simulated time, wall time, speed, each block's summary and the largest\n"
                                      "counters. Exits 1 if a block reports a problem (e.g. data read back wrong).\n"
                                      "SIGINT or SIGTERM stops the run at the next safe point; the statistics so far\n"
                                      "are written, marked incomplete, and the exit code is 128 + the signal.\n\n"
                                      "  --set PATH=VALUE   override a parameter, e.g. --set 'mem[*].latency=60 ns'\n"
                                      "  --stats FILE       write every statistic as JSON (refuses to replace FILE)\n"
                                      "  --force            allow --stats and --trace to replace an existing file\n"
                                      "  --max-time TIME    stop at this simulated time, e.g. \"10 us\"\n"
                                      "  --quiet            print only the result lines and warnings\n"
                                      "  --progress SECONDS a progress line on stderr every SECONDS of wall time\n"
                                      "                     while the platform's timing blocks run; default 10\n"
                                      "                     when stderr is a terminal, else none; 0 for none\n" +
                                          std::string(kTraceUsage),
                                      run_run});

}  // namespace
}  // namespace tessera
