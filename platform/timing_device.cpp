#include "platform/timing_device.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "models/cu/isa/prepared_dispatch.h"
#include "platform/errors.h"
#include "platform/simulation.h"

namespace tessera {

using runtime::DeviceError;

namespace {

// SystemC elaborates once per process.
bool g_platform_built = false;

std::unique_ptr<Platform> build_platform(const TimingDeviceOptions& o) {
  if (g_platform_built)
    throw DeviceError("tessera-timing: a platform was already built in this process (SystemC elaborates once per "
                      "process); create one timing device per process");
  if (o.netlist_file.empty()) throw UserError("tessera-timing: no netlist file given");
  const Netlist netlist = load_netlist_file(o.netlist_file, o.overrides);
  g_platform_built = true;
  return std::make_unique<Platform>(netlist);
}

Dispatcher* find_dispatcher(Platform& p, const std::string& file) {
  Dispatcher* found = nullptr;
  std::string names;
  for (const auto& b : p.blocks()) {
    auto* d = dynamic_cast<Dispatcher*>(b.get());
    if (!d) continue;
    names += (names.empty() ? "" : ", ") + d->path();
    if (found)
      throw UserError("netlist " + file + " has several dispatchers (" + names +
                      "); the timing device drives exactly one");
    found = d;
  }
  if (!found) throw UserError("netlist " + file + " has no block of type dispatcher; the timing device launches "
                              "kernels through one");
  return found;
}

template <class F>
auto device_call(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-timing: ") + e.what());
  }
}

}  // namespace

std::string TimingDevice::default_netlist_file(const std::string& kernel_source_dir) {
  if (const char* env = std::getenv("TESSERA_NETLIST"); env && *env) return env;
  return (std::filesystem::path(kernel_source_dir) / ".." / ".." / "json" / "platforms" / "small_gpu.json")
      .lexically_normal()
      .string();
}

TimingDevice::TimingDevice(TimingDeviceOptions options)
    : options_(std::move(options)),
      platform_(build_platform(options_)),
      dispatcher_(find_dispatcher(*platform_, options_.netlist_file)),
      memory_(platform_->shared().get<isa::DeviceMemory>("device")) {
  // Ends elaboration now, so that a netlist SystemC rejects fails here and
  // launch() starts from a running simulation.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

TimingDevice::~TimingDevice() = default;

runtime::DevicePtr TimingDevice::alloc(size_t bytes) {
  return device_call([&] { return memory_.alloc(bytes); });
}

void TimingDevice::free(runtime::DevicePtr p) {
  device_call([&] { memory_.free(p); });
}

void TimingDevice::write(runtime::DevicePtr dst, const void* src, size_t bytes) {
  device_call([&] { memory_.write(dst, src, bytes); });
}

void TimingDevice::read(void* dst, runtime::DevicePtr src, size_t bytes) {
  device_call([&] { memory_.read(dst, src, bytes); });
}

void TimingDevice::fail(const std::string& what) const { throw DeviceError("tessera-timing: " + what); }

// Runs the simulation until the dispatcher pauses it at the end of the launch.
void TimingDevice::run_launch() {
  const auto start = std::chrono::steady_clock::now();
  if (options_.max_cycles) {
    sc_core::sc_start(dispatcher_->cycles(options_.max_cycles), sc_core::SC_EXIT_ON_STARVATION);
  } else {
    sc_core::sc_start();
  }
  totals_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!dispatcher_->busy()) return;
  if (sc_core::sc_pending_activity())
    fail("the launch did not finish within " + std::to_string(options_.max_cycles) + " cycles (hung?)");
  fail("the platform went idle before the launch finished: a request or a workgroup was never answered "
       "(check the netlist's bindings and address map)");
}

LaunchResult TimingDevice::launch_file(const std::string& path, const std::string& kernel,
                                       const isa::LaunchConfig& config) {
  if (finished_) fail("the simulation has ended; no launch may follow finish()");
  if (dispatcher_->busy()) fail("an earlier launch never finished; the device cannot launch again");
  ProgramCache::Program& p = programs_.get(path);
  const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
  isa::PreparedDispatch prepared(memory_, p.cache, k, config, next_dispatch_id_++);
  DispatchJob job;
  job.ctx = &prepared.ctx();
  job.program = &p.cache;
  job.functional = options_.functional;
  dispatcher_->launch(job);
  run_launch();
  const LaunchResult& r = dispatcher_->result();
  ++totals_.launches;
  totals_.cycles += r.cycles;
  totals_.wave_instructions += r.wave_instructions;
  totals_.waves += r.waves;
  totals_.workgroups += r.workgroups;
  if (!r.fault.empty()) fail(r.fault);
  return r;
}

runtime::LaunchStats TimingDevice::launch(const std::string& program_name, const std::string& kernel,
                                          runtime::Dim3 global, runtime::Dim3 local, const runtime::KernelArgs& args) {
  const std::string path = options_.kernel_dir + "/" + program_name + ".hsaco";
  return device_call([&] {
    ProgramCache::Program& p = programs_.get(path);
    const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
    const LaunchResult r = launch_file(path, kernel, make_launch_config(k, global, local, args));
    runtime::LaunchStats out;
    out.wave_instructions = r.wave_instructions;
    out.waves = r.waves;
    out.workgroups = r.workgroups;
    out.cycles = r.cycles;
    return out;
  });
}

json TimingDevice::finish() {
  RunResult r;
  r.default_clock_hz = platform_->netlist().default_clock_hz();
  r.simulated = sc_core::sc_time_stamp();
  r.wall_seconds = totals_.seconds;
  r.delta_cycles = sc_core::sc_delta_count();
  if (!finished_) {
    finished_ = true;
    // SystemC announces sc_stop() as an info report; here it is routine.
    const auto actions =
        sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    sc_core::sc_stop();
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, actions);
  }
  for (const auto& b : platform_->blocks())
    if (!b->ok()) r.failed_blocks.push_back(b->path());
  json out = stats_json(*platform_, r);
  // Only what the simulation decides: host speed is in "simulation"
  // (wall_time_s), so two runs give identical sections here.
  out["timing_device"] = {
      {"netlist", options_.netlist_file},
      {"functional", options_.functional},
      {"launches", totals_.launches},
      {"cycles", totals_.cycles},
      {"workgroups", totals_.workgroups},
      {"waves", totals_.waves},
      {"wave_instructions", totals_.wave_instructions},
  };
  return out;
}

}  // namespace tessera
