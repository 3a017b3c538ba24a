// babelstream: one pass of the BabelStream sequence over n floats —
// copy (c = a), mul (b = s c), add (c = a + b), triad (a = b + s c), dot (a . b)
// — five launches, each checked.
#include <algorithm>
#include <cmath>
#include <string>

#include "sw/workloads/babelstream_device.h"
#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr float kScalar = 0.4f;      // BabelStream's startScalar

Result run_babelstream(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = rng.uniform(0.05f, 0.15f);
    b[i] = rng.uniform(0.15f, 0.25f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n);
  const BabelstreamArrays got = run_babelstream_kernels(device, result, {a, b, c}, kScalar, 1);
  const std::vector<float>& got_a = got.a, &got_b = got.b, &got_c = got.c;
  const float got_dot = got.dot;

  // copy, mul and add are single correctly rounded operations on exact inputs:
  // bit-exact. triad may be fused into an fma; dot sums n products in another
  // order and inherits triad's difference in a.
  std::vector<float> want_c = a, want_b(n), want_a(n);
  Tolerance triad{0, std::vector<double>(n), "2 roundings of |b| + |s c| (fma or not)"};
  for (size_t i = 0; i < n; ++i) want_b[i] = kScalar * want_c[i];
  for (size_t i = 0; i < n; ++i) want_c[i] = a[i] + want_b[i];
  double dot_magnitude = 0.0, dot_inherited = 0.0;
  float want_dot = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    want_a[i] = want_b[i] + kScalar * want_c[i];
    triad.abs_bound[i] = sum_error_bound(2, std::fabs(want_b[i]) + std::fabs(double(kScalar) * want_c[i]));
    want_dot += want_a[i] * want_b[i];
    dot_magnitude += std::fabs(double(want_a[i]) * want_b[i]);
    dot_inherited += triad.abs_bound[i] * std::fabs(want_b[i]);
  }
  Tolerance dot{0, {sum_error_bound(n + kBabelstreamDotGroups, dot_magnitude) + dot_inherited},
                "gamma(n) * sum|a b| + triad's bound carried through"};
  conclude(result,
           {make_output("a", got_a), make_output("b", got_b), make_output("c", got_c),
            make_output("dot", std::vector<float>{got_dot})},
           {make_output("a", want_a, triad), make_output("b", want_b, Tolerance{0, {}, "exact (one rounded mul)"}),
            make_output("c", want_c, Tolerance{0, {}, "exact (one rounded add)"}),
            make_output("dot", std::vector<float>{want_dot}, dot)});
  return result;
}

const WorkloadRegistrar registrar{{"babelstream", "BabelStream copy, mul, add, triad, dot over n floats", 1u << 20,
                                   {1, 1000, 70001}, run_babelstream}};

}  // namespace
}  // namespace tessera::workloads
