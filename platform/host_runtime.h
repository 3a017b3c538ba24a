// The host runtime: how a host program drives a Tessera platform that has a
// command processor, the way an HSA runtime drives a GPU.
//
//   HostRuntime rt(platform);                       // needs a cp_core with dispatchers
//   uint64_t a = rt.alloc(n * 4);  rt.copy_to_device(a, host.data(), n * 4);
//   const HostKernel& k = rt.kernel("build/sw/kernels/vector_add.hsaco", "vector_add");
//   KernelArguments args(k);
//   args.set_pointer(0, a).set_pointer(1, b).set_pointer(2, c).set_value(3, n);
//   unsigned q = rt.create_queue();
//   Signal done = rt.create_signal(1);
//   rt.set_access_modes(q, {{a, n * 4, AccessMode::ReadOnly}, {c, n * 4, AccessMode::ReadWrite}});
//   rt.dispatch(q, k, {n, 1, 1}, {256, 1, 1}, args, done);
//   rt.wait(done);                                  // runs the simulation until done reaches 0
//
// What reaches the GPU is what reaches real hardware: a code object's
// segments (code, kernel descriptors, constant data, data) are placed in
// device memory with its relocations applied when it is loaded;
// dispatch() writes a 64-byte AQL kernel-dispatch packet (HSA layout) into the
// queue's ring buffer in device memory, header last, and rings the doorbell, a
// register of the command processor; the CP's firmware reads the packet, the
// kernel descriptor and the kernarg segment from device memory, programs the
// dispatchers and decrements the completion signal. Access modes travel in a
// vendor-specific packet ahead of the dispatch (sw/firmware/include/tessera/
// cp_regs.h has the layouts; docs/FIRMWARE.md describes them).
//
// Submission is asynchronous; wait() runs the simulation until the signal
// reaches the value asked for, and throws runtime::DeviceError with the report
// if a wave faults, the firmware faults, the platform goes idle first, or
// `max_cycles` pass. Device memory is the platform's shared isa::DeviceMemory:
// the host reads and writes it directly, so what the host sees between kernels
// depends on the kernel-boundary policy of the firmware (the baseline writes
// back the L2 at every kernel end and invalidates caches at every start).
//
// The API is shaped so that an OpenCL 1.2 layer can sit on it: buffers are
// device addresses, kernels are looked up by name in a program, arguments are
// set by index and checked against the kernel's metadata, queues are in order,
// and every submission can signal an event.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/isa/prepared_dispatch.h"
#include "platform/gpu_control.h"
#include "platform/kernel_object_table.h"
#include "platform/platform.h"
#include "platform/program_cache.h"
#include "sw/runtime/device.h"

namespace tessera {

// A kernel of a loaded code object: its metadata and the device address of its
// descriptor (the kernel object an AQL packet names).
struct HostKernel {
  const isa::KernelInfo* info = nullptr;
  isa::DecodeCache* program = nullptr;
  uint64_t object = 0;
  size_t arg_count() const { return info->explicit_args().size(); }
};

// A kernel's explicit arguments, set by index and checked against its metadata
// as they are set: a buffer pointer where the kernel takes one, a value of the
// declared size elsewhere, a byte count for a __local pointer.
class KernelArguments {
 public:
  explicit KernelArguments(const HostKernel& kernel);
  KernelArguments& set_pointer(size_t index, uint64_t device_address);
  KernelArguments& set_bytes(size_t index, const void* bytes, size_t size);
  template <class T>
  KernelArguments& set_value(size_t index, const T& value) {
    return set_bytes(index, &value, sizeof value);
  }
  KernelArguments& set_local(size_t index, uint32_t bytes);  // dynamic __local memory of that size
  // All arguments, in order; throws UserError naming the first one not set.
  std::vector<isa::ArgValue> values() const;

