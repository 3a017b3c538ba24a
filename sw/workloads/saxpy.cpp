// saxpy: y = alpha * x + y in place. Exercises a by-value float argument and a
// read-modify-write of the same buffer.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;

Result run_saxpy(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  const float alpha = rng.uniform(0.5f, 2.0f);
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = rng.uniform(-1.0f, 1.0f);
    y[i] = rng.uniform(-1.0f, 1.0f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<float> got;
  {
    Session s(device, result);
    DevicePtr dx = s.upload(x), dy = s.upload(y);
    s.launch("saxpy", "saxpy", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().value(alpha).pointer(dx).pointer(dy).value(uint32_t(n)));
    got = s.download<float>(dy, n);
  }
  // The compiler may contract alpha*x+y into one fma (OpenCL allows it) while
  // the CPU rounds twice, so the bound is that of a two-term sum.
  std::vector<float> want(n);
  Tolerance tol{0, std::vector<double>(n), "2 roundings of |alpha*x| + |y| (fma or not)"};
  for (size_t i = 0; i < n; ++i) {
    want[i] = alpha * x[i] + y[i];
    tol.abs_bound[i] = sum_error_bound(2, std::fabs(double(alpha) * x[i]) + std::fabs(y[i]));
  }
  conclude(result, {make_output("y", got)}, {make_output("y", want, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"saxpy", "y = alpha * x + y over n floats", 1u << 20,
                                   {1, 777, 4096, 50001}, run_saxpy}};

}  // namespace
}  // namespace tessera::workloads
