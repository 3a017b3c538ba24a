// `tessera workload NAME [--size N] [--seed S] [--device D]`: runs one workload
// of the suite (sw/workloads) on a device, checks it against its CPU
// reference, and prints the result with sizes, launches, wave instructions and
// wall time. `tessera workload --list` lists the suite.
//
// On the timing device (--device tessera-timing, or --netlist FILE) the
// platform comes from the netlist with --set overrides; --functional runs the
// same netlist with no timing; --stats writes every block's statistics.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "platform/cli.h"
#include "platform/block.h"
#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/options.h"
#include "platform/output_file.h"
#include "platform/progress.h"
#include "platform/simulation.h"
#include "platform/timing_device.h"
#include "platform/trace_options.h"
#include "sw/runtime/device_registry.h"
#include "sw/workloads/workload.h"

namespace tessera {
namespace {

constexpr const char* kDefaultDevice = "tessera-functional";
constexpr const char* kTimingDevice = "tessera-timing";
constexpr uint64_t kDefaultSeed = 1;

uint64_t parse_count(const std::string& option, const std::string& text) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-')
    throw UsageError(option + " expects a non-negative integer, got \"" + text + "\"");
  return v;
}

std::string registered_device_list() {
  std::string out;
  for (const auto& n : runtime::device_names()) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

int list_workloads() {
  size_t width = 0;
  for (const auto& w : workloads::workloads()) width = std::max(width, w.name.size());
  for (const auto& w : workloads::workloads())
    std::cout << "  " << w.name << std::string(width - w.name.size() + 2, ' ') << w.doc << " (default size "
              << w.default_size << ")\n";
  std::cout << "devices: " << registered_device_list() << '\n';
  return cli::kOk;
}

std::string device_for(const cli::ParsedArgs& parsed) {
  const bool timing_options = parsed.value("--netlist") || parsed.flag("--functional") ||
                              !parsed.values("--set").empty() || parsed.value("--stats") ||
                              parsed.value("--max-cycles") || parsed.flag("--launches") || parsed.value("--progress") ||
                              has_trace_options(parsed);
  if (auto d = parsed.value("--device"); d && *d != kTimingDevice && timing_options)
    throw UsageError("--netlist, --functional, --set, --stats, --max-cycles, --trace, --launches and --progress apply to "
                     "the " +
                     std::string(kTimingDevice) + " device only, not to " + *d);
  if (timing_options) return kTimingDevice;
  if (auto d = parsed.value("--device")) {
    if (!runtime::has_device(*d))
      throw UsageError("unknown device \"" + *d + "\"; registered devices: " + registered_device_list());
    return *d;
  }
  if (!runtime::has_device(kDefaultDevice))
    throw UsageError(std::string("the default device \"") + kDefaultDevice +
                     "\" is not registered in this build; choose one with --device (registered: " +
                     registered_device_list() + ")");
  return kDefaultDevice;
}

// The timing device's own figures: simulated cycles and simulation speed.
void print_timing(TimingDevice& d) {
  const TimingDevice::Totals& t = d.totals();
  char line[200];
  std::snprintf(line, sizeof line, "  netlist     %s%s\n", d.netlist_file().c_str(),
                d.functional() ? " (functional: no timing)" : "");
  std::cout << line;
  if (!d.functional()) {
    std::snprintf(line, sizeof line, "  cycles      %llu simulated (%.3g M cycles/s)\n",
                  static_cast<unsigned long long>(t.cycles), t.seconds > 0 ? double(t.cycles) / t.seconds / 1e6 : 0.0);
    std::cout << line;
  }
  std::snprintf(line, sizeof line, "  simulation  %.3f s, %.3g M wave-instructions/s\n", t.seconds,
                t.seconds > 0 ? double(t.wave_instructions) / t.seconds / 1e6 : 0.0);
  std::cout << line;
}

// One line per launch from the device's launch log (docs/TIMING.md).
void print_launches(const TimingDevice& d) {
  std::printf("  %-4s %-28s %10s %10s %10s %9s %9s %12s %12s %12s\n", "#", "kernel", "cycles", "kernel", "CP busy",
              "L2 wb", "L2 inv", "DRAM read", "DRAM write", "remote");
  size_t i = 0;
  for (const json& row : d.launch_log()) {
    auto n = [&](const char* key) { return static_cast<unsigned long long>(row.value(key, uint64_t{0})); };
    std::printf("  %-4zu %-28.28s %10llu %10llu %10llu %9llu %9llu %12llu %12llu %12llu%s\n", i++,
                row["kernel"].get<std::string>().c_str(), n("cycles"), n("kernel_cycles"), n("cp_busy_cycles"),
                n("l2_lines_written_back"), n("l2_lines_invalidated"), n("dram_bytes_read"), n("dram_bytes_written"),
                n("remote_bytes"), row.contains("fault") ? "  (faulted)" : "");
  }
  std::fflush(stdout);
}

// cp.check_hints: each wrong access-mode hint on stderr; true if there was one.
bool report_hint_violations(const TimingDevice& d, const std::string& name) {
  const std::vector<HintViolation> found = d.hint_violations();
  for (const HintViolation& v : found) {
    char buffer[96] = "no declared buffer";
    if (v.buffer_bytes)
      std::snprintf(buffer, sizeof buffer, "buffer 0x%llx (%llu bytes)", static_cast<unsigned long long>(v.buffer_base),
                    static_cast<unsigned long long>(v.buffer_bytes));
    std::fprintf(stderr, "tessera workload: %s: wrong access-mode hint: kernel %s, %s: %s at 0x%llx (chiplet %u; %llu "
                 "such accesses in the launch)\n", name.c_str(), v.kernel.c_str(), buffer, v.what.c_str(),
                 static_cast<unsigned long long>(v.address), v.chiplet, static_cast<unsigned long long>(v.count));
  }
  return !found.empty();
}

std::unique_ptr<TimingDevice> make_timing_device(const cli::ParsedArgs& parsed) {
  TimingDeviceOptions o;
  o.netlist_file = parsed.value("--netlist").value_or(TimingDevice::default_netlist_file(TESSERA_KERNEL_SOURCE_DIR));
  for (const auto& s : parsed.values("--set")) o.overrides.push_back(parse_override(s));
  o.functional = parsed.flag("--functional");
  if (auto m = parsed.value("--max-cycles")) o.max_cycles = parse_count("--max-cycles", *m);
  o.kernel_dir = TESSERA_KERNEL_BINARY_DIR;
  o.trace = trace_options(parsed);
  return std::make_unique<TimingDevice>(std::move(o));
}

void print_result(const workloads::Workload& w, const std::string& device, size_t size, uint64_t seed,
                  const workloads::Result& r, double seconds) {
  std::cout << "workload " << w.name << " on " << device << ": " << (r.passed ? "PASS" : "FAIL") << '\n';
  std::cout << "  size        " << size << (r.shape.empty() ? "" : " (" + r.shape + ")") << '\n';
  std::cout << "  seed        " << seed << '\n';
  std::cout << "  launches    " << r.launches << " (" << r.stats.workgroups << " workgroups";
  if (r.stats.waves) std::cout << ", " << r.stats.waves << " waves";
  std::cout << ")\n";
  if (r.stats.wave_instructions) {
    std::cout << "  wave instr. " << r.stats.wave_instructions;
    if (seconds > 0) std::cout << " (" << double(r.stats.wave_instructions) / seconds / 1e6 << " M/s)";
    std::cout << '\n';
  } else {
    std::cout << "  wave instr. not counted by this device\n";
  }
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f s", seconds);
  std::cout << "  wall time   " << wall << '\n';
  for (const auto& o : r.outputs)
    std::cout << "  output      " << o.name << ": " << o.count() << " x " << workloads::element_type_name(o.type)
              << ", tolerance " << o.tolerance << '\n';
  std::cout << "  " << (r.passed ? "" : "reason: ") << r.message << '\n';
}

// A run stopped by SIGINT or SIGTERM: the statistics gathered so far, marked
// incomplete, and the exit code 128 + the signal.
int interrupted(const Interrupted& e, const std::string& name, TimingDevice* timing,
                const std::optional<std::string>& stats_file, bool force) {
  std::cerr << "tessera workload: " << name << ": " << e.what() << "; the workload did not finish\n";
  print_repeated_messages(std::cerr);
  if (timing && stats_file) {
    write_stats_file(*stats_file, timing->finish(), force);
    std::cout << "  statistics  written to " << *stats_file << " (incomplete)\n";
  }
  return cli::kInterrupted + e.signal();
}

int run_workload(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(args,
                                      with_trace_options({{"--size", true, false},
                                       {"--seed", true, false},
                                       {"--device", true, false},
                                       {"--list", false, false},
                                       {"--netlist", true, false},
                                       {"--functional", false, false},
                                       {"--set", true, true},
                                       {"--stats", true, false},
                                       {"--force", false, false},
                                       {"--max-cycles", true, false},
                                       {"--launches", false, false},
                                       {"--progress", true, false}}),
                                      0, 1);
  if (parsed.flag("--list")) return list_workloads();
  if (parsed.positional.empty()) throw UsageError("name a workload (tessera workload --list shows them)");
  const std::string& name = parsed.positional[0];
  const workloads::Workload* w = workloads::find_workload(name);
  if (!w) throw UsageError("unknown workload \"" + name + "\" (tessera workload --list shows them)");
  size_t size = w->default_size;
  if (auto s = parsed.value("--size")) size = parse_count("--size", *s);
  if (size == 0 || size > (1ull << 28)) throw UsageError("--size must be between 1 and 2^28");
  uint64_t seed = kDefaultSeed;
  if (auto s = parsed.value("--seed")) seed = parse_count("--seed", *s);
  const std::string device_name = device_for(parsed);
  const auto stats_file = parsed.value("--stats");
  const bool force = parsed.flag("--force");
  const double progress_seconds = progress_interval(parsed.value("--progress"));
  // Refuse before spending time on the run, and check again when writing.
  if (stats_file) check_output_path(*stats_file, force, "statistics file");

  std::unique_ptr<TimingDevice> timing;
  std::unique_ptr<runtime::Device> device;
  try {
    if (device_name == kTimingDevice) {
      timing = make_timing_device(parsed);
    } else {
      device = runtime::create_device(device_name);
    }
    runtime::Device& d = timing ? static_cast<runtime::Device&>(*timing) : *device;
    std::optional<ProgressReporter> progress;
    if (timing)
      progress.emplace(progress_seconds, [&](double s) { return timing->progress_line(s); }, std::cerr);
    std::optional<InterruptGuard> interrupts;
    if (timing) interrupts.emplace();
    auto start = std::chrono::steady_clock::now();
    workloads::Result r;
    try {
      r = w->run(d, size, seed);
      // Launches submitted ahead (cp.async_launches) are counted once waited for.
      if (timing) timing->synchronize();
    } catch (const Interrupted& e) {
      return interrupted(e, name, timing.get(), stats_file, force);
    }
    if (timing) {  // the device's totals hold every launch, submitted ahead or not
      r.stats.workgroups = timing->totals().workgroups;
      r.stats.waves = timing->totals().waves;
      r.stats.wave_instructions = timing->totals().wave_instructions;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.reset();
    print_result(*w, device_name, size, seed, r, seconds);
    print_repeated_messages(std::cerr);
    const bool hints_wrong = timing && report_hint_violations(*timing, name);
    if (timing) {
      print_timing(*timing);
      if (parsed.flag("--launches")) print_launches(*timing);
      if (stats_file) {
        write_stats_file(*stats_file, timing->finish(), force);
        std::cout << "  statistics  written to " << *stats_file << '\n';
      } else {
        timing->stop();
      }
      write_trace(timing->platform(), std::cout);
    }
    return r.passed && !hints_wrong ? cli::kOk : cli::kFailure;
  } catch (const runtime::DeviceError& e) {
    std::cerr << "tessera workload: " << name << " on " << device_name << ": device error: " << e.what() << '\n';
    if (timing && timing->platform().tracer()) {  // the trace of a run that failed is the one most wanted
      timing->stop();
      write_trace(timing->platform(), std::cout);
    }
    return cli::kFailure;
  }
}

TESSERA_REGISTER_COMMAND(workload_command,
                         cli::Command{"workload", "run a workload of the suite and check it against its CPU reference",
                                      "usage: tessera workload NAME [--size N] [--seed S] [--device D]\n"
                                      "                        [--netlist FILE] [--functional] [--set PATH=VALUE]...\n"
                                      "                        [--stats FILE [--force]] [--max-cycles N] [--launches]\n"
                                      "                        [--progress SECONDS] [--trace FILE [--trace-filter F]...]\n"
                                      "       tessera workload --list\n\n"
                                      "Runs workload NAME (docs/WORKLOADS.md) on device D with inputs generated from\n"
                                      "seed S, compares its outputs with the CPU reference and prints PASS or FAIL,\n"
                                      "the problem size, launches, wave instructions (if the device counts them)\n"
                                      "and wall time. Exits 0 on PASS, 1 on FAIL or a device error.\n\n"
                                      "  --size N     problem size in the workload's own terms (default: its own)\n"
                                      "  --seed S     input generator seed (default 1)\n"
                                      "  --device D   tessera-functional (the default, when built in), tessera-timing\n"
                                      "               or pocl\n"
                                      "  --list       list the workloads and the registered devices\n\n"
                                      "On tessera-timing (implied by any option below), the platform is built from\n"
                                      "a netlist and the run prints simulated cycles and simulation speed:\n"
                                      "  --netlist FILE     the netlist (default: $TESSERA_NETLIST, else the source\n"
                                      "                     tree's json/platforms/small_gpu.json)\n"
                                      "  --functional       run the netlist's compute units with no timing\n"
                                      "  --set PATH=VALUE   override a parameter, e.g. --set 'l2[*].size=1 MiB'\n"
                                      "  --stats FILE       write every statistic as JSON (refuses to replace FILE)\n"
                                      "  --force            allow --stats and --trace to replace an existing file\n"
                                      "  --max-cycles N     stop a launch that has not finished after N cycles\n"
                                      "  --launches         print each launch: cycles (submission to completion),\n"
                                      "                     kernel cycles, CP busy cycles, L2 lines written back\n"
                                      "                     and invalidated, DRAM bytes read and written, and\n"
                                      "                     bytes between chiplets\n"
                                      "  --progress SECONDS a progress line on stderr every SECONDS of wall time\n"
                                      "                     (simulated cycles, workgroups and wave-instructions\n"
                                      "                     finished, and how many of the running launch's\n"
                                      "                     workgroups); default 10 when stderr is a terminal,\n"
                                      "                     else none; 0 for none\n" +
                                          std::string(kTraceUsage),
                                      run_workload});

}  // namespace
}  // namespace tessera
