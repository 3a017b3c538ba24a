// The timing Tessera device ("tessera-timing"): host programs' device memory,
// code objects and launches served by a SystemC platform built from a netlist
// (compute units, caches, crossbar, DRAM controllers, a dispatcher).
//
// The platform is built once, when the device is created, and lives as long
// as the device. Device memory is the platform's shared isa::DeviceMemory
// "device": the host allocates, writes and reads it directly between launches,
// which is coherent because the dispatcher's kernel-boundary policy invalidates
// the CU-side caches at each kernel start and writes back and empties the L2
// at each kernel end (see models/cp/dispatcher.h; a netlist that turns these
// off makes host accesses see memory as the caches left it).
//
// A netlist with a command processor (a cp_core with dispatchers bound) runs
// every launch the way hardware does, through the host runtime
// (platform/host_runtime.h): an AQL packet in a queue, the doorbell, the CP's
// firmware, the dispatchers, the completion signal. A netlist with one
// dispatcher and no CP is driven directly: the launch prepares the dispatch
// (kernargs, packet, scratch layout), hands it to the dispatcher and runs the
// simulation until the dispatcher pauses it at the end of the launch (the
// calibration netlists do this, so their figures hold no firmware time). Simulated time continues from launch to
// launch. A wave fault becomes a DeviceError carrying the CU's report.
//
// With the netlist's cp_core.async_launches, launch() only submits the packet
// (as a HIP stream does) and the host waits where it must: before it reads,
// writes or frees device memory, or at synchronize(). The launch log and the
// totals then fill in as the host sees each launch complete.
//
// With `functional` set, the same netlist runs with no timing: the dispatcher
// hands workgroups to the CUs in functional mode and skips cache maintenance;
// direct launches report 0 cycles, launches through a command processor the
// firmware's time only.
//
// SystemC elaborates once per process: one TimingDevice per process.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/device_memory.h"
#include "platform/host_runtime.h"
#include "platform/netlist.h"
#include "platform/platform.h"
#include "platform/program_cache.h"
#include "sw/runtime/device.h"

namespace tessera {

struct TimingDeviceOptions {
  std::string netlist_file;          // required (see default_netlist_file())
  std::vector<Override> overrides;   // --set
  bool functional = false;
  std::string kernel_dir;            // where launch() finds <program>.hsaco
  // Stop a launch as hung after this many cycles of the dispatcher's clock (0: no limit).
  uint64_t max_cycles = 0;
  // Launch straight through the dispatcher (it must be the only one) even when
  // the netlist has a command processor, which then stays asleep: for
  // measurements of the memory hierarchy that must not include firmware time.
  bool direct_dispatch = false;
  TraceOptions trace;                // --trace: the platform records a trace
};

class TimingDevice : public runtime::Device {
 public:
  // Builds the platform. Throws UserError/NetlistError for a bad netlist (or one
  // without exactly one dispatcher), DeviceError if a platform was already
  // built in this process.
  explicit TimingDevice(TimingDeviceOptions options);
  ~TimingDevice() override;
  TimingDevice(const TimingDevice&) = delete;
  TimingDevice& operator=(const TimingDevice&) = delete;

  // The netlist used when none is given: $TESSERA_NETLIST if set, else
  // json/platforms/small_gpu.json of the source tree this program was built
  // from, found from that tree's sw/kernels directory (the build passes it as
  // TESSERA_KERNEL_SOURCE_DIR to the runtime and the tools).
  static std::string default_netlist_file(const std::string& kernel_source_dir);

  std::string name() const override { return "tessera-timing"; }
  runtime::DevicePtr alloc(size_t bytes) override;
  void free(runtime::DevicePtr p) override;
  void write(runtime::DevicePtr dst, const void* src, size_t bytes) override;
  void read(void* dst, runtime::DevicePtr src, size_t bytes) override;
  runtime::LaunchStats launch(const std::string& program, const std::string& kernel, runtime::Dim3 global,
                              runtime::Dim3 local, const runtime::KernelArgs& args) override;
  // With a command processor: an access-mode packet on the launch queue, taken
  // by the next launch. Directly driven netlists have no firmware to tell.
  void set_access_modes(const std::vector<runtime::BufferAccess>& buffers) override;

  // Launches a kernel of a code object file with a ready configuration.
  // Throws UserError/isa::CodeObjectError for bad input, DeviceError on a
  // fault, a hang or a platform that went idle before the launch finished.
  LaunchResult launch_file(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config);

  bool functional() const { return options_.functional; }
  const std::string& netlist_file() const { return options_.netlist_file; }
  Platform& platform() { return *platform_; }
  const Platform& platform() const { return *platform_; }
  // The dispatcher (the first one under a command processor).
  DispatcherControl& dispatcher() { return *dispatcher_; }
  // The host runtime, when the netlist has a command processor; nullptr otherwise.
  HostRuntime* host_runtime() { return runtime_.get(); }
  isa::DeviceMemory& memory() { return memory_; }

