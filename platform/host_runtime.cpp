#include "platform/host_runtime.h"

#include <chrono>
#include <cstring>

#include "platform/errors.h"
#include "platform/interrupt.h"
#include "platform/pending_report.h"
#include "sw/firmware/include/tessera/cp_regs.h"

namespace tessera {

using runtime::DeviceError;

namespace {

constexpr uint64_t kSignalBytes = 64;
constexpr uint64_t kQueueDescriptorBytes = 256;  // zeroed, as large as amd_queue_t

std::string arg_text(const isa::KernelInfo& k, size_t index, const isa::KernelArg& m) {
  return "kernel '" + k.name + "' argument " + std::to_string(index) + (m.name.empty() ? "" : " (" + m.name + ")") +
         " of type " + (m.type_name.empty() ? m.value_kind : m.type_name);
}

uint16_t packet_header(uint16_t type, FenceScope acquire, FenceScope release) {
  return static_cast<uint16_t>(type | (1u << 8) /* barrier bit: in order */ |
                               (static_cast<uint16_t>(acquire) << 9) | (static_cast<uint16_t>(release) << 11));
}

}  // namespace

// ---- arguments -----------------------------------------------------------------------

KernelArguments::KernelArguments(const HostKernel& kernel)
    : kernel_(*kernel.info), meta_(kernel.info->explicit_args()), values_(meta_.size()), set_(meta_.size(), false) {}

const isa::KernelArg& KernelArguments::meta(size_t index, const char* what) const {
  if (index >= meta_.size())
    throw UserError("kernel '" + kernel_.name + "' takes " + std::to_string(meta_.size()) + " arguments; " + what +
                    " for argument " + std::to_string(index));
  return *meta_[index];
}

KernelArguments& KernelArguments::set_pointer(size_t index, uint64_t device_address) {
  const isa::KernelArg& m = meta(index, "a pointer given");
  if (m.value_kind != "global_buffer")
    throw UserError(arg_text(kernel_, index, m) + " is not a buffer pointer, but a pointer was given");
  values_[index] = isa::ArgValue{};
  values_[index].bytes.resize(8);
  std::memcpy(values_[index].bytes.data(), &device_address, 8);
  set_[index] = true;
  return *this;
}

KernelArguments& KernelArguments::set_bytes(size_t index, const void* bytes, size_t size) {
  const isa::KernelArg& m = meta(index, "a value given");
  if (m.value_kind != "by_value")
    throw UserError(arg_text(kernel_, index, m) + " is not passed by value, but a value was given");
  if (size != m.size)
    throw UserError(arg_text(kernel_, index, m) + " takes " + std::to_string(m.size) + " bytes, " +
                    std::to_string(size) + " given");
  values_[index] = isa::ArgValue{};
  values_[index].bytes.assign(static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + size);
  set_[index] = true;
  return *this;
}

KernelArguments& KernelArguments::set_local(size_t index, uint32_t bytes) {
  const isa::KernelArg& m = meta(index, "local memory given");
  if (m.value_kind != "dynamic_shared_pointer")
    throw UserError(arg_text(kernel_, index, m) + " is not a __local pointer, but local memory was given");
  values_[index] = isa::ArgValue{};
  values_[index].kind = isa::ArgValue::Kind::LocalBytes;
  values_[index].local_bytes = bytes;
  set_[index] = true;
  return *this;
}

std::vector<isa::ArgValue> KernelArguments::values() const {
  for (size_t i = 0; i < set_.size(); ++i)
    if (!set_[i]) throw UserError(arg_text(kernel_, i, *meta_[i]) + " was not set");
  return values_;
}

// ---- the runtime -----------------------------------------------------------------------

HostRuntime::HostRuntime(Platform& platform, Options options)
    : options_(options),
      platform_(platform),
      memory_(platform.shared().get<isa::DeviceMemory>("device")),
      kernel_objects_(platform.shared().get<KernelObjectTable>("kernel_objects")),
      programs_(memory_) {
  for (const auto& b : platform.blocks()) {
    if (auto* cp = dynamic_cast<CommandProcessorControl*>(b.get())) {
      if (cp_)
        throw UserError("the platform has several command processors (" + cp_->block().path() + ", " +
                        cp->block().path() + "); the host runtime drives one");
      cp_ = cp;
    }
    if (auto* d = dynamic_cast<DispatcherControl*>(b.get())) dispatchers_.push_back(d);
  }
  if (!cp_) throw UserError("the platform has no cp_core; the host runtime submits work through a command processor");
  if (cp_->dispatcher_count() == 0)
    throw UserError(cp_->block().path() + " has no dispatcher bound to its dispatcher[] sockets");
  if (options_.queue_packets < 2 || (options_.queue_packets & (options_.queue_packets - 1)))
    throw UserError("a queue holds a power of two of at least 2 packets, not " +
                    std::to_string(options_.queue_packets));
  for (DispatcherControl* d : dispatchers_) {
    d->set_functional(options_.functional);
    faults_seen_.push_back(d->totals().faults + d->totals().bad_packets);
  }
}

HostRuntime::~HostRuntime() {
  for (const auto& [path, program] : loaded_)
    for (const auto& [name, hk] : program.kernels) kernel_objects_.remove(hk.object);
}

uint64_t HostRuntime::alloc(uint64_t bytes) { return memory_.alloc(bytes); }
void HostRuntime::free(uint64_t address) { memory_.free(address); }
void HostRuntime::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) { memory_.write(dst, src, bytes); }
void HostRuntime::copy_to_host(void* dst, uint64_t src, uint64_t bytes) { memory_.read(dst, src, bytes); }

