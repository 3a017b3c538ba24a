// The device interface host programs are written against.
//
// A workload allocates device memory, copies data, launches kernels by name and
// reads results back through this interface only, so the same host program runs
// on Tessera (functional or timing, direct launch or through the command
// processor) and on PoCL, the CPU OpenCL implementation used as the
// differential-test oracle. An OpenCL 1.2 layer can sit on it later.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::runtime {

using DevicePtr = uint64_t;  // a device virtual address (0 is never a valid allocation)

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Kernel arguments in declaration order: device pointers and by-value scalars/structs.
class KernelArgs {
 public:
  struct Arg {
    bool is_pointer = false;
    DevicePtr pointer = 0;
    std::vector<uint8_t> bytes;  // by-value argument
  };

  KernelArgs& pointer(DevicePtr p) {
    Arg a;
    a.is_pointer = true;
    a.pointer = p;
    args_.push_back(std::move(a));
    return *this;
  }
  template <class T>
  KernelArgs& value(const T& v) {
    Arg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    args_.push_back(std::move(a));
    return *this;
  }
  const std::vector<Arg>& args() const { return args_; }

 private:
  std::vector<Arg> args_;
};

// What a launch cost; devices that cannot count leave fields at zero.
struct LaunchStats {
  uint64_t wave_instructions = 0;
  uint64_t waves = 0;
  uint64_t workgroups = 0;
  uint64_t cycles = 0;  // timing mode only: submission to completion
  // Timing mode only: from the first workgroup handed out to the last one
  // finished, without the command processor's work and the kernel-boundary
  // cache maintenance around the kernel.
  uint64_t kernel_cycles = 0;
};

// How the next launch uses one of its buffers: the analogue of
// hipSetAccessMode, for kernel-boundary cache policies that act per buffer.
enum class AccessMode : uint32_t { ReadOnly = 1, ReadWrite = 2 };

struct BufferAccess {
  DevicePtr base = 0;
  size_t bytes = 0;
  AccessMode mode = AccessMode::ReadWrite;
  uint32_t chiplet_mask = 0;  // chiplets that touch it (bit c for chiplet c); 0: all
  // Each chiplet touches only its share of the buffer, in proportion to the
  // workgroups it runs (an elementwise kernel); false: the whole buffer.
  bool partitioned = false;
};

// A device-side failure that the user must see: a kernel that faulted, an
// instruction not implemented, a kernel that does not exist.
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;

  virtual DevicePtr alloc(size_t bytes) = 0;
  virtual void free(DevicePtr p) = 0;
  virtual void write(DevicePtr dst, const void* src, size_t bytes) = 0;
  virtual void read(void* dst, DevicePtr src, size_t bytes) = 0;

  // Runs `kernel` from program `program` (the base name of a file in sw/kernels,
  // e.g. "vector_add") over `global` work-items in workgroups of `local`, to
  // completion. Global sizes need not be multiples of local sizes (OpenCL 2.0
  // semantics: the last workgroup is partial). Throws DeviceError on a fault.
  virtual LaunchStats launch(const std::string& program, const std::string& kernel, Dim3 global, Dim3 local,
                             const KernelArgs& args) = 0;

  // Declares how the next launch() uses its buffers. A hint only: it never
  // changes what a kernel computes. Devices whose caches need no hints ignore
  // it (the default); the timing device with a command processor sends it to
  // the firmware as an access-mode packet ahead of the next dispatch.
  virtual void set_access_modes(const std::vector<BufferAccess>& buffers) { (void)buffers; }

  // Convenience: allocate and fill / read back whole vectors.
  template <class T>
  DevicePtr upload(const std::vector<T>& host) {
    DevicePtr p = alloc(host.empty() ? sizeof(T) : host.size() * sizeof(T));
    if (!host.empty()) write(p, host.data(), host.size() * sizeof(T));
    return p;
  }
  template <class T>
  std::vector<T> download(DevicePtr p, size_t count) {
    std::vector<T> out(count);
    if (count) read(out.data(), p, count * sizeof(T));
    return out;
  }
};

}  // namespace tessera::runtime