  // Everything this device has run, and the host time spent simulating.
  struct Totals {
    uint64_t launches = 0, cycles = 0, wave_instructions = 0, waves = 0, workgroups = 0;
    uint64_t cp_instructions = 0, cp_busy_cycles = 0;  // firmware work for the launches (CP mode)
    uint64_t sync_cycles = 0;  // System-scope barriers before host accesses (cp_core.elision), in cycles
    double seconds = 0;
  };
  const Totals& totals() const { return totals_; }
  // How far the simulation has got, for progress reports during a run:
  // simulated cycles of the dispatcher's clock, the workgroups and
  // wave-instructions of every workgroup finished so far, and how far the
  // launch running now is (its number, kernel and workgroups finished of all).
  std::string progress_line(double wall_seconds) const;

  // One row per launch, in order (a launch that faulted too, with "fault"):
  // the kernel's name, its LaunchResult figures, and what the memory side did
  // during it, summed over the platform: lines the L2s wrote back and
  // invalidated for maintenance, DRAM bytes read and written, and bytes that
  // crossed between chiplets. Kernel-boundary costs per kernel come from here.
  const std::vector<json>& launch_log() const { return launch_log_; }

  // cp_core.check_hints: every wrong hint seen so far (empty without the checker).
  std::vector<HintViolation> hint_violations() const;

  // Waits for every launch submitted ahead (cp_core.async_launches) and logs
  // them; nothing to do otherwise. Host accesses to device memory (read,
  // write, free) and launch_file() do it themselves; `tessera workload` calls
  // it after the workload, before the totals are printed.
  void synchronize();

  // Ends the simulation: blocks' end-of-simulation hooks run, and no launch
  // may follow. finish() does it too; stop() alone is for a caller that does
  // not want the statistics (building them costs time on a large platform).
  void stop();

  // Ends the simulation (stop()) and returns every block's statistics plus a "simulation" section
  // as `tessera run` writes it (wall_time_s: host time spent simulating) and a
  // "timing_device" section: netlist, functional, launches, cycles (summed
  // over launches), workgroups, waves, wave_instructions, and launch_log.
  json finish();

 private:
  void run_launch();
  LaunchResult launch_direct(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config);
  // The platform-wide sums the launch log records, in the order of kLogged.
  std::vector<uint64_t> logged_counters() const;
  // Summed over the dispatchers the device drives.
  DispatcherTotals dispatcher_totals() const;
  void log_launch(const std::string& kernel, const LaunchResult& r, const std::vector<uint64_t>& before,
                  const std::string& fault);
  void trace_launch(const std::string& kernel, const LaunchResult& r, uint64_t start, bool faulted);
  LaunchResult launch_queued(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config);
  // Where the device's counters stood at a point of the run (a submission or
  // a completion): what a launch did is the difference to the next point.
  struct Snapshot {
    DispatcherTotals dispatchers;
    std::vector<uint64_t> ranges;  // per dispatcher
    std::vector<uint64_t> logged;  // logged_counters()
    uint64_t cp_instructions = 0, cp_busy_cycles = 0;
    double seconds = 0;
    sc_core::sc_time time;
  };
  Snapshot snapshot() const;
  // A launch's figures from `before` to now, added to the totals.
  LaunchResult account_launch(const Snapshot& before);
  // The kernel-boundary fences of the next dispatch (cp_core.elision).
  std::pair<FenceScope, FenceScope> next_fences();
  // cp_core.async_launches: the dispatch is submitted and not waited for.
  void launch_ahead(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config);
  // Waits for every launch submitted ahead, in order, and logs each one.
  void drain();
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_with_fault(const std::string& fault) const;
  void wait_out_fault();

  TimingDeviceOptions options_;
  std::unique_ptr<Platform> platform_;
  DispatcherControl* dispatcher_ = nullptr;
  std::unique_ptr<HostRuntime> runtime_;
  unsigned queue_ = 0;
  Signal done_;
  // cp_core.elision: whether the host wrote memory since the last kernel
  // (which then acquires at System scope), and whether a kernel ran since the
  // last System-scope release (so the host must synchronise before it looks).
  bool host_wrote_ = true, device_dirty_ = false;
  void sync_for_host();
  // cp_core.async_launches: the launches submitted and not yet waited for
  // (each one decrements done_ when it completes), and the counters when the
  // first of them was submitted or the previous one completed.
  std::vector<std::string> ahead_;
  Snapshot ahead_since_;
  // cp_core.check_hints: the uses declared for the next launch, and where the
  // hint checker learns them.
  std::vector<DeclaredUse> declared_;
  void expect_uses(uint64_t packet, const std::string& kernel);
  isa::DeviceMemory& memory_;
  ProgramCache programs_;
  uint64_t next_dispatch_id_ = 0;
  bool finished_ = false;
  Totals totals_;
  std::vector<json> launch_log_;
  LaunchResult last_result_;  // of the latest launch that ran, for the log of one that faulted
  // The launch running now, for progress reports (none between launches).
  struct Running {
    bool active = false;
    uint64_t number = 0;            // 1 for the first launch of the run
    std::string kernel;
    uint64_t workgroups = 0;        // in its grid
    uint64_t finished_before = 0;   // dispatcher_totals().workgroups when it started
  };
  Running running_;
};

}  // namespace tessera