// The code object is placed in device memory as a loader places it (every
// segment at its load base + vaddr, relocations applied): a kernel object is
// its descriptor in that copy, whose entry offset already points at the code.
const HostKernel& HostRuntime::kernel(const std::string& path, const std::string& name) {
  auto it = loaded_.find(path);
  if (it == loaded_.end()) {
    ProgramCache::Program& p = programs_.load(path);
    const uint64_t base = p.code_base();
    LoadedProgram lp;
    for (const isa::KernelInfo& k : p.code.kernels()) {
      const uint64_t object = base + k.descriptor_address;
      lp.kernels.emplace(k.name, HostKernel{&k, &p.cache, object});
      kernel_objects_.add(object, LoadedKernel{&k, &p.cache, base + p.code.text_address(), base});
    }
    it = loaded_.emplace(path, std::move(lp)).first;
  }
  auto k = it->second.kernels.find(name);
  if (k == it->second.kernels.end()) {
    std::string names;
    for (const auto& [n, hk] : it->second.kernels) names += (names.empty() ? "" : ", ") + n;
    throw UserError(path + " has no kernel '" + name + "'; it has: " + names);
  }
  return k->second;
}

unsigned HostRuntime::create_queue() {
  if (queues_.size() >= CP_MAX_QUEUES)
    throw UserError("at most " + std::to_string(CP_MAX_QUEUES) + " queues can be created");
  Queue q;
  q.size = options_.queue_packets;
  q.ring = memory_.alloc(uint64_t(q.size) * AQL_PACKET_BYTES);
  q.descriptor = memory_.alloc(kQueueDescriptorBytes);
  // Every slot starts invalid: the firmware stops at a packet whose header is not yet written.
  std::vector<uint8_t> ring(uint64_t(q.size) * AQL_PACKET_BYTES, 0);
  for (uint32_t i = 0; i < q.size; ++i) ring[uint64_t(i) * AQL_PACKET_BYTES] = AQL_TYPE_INVALID;
  memory_.write(q.ring, ring.data(), ring.size());
  const std::vector<uint8_t> zeros(kQueueDescriptorBytes, 0);
  memory_.write(q.descriptor, zeros.data(), zeros.size());
  const unsigned index = static_cast<unsigned>(queues_.size());
  cp_->configure_queue(index, q.ring, q.size, q.descriptor);
  queues_.push_back(q);
  return index;
}

Signal HostRuntime::create_signal(int64_t value) {
  auto block = std::make_unique<isa::ScopedAllocation>(memory_, kSignalBytes);
  const std::vector<uint8_t> zeros(kSignalBytes, 0);
  memory_.write(block->address(), zeros.data(), zeros.size());
  Signal s{block->address()};
  signals_.emplace(s.address, std::move(block));
  set_signal_value(s, value);
  return s;
}

void HostRuntime::destroy_signal(Signal s) {
  if (!signals_.erase(s.address)) throw UserError("destroy_signal: no signal at " + std::to_string(s.address));
}

