#include "platform/timing_device.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "models/cu/isa/prepared_dispatch.h"
#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/pending_report.h"
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
  return std::make_unique<Platform>(netlist, o.trace);
}

bool has_cp(const Platform& p) {
  for (const auto& b : p.blocks())
    if (dynamic_cast<const CommandProcessorControl*>(b.get())) return true;
  return false;
}

// Without a CP the device drives exactly one dispatcher; with one, the first
// dispatcher stands for all of them where a caller asks for one.
DispatcherControl* find_dispatcher(Platform& p, const std::string& file, bool direct) {
  DispatcherControl* found = nullptr;
  std::string names;
  const bool cp = has_cp(p) && !direct;
  for (const auto& b : p.blocks()) {
    auto* d = dynamic_cast<DispatcherControl*>(b.get());
    if (!d) continue;
    names += (names.empty() ? "" : ", ") + b->path();
    if (found && !cp)
      throw UserError("netlist " + file + " has several dispatchers (" + names +
                      ") and no cp_core (or direct dispatch was asked for); without a command processor the timing device "
                      "drives exactly one");
    if (!found) found = d;
  }
  if (!found) throw UserError("netlist " + file + " has no block of type dispatcher; the timing device launches "
                              "kernels through one");
  return found;
}

template <class F>
auto device_call(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const LimitError&) {
    throw;  // an input error (exit 3), as every limit is
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
      dispatcher_(find_dispatcher(*platform_, options_.netlist_file, options_.direct_dispatch)),
      memory_(platform_->shared().get<isa::DeviceMemory>("device")),
      programs_(memory_) {
  if (has_cp(*platform_) && !options_.direct_dispatch) {
    HostRuntime::Options ro;
    ro.functional = options_.functional;
    ro.max_wait = dispatcher_->block().cycles(options_.max_cycles);
    runtime_ = std::make_unique<HostRuntime>(*platform_, ro);
    queue_ = runtime_->create_queue();
    done_ = runtime_->create_signal(0);
    if (HintCheckControl* checker = runtime_->cp().hint_checker())
      for (const auto& b : platform_->blocks()) checker->watch(*b);
  }
  // Ends elaboration now, so that a netlist SystemC rejects fails here and
  // launch() starts from a running simulation.
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

TimingDevice::~TimingDevice() = default;

runtime::DevicePtr TimingDevice::alloc(size_t bytes) {
  return device_call([&] { return memory_.alloc(bytes); });
}

void TimingDevice::free(runtime::DevicePtr p) {
  synchronize();  // no kernel submitted ahead may still use it
  device_call([&] { memory_.free(p); });
}

void TimingDevice::write(runtime::DevicePtr dst, const void* src, size_t bytes) {
  sync_for_host();  // no dirty line written back later may overwrite what the host writes
  device_call([&] { memory_.write(dst, src, bytes); });
  host_wrote_ = true;
}

void TimingDevice::read(void* dst, runtime::DevicePtr src, size_t bytes) {
  sync_for_host();
  device_call([&] { memory_.read(dst, src, bytes); });
}

// With elision, kernels release at Agent scope, so the L2s may hold data
// memory does not: before the host touches memory, a barrier-AND packet whose
// System-scope release writes back every dirty L2. Its time counts in the
// device's cycles (sync_cycles), as the host waits for it.
void TimingDevice::sync_for_host() {
  if (finished_) return;
  drain();
  if (!device_dirty_) return;
  device_dirty_ = false;
  const sc_core::sc_time start = sc_core::sc_time_stamp();
  runtime_->set_signal_value(done_, 1);
  device_call([&] {
    runtime_->barrier_and(queue_, {}, done_, FenceScope::None, FenceScope::System);
    runtime_->wait(done_);
  });
  const uint64_t cycles = static_cast<uint64_t>(
      std::llround((sc_core::sc_time_stamp() - start) / dispatcher_->block().clock_period()));
  totals_.sync_cycles += cycles;
  totals_.cycles += cycles;
}

void TimingDevice::fail(const std::string& what) const { throw DeviceError("tessera-timing: " + what); }

// Runs the simulation until the dispatcher pauses it at the end of the launch.
void TimingDevice::run_launch() {
  const auto start = std::chrono::steady_clock::now();
  if (options_.max_cycles) {
    sc_core::sc_start(dispatcher_->block().cycles(options_.max_cycles), sc_core::SC_EXIT_ON_STARVATION);
  } else {
    sc_core::sc_start();
  }
  totals_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (interrupt_requested()) throw Interrupted(interrupt_signal());
  if (!dispatcher_->busy()) return;
  if (sc_core::sc_pending_activity())
    fail("the launch did not finish within " + std::to_string(options_.max_cycles) + " cycles (hung?)" +
         pending_report(*platform_));
  fail("the platform went idle before the launch finished: a request or a workgroup was never answered "
       "(check the netlist's bindings and address map)" +
       pending_report(*platform_));
}

namespace {

// What the launch log sums over the platform: block type, counter, log key.
struct LoggedCounter {
  const char* type;
  const char* counter;
  const char* key;
};
constexpr LoggedCounter kLogged[] = {
    {"l2_cache", "lines_written_back", "l2_lines_written_back"},
    {"l2_cache", "lines_invalidated", "l2_lines_invalidated"},
    {"dram_controller", "bytes_read", "dram_bytes_read"},
    {"dram_controller", "bytes_written", "dram_bytes_written"},
    {"chiplet_network", "remote_bytes", "remote_bytes"},
};

// Workgroups in a launch's grid (the dispatch itself rejects a zero size).
uint64_t grid_workgroups(const isa::LaunchConfig& config) {
  return uint64_t(config.workgroups(0)) * config.workgroups(1) * config.workgroups(2);
}

}  // namespace

LaunchResult TimingDevice::launch_file(const std::string& path, const std::string& kernel,
                                       const isa::LaunchConfig& config) {
  if (finished_) fail("the simulation has ended; no launch may follow finish()");
  drain();
  const std::vector<uint64_t> before = logged_counters();
  const uint64_t launches = totals_.launches;
  running_ = Running{true, launches + 1, kernel, grid_workgroups(config), dispatcher_totals().workgroups};
  struct EndRunning {
    Running& r;
    ~EndRunning() { r.active = false; }
  } end_running{running_};
  const uint64_t start = sc_core::sc_time_stamp().value();
  try {
    const LaunchResult r = runtime_ ? launch_queued(path, kernel, config) : launch_direct(path, kernel, config);
    log_launch(kernel, r, before, "");
    trace_launch(kernel, r, start, false);
    return r;
  } catch (const DeviceError& e) {
    // A launch that ran (and faulted) is logged; one refused before it ran is not.
    if (totals_.launches > launches) {
      log_launch(kernel, last_result_, before, e.what());
      trace_launch(kernel, last_result_, start, true);
    }
    throw;
  }
}

// A slice per launch, from submission to completion, on the host's track.
void TimingDevice::trace_launch(const std::string& kernel, const LaunchResult& r, uint64_t start, bool faulted) {
  Tracer* t = platform_->tracer();
  if (!t || !t->keeps(TraceKind::Launch)) return;
  t->outline(t->track("host", "launches"), t->text(kernel), start, sc_core::sc_time_stamp().value(),
             {{t->text("launch"), double(totals_.launches)},
              {t->text("cycles"), double(r.cycles)},
              {t->text("kernel_cycles"), double(r.kernel_cycles)},
              {t->text("workgroups"), double(r.workgroups)},
              {t->text("wave_instructions"), double(r.wave_instructions)},
              {t->text("faulted"), faulted ? 1.0 : 0.0}});
}

std::vector<uint64_t> TimingDevice::logged_counters() const {
  std::vector<uint64_t> sums(std::size(kLogged), 0);
  for (const auto& b : platform_->blocks())
    for (size_t i = 0; i < sums.size(); ++i)
      if (b->type_name() == kLogged[i].type) sums[i] += b->stats().counter_value(kLogged[i].counter);
  return sums;
}

void TimingDevice::log_launch(const std::string& kernel, const LaunchResult& r, const std::vector<uint64_t>& before,
                              const std::string& fault) {
  json row = {{"kernel", kernel},
              {"cycles", r.cycles},
              {"kernel_cycles", r.kernel_cycles},
              {"workgroups", r.workgroups},
              {"waves", r.waves},
              {"wave_instructions", r.wave_instructions}};
  if (runtime_) {
    row["cp_instructions"] = r.cp_instructions;
    row["cp_busy_cycles"] = r.cp_busy_cycles;
  }
  const std::vector<uint64_t> after = logged_counters();
  for (size_t i = 0; i < after.size(); ++i) row[kLogged[i].key] = after[i] - before[i];
  if (!fault.empty()) row["fault"] = fault;
  launch_log_.push_back(std::move(row));
}

LaunchResult TimingDevice::launch_direct(const std::string& path, const std::string& kernel,
                                         const isa::LaunchConfig& config) {
  if (dispatcher_->busy()) fail("an earlier launch never finished; the device cannot launch again");
  ProgramCache::Program& p = programs_.load(path);
  const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
  isa::PreparedDispatch prepared(memory_, p.cache, k, config, next_dispatch_id_++);
  prepared.ctx().code_base = p.code_base();
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
  last_result_ = r;
  if (!r.fault.empty()) fail(r.fault);
  return r;
}

// Through the command processor: one packet on the device's queue, then a wait
// on its completion signal. Counts are the dispatchers' and the CP's progress
// over the wait; a launch is synchronous, so nothing else contributes.
LaunchResult TimingDevice::launch_queued(const std::string& path, const std::string& kernel,
                                         const isa::LaunchConfig& config) {
  const HostKernel& k = runtime_->kernel(path, kernel);
  if (runtime_->signal_value(done_) > 0) fail("an earlier launch never finished; the device cannot launch again");
  const Snapshot before = snapshot();
  runtime_->set_signal_value(done_, 1);
  const auto [acquire, release] = next_fences();
  std::string fault;
  try {
    expect_uses(runtime_->dispatch(queue_, k, config, done_, acquire, release), kernel);
    runtime_->wait(done_);
  } catch (const DeviceError& e) {
    fault = e.what();
  }
  // A wave fault is reported while the firmware still finishes the packet; let
  // it, so that the next launch's signal is not decremented by this one.
  if (!fault.empty() && runtime_->signal_value(done_) > 0) wait_out_fault();
  const LaunchResult r = account_launch(before);
  if (!fault.empty()) fail_with_fault(fault);
  return r;
}

// After a fault: the packets still on the device run to their end (a second
// fault among them is not reported), so that no later wait counts them.
void TimingDevice::wait_out_fault() {
  try {
    runtime_->wait(done_);
  } catch (const DeviceError&) {
  }
}

// A fault the host runtime reported, without its own "tessera: " prefix.
void TimingDevice::fail_with_fault(const std::string& fault) const {
  fail(fault.rfind("tessera: ", 0) == 0 ? fault.substr(9) : fault);
}

// With elision, a kernel acquires at System scope only after the host wrote
// memory, and releases at Agent scope (sync_for_host() before the host
// looks); otherwise every kernel at System scope.
std::pair<FenceScope, FenceScope> TimingDevice::next_fences() {
  const bool agent = runtime_->cp().elision();
  const FenceScope acquire = agent && !host_wrote_ ? FenceScope::Agent : FenceScope::System;
  const FenceScope release = agent ? FenceScope::Agent : FenceScope::System;
  host_wrote_ = false;
  device_dirty_ = agent;
  return {acquire, release};
}

TimingDevice::Snapshot TimingDevice::snapshot() const {
  Snapshot s;
  s.dispatchers = dispatcher_totals();
  for (DispatcherControl* d : runtime_->dispatchers()) s.ranges.push_back(d->totals().ranges);
  s.logged = logged_counters();
  s.cp_instructions = runtime_->cp().instructions();
  s.cp_busy_cycles = runtime_->cp().busy_cycles();
  s.seconds = runtime_->seconds_simulating();
  s.time = sc_core::sc_time_stamp();
  return s;
}

LaunchResult TimingDevice::account_launch(const Snapshot& before) {
  const DispatcherTotals after = dispatcher_totals();
  LaunchResult r;
  const sc_core::sc_time period = dispatcher_->block().clock_period();
  r.cycles = static_cast<uint64_t>(std::llround((sc_core::sc_time_stamp() - before.time) / period));
  // The kernel spans the ranges its dispatchers ran (one each, as kernels run one after another).
  sc_core::sc_time first = sc_core::sc_max_time(), last = sc_core::SC_ZERO_TIME;
  for (size_t i = 0; i < runtime_->dispatchers().size(); ++i) {
    const DispatcherControl* d = runtime_->dispatchers()[i];
    if (d->totals().ranges == before.ranges[i]) continue;
    first = std::min(first, d->last_start());
    last = std::max(last, d->last_end());
  }
  if (last > first) r.kernel_cycles = static_cast<uint64_t>(std::llround((last - first) / period));
  r.workgroups = after.workgroups - before.dispatchers.workgroups;
  r.waves = after.waves - before.dispatchers.waves;
  r.wave_instructions = after.wave_instructions - before.dispatchers.wave_instructions;
  r.cp_instructions = runtime_->cp().instructions() - before.cp_instructions;
  r.cp_busy_cycles = runtime_->cp().busy_cycles() - before.cp_busy_cycles;
  totals_.seconds += runtime_->seconds_simulating() - before.seconds;
  ++totals_.launches;
  totals_.cycles += r.cycles;
  totals_.wave_instructions += r.wave_instructions;
  totals_.waves += r.waves;
  totals_.workgroups += r.workgroups;
  totals_.cp_instructions += r.cp_instructions;
  totals_.cp_busy_cycles += r.cp_busy_cycles;
  last_result_ = r;
  return r;
}

// The packet goes on the queue behind those already there, with no wait: the
// CP may read it (and a policy prepare it) while earlier kernels run. Every
// launch ahead decrements done_ once, in order, so the host knows how many
// have completed from its value.
void TimingDevice::launch_ahead(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config) {
  if (finished_) fail("the simulation has ended; no launch may follow finish()");
  const HostKernel& k = runtime_->kernel(path, kernel);
  if (ahead_.empty()) ahead_since_ = snapshot();
  const auto [acquire, release] = next_fences();
  expect_uses(runtime_->dispatch(queue_, k, config, done_, acquire, release), kernel);
  // After the packet is published: nothing has run the simulation since, so
  // the CP cannot have completed it yet.
  runtime_->set_signal_value(done_, runtime_->signal_value(done_) + 1);
  ahead_.push_back(kernel);
}

// Each launch is logged when the host sees it complete: its cycles run from
// the previous one's completion (or the first submission) to its own, so the
// rows add up to the time the host waited. A fault ends the wait: the rest of
// the launches still finish on the device but are not logged.
void TimingDevice::drain() {
  while (!ahead_.empty()) {
    const std::string kernel = ahead_.front();
    std::string fault;
    try {
      runtime_->wait(done_, static_cast<int64_t>(ahead_.size()) - 1);
    } catch (const DeviceError& e) {
      fault = e.what();
    }
    const LaunchResult r = account_launch(ahead_since_);
    log_launch(kernel, r, ahead_since_.logged, fault);
    trace_launch(kernel, r, ahead_since_.time.value(), !fault.empty());
    ahead_.erase(ahead_.begin());
    ahead_since_ = snapshot();
    if (fault.empty()) continue;
    ahead_.clear();
    wait_out_fault();
    fail_with_fault(fault);
  }
}

// The uses declared since the previous launch go to the checker with this
// dispatch's packet (none: the dispatch is not checked).
void TimingDevice::expect_uses(uint64_t packet, const std::string& kernel) {
  HintCheckControl* checker = runtime_->cp().hint_checker();
  if (!checker) return;
  checker->expect(packet, kernel, declared_, static_cast<unsigned>(runtime_->dispatchers().size()));
  declared_.clear();
}

std::vector<HintViolation> TimingDevice::hint_violations() const {
  HintCheckControl* checker = runtime_ ? runtime_->cp().hint_checker() : nullptr;
  return checker ? checker->violations() : std::vector<HintViolation>{};
}

void TimingDevice::synchronize() {
  if (!finished_) device_call([&] { drain(); });
}

DispatcherTotals TimingDevice::dispatcher_totals() const {
  if (!runtime_) return dispatcher_->totals();
  DispatcherTotals t;
  for (const DispatcherControl* d : runtime_->dispatchers()) {
    const DispatcherTotals x = d->totals();
    t.workgroups += x.workgroups;
    t.waves += x.waves;
    t.wave_instructions += x.wave_instructions;
  }
  return t;
}

std::string TimingDevice::progress_line(double wall_seconds) const {
  const DispatcherTotals t = dispatcher_totals();
  const double cycles = sc_core::sc_time_stamp() / dispatcher_->block().clock_period();
  const double per_second = wall_seconds > 0 ? 1 / wall_seconds / 1e6 : 0;
  char line[240];
  std::snprintf(line, sizeof line,
                "%.1f s: %.0f cycles simulated (%.3g M/s), %llu workgroups and %llu wave-instructions finished "
                "(%.3g M/s)",
                wall_seconds, cycles, cycles * per_second, static_cast<unsigned long long>(t.workgroups),
                static_cast<unsigned long long>(t.wave_instructions), double(t.wave_instructions) * per_second);
  if (!running_.active) return line;
  const uint64_t done = std::min(t.workgroups - running_.finished_before, running_.workgroups);
  char counts[100];
  std::snprintf(counts, sizeof counts, "): %llu of %llu workgroups (%.0f %%)", static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(running_.workgroups),
                running_.workgroups ? 100.0 * double(done) / double(running_.workgroups) : 100.0);
  return std::string(line) + "; launch " + std::to_string(running_.number) + " (" + running_.kernel + counts;
}

runtime::LaunchStats TimingDevice::launch(const std::string& program_name, const std::string& kernel,
                                          runtime::Dim3 global, runtime::Dim3 local, const runtime::KernelArgs& args) {
  const std::string path = options_.kernel_dir + "/" + program_name + ".hsaco";
  return device_call([&] {
    ProgramCache::Program& p = programs_.get(path);
    const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
    // Submitted ahead: the figures are in the launch log and the totals once
    // the host has waited for it (synchronize()).
    if (runtime_ && runtime_->cp().async_launches()) {
      launch_ahead(path, kernel, make_launch_config(k, global, local, args));
      return runtime::LaunchStats{};
    }
    const LaunchResult r = launch_file(path, kernel, make_launch_config(k, global, local, args));
    runtime::LaunchStats out;
    out.wave_instructions = r.wave_instructions;
    out.waves = r.waves;
    out.workgroups = r.workgroups;
    out.cycles = r.cycles;
    out.kernel_cycles = r.kernel_cycles;
    return out;
  });
}

void TimingDevice::set_access_modes(const std::vector<runtime::BufferAccess>& buffers) {
  if (!runtime_ || buffers.empty()) return;
  if (finished_) fail("the simulation has ended; no access modes may follow finish()");
  if (runtime_->cp().hint_checker())
    for (const runtime::BufferAccess& b : buffers)
      declared_.push_back(DeclaredUse{b.base, b.bytes, b.mode == runtime::AccessMode::ReadOnly, b.chiplet_mask,
                                      b.partitioned});
  // Only a policy that elides synchronisation with them reads them: the
  // baseline (and, with cp.access_modes false, the hmg policy) would pay for
  // reading packets it ignores.
  if (!runtime_->cp().elision() || !runtime_->cp().access_modes()) return;
  std::vector<BufferAccess> modes;
  for (const runtime::BufferAccess& b : buffers)
    modes.push_back(BufferAccess{b.base, b.bytes,
                                 b.mode == runtime::AccessMode::ReadOnly ? AccessMode::ReadOnly : AccessMode::ReadWrite,
                                 b.chiplet_mask, b.partitioned});
  device_call([&] { runtime_->set_access_modes(queue_, modes); });
}

void TimingDevice::stop() {
  if (finished_) return;
  finished_ = true;
  stop_simulation();
}

json TimingDevice::finish() {
  RunResult r;
  r.default_clock_hz = platform_->netlist().default_clock_hz();
  r.simulated = sc_core::sc_time_stamp();
  r.wall_seconds = totals_.seconds;
  r.delta_cycles = sc_core::sc_delta_count();
  r.interrupted_by = interrupt_signal();
  stop();
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
  if (runtime_) {
    out["timing_device"]["cp_instructions"] = totals_.cp_instructions;
    out["timing_device"]["cp_busy_cycles"] = totals_.cp_busy_cycles;
    if (runtime_->cp().elision()) out["timing_device"]["sync_cycles"] = totals_.sync_cycles;
  }
  out["timing_device"]["launch_log"] = launch_log_;
  if (runtime_ && runtime_->cp().hint_checker()) {
    json rows = json::array();
    for (const HintViolation& v : hint_violations())
      rows.push_back({{"kernel", v.kernel},
                      {"buffer_base", v.buffer_base},
                      {"buffer_bytes", v.buffer_bytes},
                      {"address", v.address},
                      {"chiplet", v.chiplet},
                      {"what", v.what},
                      {"count", v.count}});
    out["timing_device"]["hint_violations"] = rows;
  }
  return out;
}

}  // namespace tessera
