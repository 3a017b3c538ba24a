// fir: a 31-tap FIR filter over n outputs, taps in constant memory.
// fir_s<percent>: the same with that fraction of the input samples zero.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kTaps = 31;

Result run_fir(Device& device, size_t n, uint64_t seed, double sparsity) {
  Rng rng(seed);
  std::vector<float> x(n + kTaps - 1), taps(kTaps);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : taps) v = rng.uniform(-0.25f, 0.25f);
  zero_fraction(x, sparsity, seed);
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(kTaps) + " taps" +
                 (sparsity > 0 ? ", input " + zero_percent(x) : "");
  std::vector<float> y;
  {
    Session s(device, result);
    DevicePtr dx = s.upload(x), dtaps = s.upload(taps), dy = s.alloc(n * sizeof(float));
    s.launch("fir", "fir", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(dx).pointer(dtaps).pointer(dy).value(uint32_t(n)).value(kTaps));
    y = s.download<float>(dy, n);
  }
  std::vector<float> want(n);
  Tolerance tol{0, std::vector<double>(n), "gamma(taps) * sum|h x| per output (fma)"};
  for (size_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    double magnitude = 0.0;
    for (uint32_t t = 0; t < kTaps; ++t) {
      acc += taps[t] * x[i + t];
      magnitude += std::fabs(double(taps[t]) * x[i + t]);
    }
    want[i] = acc;
    tol.abs_bound[i] = sum_error_bound(kTaps, magnitude);
  }
  conclude(result, {make_output("y", y)}, {make_output("y", want, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"fir", "31-tap FIR filter, taps in constant memory", 1u << 20,
                                   {1, 1000, 20000},
                                   [](Device& d, size_t n, uint64_t seed) { return run_fir(d, n, seed, 0.0); }}};

Workload sparse_fir(int percent) {
  return Workload{"fir_s" + std::to_string(percent),
                  "fir with " + std::to_string(percent) + "% of the input samples zero", 1u << 20, {1, 1000, 20000},
                  [percent](Device& d, size_t n, uint64_t seed) { return run_fir(d, n, seed, percent / 100.0); }};
}

const WorkloadRegistrar fir_s25{sparse_fir(25)};
const WorkloadRegistrar fir_s50{sparse_fir(50)};
const WorkloadRegistrar fir_s75{sparse_fir(75)};

}  // namespace
}  // namespace tessera::workloads