int64_t HostRuntime::signal_value(Signal s) const {
  int64_t v = 0;
  memory_.read(&v, s.address + SIGNAL_VALUE, sizeof v);
  return v;
}

void HostRuntime::set_signal_value(Signal s, int64_t value) { memory_.write(s.address + SIGNAL_VALUE, &value, 8); }

// ---- submission ----------------------------------------------------------------------

uint32_t HostRuntime::reserve_slot(unsigned queue) {
  if (queue >= queues_.size()) throw UserError("queue " + std::to_string(queue) + " was not created");
  Queue& q = queues_[queue];
  run_until([&] { return q.write - cp_->read_index(queue) < q.size; }, "room in queue " + std::to_string(queue));
  return q.write++;
}

// The body first, the header last: the firmware treats a slot as written once
// its header is no longer INVALID.
void HostRuntime::publish(unsigned queue, uint32_t index, const void* packet64, uint16_t header) {
  Queue& q = queues_[queue];
  const uint64_t slot = q.ring + uint64_t(index % q.size) * AQL_PACKET_BYTES;
  memory_.write(slot + 2, static_cast<const uint8_t*>(packet64) + 2, AQL_PACKET_BYTES - 2);
  memory_.write(slot, &header, 2);
  cp_->ring_doorbell(queue, index + 1);
}

void HostRuntime::dispatch(unsigned queue, const HostKernel& kernel, runtime::Dim3 grid, runtime::Dim3 workgroup,
                           const KernelArguments& args, Signal completion, FenceScope acquire, FenceScope release) {
  isa::LaunchConfig config;
  const uint32_t g[3] = {grid.x, grid.y, grid.z}, l[3] = {workgroup.x, workgroup.y, workgroup.z};
  for (int d = 0; d < 3; ++d) {
    config.grid[d] = g[d];
    config.workgroup[d] = l[d];
  }
  config.args = args.values();
  dispatch(queue, kernel, config, completion, acquire, release);
}

uint64_t HostRuntime::dispatch(unsigned queue, const HostKernel& kernel, const isa::LaunchConfig& config,
                               Signal completion, FenceScope acquire, FenceScope release) {
  auto prepared = std::make_unique<isa::PreparedDispatch>(memory_, *kernel.program, *kernel.info, config,
                                                          next_dispatch_id_++);
  isa::AqlDispatchPacket packet = isa::make_dispatch_packet(prepared->ctx());
  packet.kernel_object = kernel.object;
  packet.completion_signal = completion.address;
  const uint32_t index = reserve_slot(queue);
  publish(queue, index, &packet, packet_header(isa::kAqlPacketTypeKernelDispatch, acquire, release));
  pending_.push_back(Pending{queue, index, std::move(prepared), nullptr});
  const Queue& q = queues_[queue];
  return q.ring + uint64_t(index % q.size) * AQL_PACKET_BYTES;
}

void HostRuntime::set_access_modes(unsigned queue, const std::vector<BufferAccess>& buffers, Signal completion) {
  std::vector<uint8_t> entries(std::max<size_t>(buffers.size(), 1) * ACCESS_ENTRY_BYTES, 0);
  for (size_t i = 0; i < buffers.size(); ++i) {
    uint8_t* e = entries.data() + i * ACCESS_ENTRY_BYTES;
    const uint32_t mode = static_cast<uint32_t>(buffers[i].mode) | (buffers[i].partitioned ? ACCESS_PARTITIONED : 0u);
    std::memcpy(e, &buffers[i].base, 8);
    std::memcpy(e + 8, &buffers[i].size, 8);
    std::memcpy(e + 16, &mode, 4);
    std::memcpy(e + 20, &buffers[i].chiplet_mask, 4);
  }
  auto table = std::make_unique<isa::ScopedAllocation>(memory_, entries.size());
  memory_.write(table->address(), entries.data(), entries.size());
  uint8_t packet[AQL_PACKET_BYTES] = {};
  const uint16_t format = TESSERA_ACCESS_MODES;
  const uint32_t count = static_cast<uint32_t>(buffers.size());
  const uint64_t address = table->address();
  std::memcpy(packet + AQL_VENDOR_FORMAT, &format, 2);
  std::memcpy(packet + AQL_VENDOR_COUNT, &count, 4);
  std::memcpy(packet + AQL_VENDOR_ENTRIES, &address, 8);
  std::memcpy(packet + AQL_COMPLETION_SIGNAL, &completion.address, 8);
  const uint32_t index = reserve_slot(queue);
  publish(queue, index, packet, packet_header(AQL_TYPE_VENDOR_SPECIFIC, FenceScope::None, FenceScope::None));
  pending_.push_back(Pending{queue, index, nullptr, std::move(table)});
}

