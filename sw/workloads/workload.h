// The workload suite: host programs with CPU references, registered by name.
//
// A workload generates its inputs from a seed, runs its kernels on a Device,
// checks the outputs against its CPU reference and returns them, so that the
// outputs of two devices can also be compared with each other (see compare.h).
// Workloads register with a static registrar; the library is linked whole.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sw/runtime/device.h"

namespace tessera::workloads {

using runtime::AccessMode;
using runtime::BufferAccess;
using runtime::Device;
using runtime::DevicePtr;
using runtime::Dim3;
using runtime::KernelArgs;
using runtime::LaunchStats;

enum class ElementType { u8, i32, u32, f16, f32 };
const char* element_type_name(ElementType t);
size_t element_size(ElementType t);

// One output buffer of a run, with the rule a second result must satisfy to be
// called equal. Integers compare exactly. A float element matches when the two
// values are within `max_ulps` units in the last place of each other, or when
// |a - b| <= abs_bound[i] (if abs_bound is not empty): the bound a workload
// derives from its arithmetic (rounding-order differences, fused multiply-add).
struct Output {
  std::string name;
  ElementType type = ElementType::u32;
  std::vector<uint8_t> bytes;
  uint32_t max_ulps = 0;
  std::vector<double> abs_bound;
  std::string tolerance;  // the rule in words, printed with mismatches

  size_t count() const { return bytes.size() / element_size(type); }
};

struct Result {
  bool passed = false;
  std::string message;  // why it failed, or a one-line summary of what ran
  std::string shape;    // the problem size in the workload's own terms, e.g. "M=N=K=64"
  uint32_t launches = 0;
  LaunchStats stats;  // summed over every launch
  std::vector<Output> outputs;
};

struct Workload {
  std::string name;
  std::string doc;  // one line
  size_t default_size = 0;
  std::vector<size_t> test_sizes;  // include sizes that are not multiples of the workgroup
  std::function<Result(Device&, size_t size, uint64_t seed)> run;
};

void register_workload(Workload w);  // a duplicate name aborts
const std::vector<Workload>& workloads();  // in name order
const Workload* find_workload(const std::string& name);

struct WorkloadRegistrar {
  explicit WorkloadRegistrar(Workload w) { register_workload(std::move(w)); }
};

// Wraps a Device for one run: counts launches and sums their statistics into
// the result, and frees every allocation it made when it goes out of scope.
class Session {
 public:
  Session(Device& device, Result& result) : device_(device), result_(result) {}
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Device& device() { return device_; }

  template <class T>
  DevicePtr upload(const std::vector<T>& host) {
    DevicePtr p = alloc(host.empty() ? sizeof(T) : host.size() * sizeof(T));
    write(p, host);
    return p;
  }
  DevicePtr alloc(size_t bytes) {
    DevicePtr p = device_.alloc(bytes);
    owned_.push_back(p);
    return p;
  }
  template <class T>
  std::vector<T> download(DevicePtr p, size_t count) {
    return device_.template download<T>(p, count);
  }
  template <class T>
  void write(DevicePtr p, const std::vector<T>& host) {
    if (!host.empty()) device_.write(p, host.data(), host.size() * sizeof(T));
  }

  void launch(const std::string& program, const std::string& kernel, Dim3 global, Dim3 local,
              const KernelArgs& args);
  // Declares the next launch's buffer uses (Device::set_access_modes).
  void set_access_modes(const std::vector<BufferAccess>& buffers) { device_.set_access_modes(buffers); }

 private:
  Device& device_;
  Result& result_;
  std::vector<DevicePtr> owned_;
};

inline uint32_t round_up(uint64_t n, uint32_t multiple) {
  return uint32_t((n + multiple - 1) / multiple * multiple);
}

}  // namespace tessera::workloads
