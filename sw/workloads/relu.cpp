// relu: out = max(in, 0). A compare and select per element; half the inputs are negative.
// relu_s<percent>: the same with that fraction of the inputs zero (input sparsity).
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;

Result run_relu(Device& device, size_t n, uint64_t seed, double sparsity) {
  Rng rng(seed);
  std::vector<float> in(n);
  for (auto& v : in) v = rng.uniform(-4.0f, 4.0f);
  zero_fraction(in, sparsity, seed);
  Result result;
  result.shape = "n=" + std::to_string(n) + (sparsity > 0 ? ", input " + zero_percent(in) : "");
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(in), dout = s.alloc(n * sizeof(float));
    s.launch("relu", "relu", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(din).pointer(dout).value(uint32_t(n)));
    out = s.download<float>(dout, n);
  }
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = in[i] > 0.0f ? in[i] : 0.0f;
  conclude(result, {make_output("out", out)}, {make_output("out", want, Tolerance{0, {}, "exact (no rounding)"})});
  return result;
}

const WorkloadRegistrar registrar{{"relu", "out = max(in, 0) over n floats", 1u << 20, {3, 1000, 65536 + 5},
                                   [](Device& d, size_t n, uint64_t seed) { return run_relu(d, n, seed, 0.0); }}};

Workload sparse_relu(int percent) {
  return Workload{"relu_s" + std::to_string(percent),
                  "relu with " + std::to_string(percent) + "% of the n inputs zero", 1u << 20, {3, 1000, 20000},
                  [percent](Device& d, size_t n, uint64_t seed) { return run_relu(d, n, seed, percent / 100.0); }};
}

const WorkloadRegistrar relu_s25{sparse_relu(25)};
const WorkloadRegistrar relu_s50{sparse_relu(50)};
const WorkloadRegistrar relu_s75{sparse_relu(75)};

}  // namespace
}  // namespace tessera::workloads
