// `tessera workload NAME [--size N] [--seed S] [--device D]`: runs one workload
// of the suite (sw/workloads) on a device, checks it against its CPU
// reference, and prints the result with sizes, launches, wave instructions and
// wall time. `tessera workload --list` lists the suite.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/options.h"
#include "sw/runtime/device_registry.h"
#include "sw/workloads/workload.h"

namespace tessera {
namespace {

constexpr const char* kDefaultDevice = "tessera-functional";
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
  if (r.stats.cycles) std::cout << "  cycles      " << r.stats.cycles << '\n';
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.3f s", seconds);
  std::cout << "  wall time   " << wall << '\n';
  for (const auto& o : r.outputs)
    std::cout << "  output      " << o.name << ": " << o.count() << " x " << workloads::element_type_name(o.type)
              << ", tolerance " << o.tolerance << '\n';
  std::cout << "  " << (r.passed ? "" : "reason: ") << r.message << '\n';
}

int run_workload(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(
      args, {{"--size", true, false}, {"--seed", true, false}, {"--device", true, false}, {"--list", false, false}},
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

  try {
    auto device = runtime::create_device(device_name);
    auto start = std::chrono::steady_clock::now();
    workloads::Result r = w->run(*device, size, seed);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_result(*w, device_name, size, seed, r, seconds);
    return r.passed ? cli::kOk : cli::kFailure;
  } catch (const runtime::DeviceError& e) {
    std::cerr << "tessera workload: " << name << " on " << device_name << ": device error: " << e.what() << '\n';
    return cli::kFailure;
  }
}

TESSERA_REGISTER_COMMAND(workload_command,
                         cli::Command{"workload", "run a workload of the suite and check it against its CPU reference",
                                      "usage: tessera workload NAME [--size N] [--seed S] [--device D]\n"
                                      "       tessera workload --list\n\n"
                                      "Runs workload NAME (docs/WORKLOADS.md) on device D with inputs generated from\n"
                                      "seed S, compares its outputs with the CPU reference and prints PASS or FAIL,\n"
                                      "the problem size, launches, wave instructions (if the device counts them)\n"
                                      "and wall time. Exits 0 on PASS, 1 on FAIL or a device error.\n\n"
                                      "  --size N     problem size in the workload's own terms (default: its own)\n"
                                      "  --seed S     input generator seed (default 1)\n"
                                      "  --device D   tessera-functional (the default, when built in) or pocl\n"
                                      "  --list       list the workloads and the registered devices\n",
                                      run_workload});

}  // namespace
}  // namespace tessera
