// reduction: the sum of n floats by workgroup tree reductions in LDS with
// barriers, relaunched on the partial sums until one value remains.
#include <algorithm>
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;     // matches REDUCTION_GROUP in reduction.cl
constexpr uint32_t kMaxGroups = 64;  // each work-item first sums a grid-strided slice

Result run_reduction(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> in(n);
  for (auto& v : in) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<float> got;
  {
    Session s(device, result);
    DevicePtr src = s.upload(in);
    uint32_t count = uint32_t(n);
    // Two partial buffers used in turn: a pass never reads what it writes.
    DevicePtr partial[2] = {s.alloc(kMaxGroups * sizeof(float)), s.alloc(kMaxGroups * sizeof(float))};
    int pass = 0;
    do {
      uint32_t groups = std::min(kMaxGroups, (count + kGroup - 1) / kGroup);
      s.launch("reduction", "reduce_sum", Dim3{groups * kGroup}, Dim3{kGroup},
               KernelArgs().pointer(src).pointer(partial[pass]).value(count));
      src = partial[pass];
      pass ^= 1;
      count = groups;
    } while (count > 1);
    got = s.download<float>(src, 1);
  }
  double magnitude = 0.0;
  float sum = 0.0f;
  for (float v : in) {
    sum += v;
    magnitude += std::fabs(v);
  }
  // Any summation order is within gamma(n) * sum|x| of the exact sum.
  Tolerance tol{0, {sum_error_bound(n, magnitude)}, "gamma(n) * sum|x| (summation order)"};
  conclude(result, {make_output("sum", got)}, {make_output("sum", std::vector<float>{sum}, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"reduction", "sum of n floats: LDS tree per workgroup, relaunched on partials",
                                   1u << 20, {1, 255, 4096, 100000}, run_reduction}};

}  // namespace
}  // namespace tessera::workloads
