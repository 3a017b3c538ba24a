// `tessera run NETLIST`: validate, elaborate, simulate, report.
#include <filesystem>
#include <iostream>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/options.h"
#include "platform/platform.h"
#include "platform/simulation.h"
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

int run_run(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(
      args, {{"--set", true, true}, {"--stats", true}, {"--max-time", true}, {"--quiet"}, {"--force"}}, 1, 1);
  std::vector<Override> overrides;
  for (const auto& s : parsed.values("--set")) overrides.push_back(parse_override(s));
  const RunOptions options = run_options(parsed);
  const auto stats_file = parsed.value("--stats");
  const bool force = parsed.flag("--force");
  // Refuse before spending time on the run, and check again when writing.
  if (stats_file && !force && std::filesystem::exists(*stats_file))
    throw UsageError("statistics file " + *stats_file + " already exists; pass --force to replace it");
  const bool quiet = parsed.flag("--quiet");
  if (quiet) set_log_level(LogLevel::Warning);

  const Netlist netlist = load_netlist_file(parsed.positional[0], overrides);
  Platform platform(netlist);
  const RunResult result = simulate(platform, options);
  print_summary(std::cout, platform, result, quiet);
  if (stats_file) {
    write_stats_file(*stats_file, stats_json(platform, result), force);
    if (!quiet) std::cout << "statistics written to " << *stats_file << '\n';
  }
  return result.ok() ? cli::kOk : cli::kFailure;
}

TESSERA_REGISTER_COMMAND(run_command,
                         cli::Command{"run", "simulate a netlist and report statistics",
                                      "usage: tessera run NETLIST [--set PATH=VALUE]... [--stats FILE [--force]]\n"
                                      "                   [--max-time TIME] [--quiet]\n\n"
                                      "Validates NETLIST, builds the platform and simulates until no events remain.\n"
                                      "Prints simulated time, wall time, speed, each block's summary and the largest\n"
                                      "counters. Exits 1 if a block reports a problem (e.g. data read back wrong).\n\n"
                                      "  --set PATH=VALUE   override a parameter, e.g. --set 'mem[*].latency=60 ns'\n"
                                      "  --stats FILE       write every statistic as JSON (refuses to replace FILE)\n"
                                      "  --force            allow --stats to replace an existing file\n"
                                      "  --max-time TIME    stop at this simulated time, e.g. \"10 us\"\n"
                                      "  --quiet            print only the result lines and warnings\n",
                                      run_run});

}  // namespace
}  // namespace tessera
