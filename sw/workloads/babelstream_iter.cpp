// babelstream_iter: the BabelStream sequence copy (c = a), mul (b = s c),
// add (c = a + b), triad (a = b + s c) repeated for four iterations over the
// same three arrays of n floats, then one dot (a . b): 17 launches. Every
// kernel after the first reads what the previous one wrote, at the same index,
// so on the same chiplet (the grid is split the same way in every launch);
// only dot's grid-strided loop reads across chiplets.
//
// The scalar is 1/2 rather than BabelStream's 0.4 so that the iterations stay
// bit-exact: s c is exact, so mul is exact, add is one rounded addition and
// triad is one rounded addition whether or not it is fused into an fma. The
// arrays grow by 5/4 per iteration (a' = b + s c = a/2 + 3a/4), far from
// overflow and denormals.
#include <cmath>
#include <string>

#include "sw/workloads/babelstream_device.h"
#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr float kScalar = 0.5f;
constexpr int kIterations = 4;

Result run_babelstream_iter(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = rng.uniform(0.05f, 0.15f);
    b[i] = rng.uniform(0.15f, 0.25f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(kIterations) + " iterations";
  const BabelstreamArrays got = run_babelstream_kernels(device, result, {a, b, c}, kScalar, kIterations, true);
  const std::vector<float>& got_a = got.a, &got_b = got.b, &got_c = got.c;
  const float got_dot = got.dot;

  // The same sequence on the CPU; with s = 1/2 every step is bit-exact (above).
  std::vector<float> want_a = a, want_b = b, want_c = c;
  for (int it = 0; it < kIterations; ++it) {
    for (size_t i = 0; i < n; ++i) want_c[i] = want_a[i];
    for (size_t i = 0; i < n; ++i) want_b[i] = kScalar * want_c[i];
    for (size_t i = 0; i < n; ++i) want_c[i] = want_a[i] + want_b[i];
    for (size_t i = 0; i < n; ++i) want_a[i] = want_b[i] + kScalar * want_c[i];
  }
  // dot sums n products in another order (babelstream's rule); a and b are
  // exact here, so no bound is inherited from triad.
  double dot_magnitude = 0.0;
  float want_dot = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    want_dot += want_a[i] * want_b[i];
    dot_magnitude += std::fabs(double(want_a[i]) * want_b[i]);
  }
  Tolerance dot{0, {sum_error_bound(n + kBabelstreamDotGroups, dot_magnitude)}, "gamma(n) * sum|a b|"};
  const Tolerance exact{0, {}, "exact (s = 1/2: exact products, one rounded add per step)"};
  conclude(result,
           {make_output("a", got_a), make_output("b", got_b), make_output("c", got_c),
            make_output("dot", std::vector<float>{got_dot})},
           {make_output("a", want_a, exact), make_output("b", want_b, exact), make_output("c", want_c, exact),
            make_output("dot", std::vector<float>{want_dot}, dot)});
  return result;
}

const WorkloadRegistrar registrar{{"babelstream_iter",
                                   "BabelStream copy, mul, add, triad x4 over the same n floats, then dot", 1u << 15,
                                   {1, 1000, 4097}, run_babelstream_iter}};

}  // namespace
}  // namespace tessera::workloads