 private:
  const isa::KernelArg& meta(size_t index, const char* what) const;
  const isa::KernelInfo& kernel_;
  std::vector<const isa::KernelArg*> meta_;
  std::vector<isa::ArgValue> values_;
  std::vector<bool> set_;
};

// An HSA-style signal: a 64-byte block of device memory, its value the int64 at +8.
struct Signal {
  uint64_t address = 0;
};

enum class AccessMode : uint32_t { ReadOnly = 1, ReadWrite = 2 };

struct BufferAccess {
  uint64_t base = 0, size = 0;
  AccessMode mode = AccessMode::ReadWrite;
  uint32_t chiplet_mask = 0;  // chiplets that touch it (bit c for chiplet c); 0: all
  // Each chiplet touches only its share of the buffer, in proportion to the
  // workgroups it runs (chiplet c of a grid split into contiguous ranges touches
  // bytes [size*first_c/W, size*end_c/W)); false: the whole buffer.
  bool partitioned = false;
};

// Kernel-boundary fences of a packet (AQL header scopes).
enum class FenceScope : uint16_t { None = 0, Agent = 1, System = 2 };

class HostRuntime {
 public:
  struct Options {
    sc_core::sc_time max_wait;  // a wait gives up after this much simulated time (zero: never)
    bool functional = false;    // dispatchers run workgroups with no timing
    uint32_t queue_packets = 64;
  };
  // Finds the platform's cp_core (exactly one) and its dispatchers; throws
  // UserError if it has none or the CP has no dispatcher bound.
  HostRuntime(Platform& platform, Options options);
  ~HostRuntime();
  HostRuntime(const HostRuntime&) = delete;
  HostRuntime& operator=(const HostRuntime&) = delete;

  // Device memory.
  uint64_t alloc(uint64_t bytes);
  void free(uint64_t address);
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, uint64_t src, uint64_t bytes);

  // Loads the code object at `path` on first use (models/cu/isa/code_loader.h)
  // and returns kernel `name`. Throws isa::CodeObjectError,
  // or UserError listing the kernels it has.
  const HostKernel& kernel(const std::string& path, const std::string& name);

  // Queues (in order; at most CP_MAX_QUEUES) and signals.
  unsigned create_queue();
  Signal create_signal(int64_t value);
  void destroy_signal(Signal s);
  int64_t signal_value(Signal s) const;
  void set_signal_value(Signal s, int64_t value);

  // Submissions. Each writes one packet and rings the queue's doorbell; a full
  // ring first runs the simulation until the CP has made room.
  void set_access_modes(unsigned queue, const std::vector<BufferAccess>& buffers, Signal completion = {});
  void dispatch(unsigned queue, const HostKernel& kernel, runtime::Dim3 grid, runtime::Dim3 workgroup,
                const KernelArguments& args, Signal completion, FenceScope acquire = FenceScope::System,
                FenceScope release = FenceScope::System);
  // The same with a ready launch configuration (geometry and argument values).
  // Returns the device address of the packet written.
  uint64_t dispatch(unsigned queue, const HostKernel& kernel, const isa::LaunchConfig& config, Signal completion,
                    FenceScope acquire = FenceScope::System, FenceScope release = FenceScope::System);
  // A barrier's scopes are None unless given: a System-scope release makes
  // whatever a kernel-boundary policy left in the caches visible to the host.
  void barrier_and(unsigned queue, const std::vector<Signal>& dependencies, Signal completion,
                   FenceScope acquire = FenceScope::None, FenceScope release = FenceScope::None);

  // Runs the simulation until `s` holds a value <= `until`.
  void wait(Signal s, int64_t until = 0);

  CommandProcessorControl& cp() { return *cp_; }
  const std::vector<DispatcherControl*>& dispatchers() const { return dispatchers_; }
  double seconds_simulating() const { return seconds_; }

 private:
  struct Queue {
    uint64_t ring = 0, descriptor = 0;
    uint32_t size = 0, write = 0;
  };
  struct Pending {  // a dispatch's device memory, released once the CP has read past its packet
    unsigned queue;
    uint32_t index;
    std::unique_ptr<isa::PreparedDispatch> prepared;
    std::unique_ptr<isa::ScopedAllocation> extra;
  };
  struct LoadedProgram {  // the image itself belongs to programs_
    std::map<std::string, HostKernel> kernels;
  };

  uint32_t reserve_slot(unsigned queue);   // waits for room; returns the packet index
  void publish(unsigned queue, uint32_t index, const void* packet64, uint16_t header);
  void run_until(const std::function<bool()>& done, const std::string& what);
  void check_faults();
  void release_finished();

  Options options_;
  const Platform& platform_;  // for the report of what is in hand when a wait cannot end
  isa::DeviceMemory& memory_;
  KernelObjectTable& kernel_objects_;
  CommandProcessorControl* cp_ = nullptr;
  std::vector<DispatcherControl*> dispatchers_;
  std::vector<uint64_t> faults_seen_;
  ProgramCache programs_;
  std::map<std::string, LoadedProgram> loaded_;
  std::vector<Queue> queues_;
  std::vector<Pending> pending_;
  std::map<uint64_t, std::unique_ptr<isa::ScopedAllocation>> signals_;
  uint64_t next_dispatch_id_ = 0;
  double seconds_ = 0;
};

}  // namespace tessera