void HostRuntime::barrier_and(unsigned queue, const std::vector<Signal>& dependencies, Signal completion,
                              FenceScope acquire, FenceScope release) {
  if (dependencies.size() > AQL_BARRIER_DEPS)
    throw UserError("a barrier-AND packet waits for at most " + std::to_string(AQL_BARRIER_DEPS) + " signals, not " +
                    std::to_string(dependencies.size()));
  uint8_t packet[AQL_PACKET_BYTES] = {};
  for (size_t i = 0; i < dependencies.size(); ++i)
    std::memcpy(packet + AQL_BARRIER_DEP(i), &dependencies[i].address, 8);
  std::memcpy(packet + AQL_COMPLETION_SIGNAL, &completion.address, 8);
  const uint32_t index = reserve_slot(queue);
  publish(queue, index, packet, packet_header(AQL_TYPE_BARRIER_AND, acquire, release));
}

// ---- waiting -------------------------------------------------------------------------

void HostRuntime::wait(Signal s, int64_t until) {
  run_until([&] { return signal_value(s) <= until; }, "signal at " + std::to_string(s.address) + " to reach " +
                                                          std::to_string(until));
}

// Runs the simulation until `done` holds. The CP pauses the simulation each time
// it notifies the host; the platform running out of events first means nothing
// will ever make `done` true. A wait ends where it would end without a limit:
// the limit only decides whether the wait has hung, so reaching it after `done`
// became true runs on to the CP's notification (a launch's cycles never depend
// on the limit).
void HostRuntime::run_until(const std::function<bool()>& done, const std::string& what) {
  const bool limited = options_.max_wait > sc_core::SC_ZERO_TIME;
  const sc_core::sc_time limit = sc_core::sc_time_stamp() + options_.max_wait;
  bool stopped_at_limit = false;
  while (true) {
    check_faults();
    release_finished();
    const bool finished = done();
    if (finished && !stopped_at_limit) return;
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (!finished) {
      if (!sc_core::sc_pending_activity() && cp_->sleeping())
        throw DeviceError("tessera: waiting for " + what + ": the platform went idle with the command processor "
                          "asleep; " + cp_->summary() + pending_report(platform_));
      if (limited && now >= limit)
        throw DeviceError("tessera: waiting for " + what + ": not done within " + options_.max_wait.to_string() +
                          " (hung?); " + cp_->summary() + pending_report(platform_));
    }
    const auto start = std::chrono::steady_clock::now();
    if (limited && !finished) {
      sc_core::sc_start(limit - now);  // time reaches the limit even when the next event lies beyond it
      stopped_at_limit = sc_core::sc_time_stamp() >= limit;
    } else {
      sc_core::sc_start();
      stopped_at_limit = false;
    }
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (interrupt_requested()) throw Interrupted(interrupt_signal());
  }
}

void HostRuntime::check_faults() {
  if (cp_->faulted()) throw DeviceError("tessera: the command processor faulted:\n" + cp_->fault_report());
  if (cp_->finished()) throw DeviceError("tessera: the command processor's firmware halted; " + cp_->summary());
  for (size_t i = 0; i < dispatchers_.size(); ++i) {
    const DispatcherTotals t = dispatchers_[i]->totals();
    if (t.faults + t.bad_packets == faults_seen_[i]) continue;
    faults_seen_[i] = t.faults + t.bad_packets;
    throw DeviceError(dispatchers_[i]->last_fault());
  }
}

// A dispatch's kernargs and a vendor packet's table live until the CP has read past the packet.
void HostRuntime::release_finished() {
  std::vector<Pending> keep;
  for (Pending& p : pending_)
    if (static_cast<int32_t>(cp_->read_index(p.queue) - p.index) <= 0) keep.push_back(std::move(p));
  pending_ = std::move(keep);
}

}  // namespace tessera
