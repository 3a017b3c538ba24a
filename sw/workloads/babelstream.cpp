// babelstream: one pass of the BabelStream sequence over n floats —
// copy (c = a), mul (b = s c), add (c = a + b), triad (a = b + s c), dot (a . b)
// — five launches, each checked.
#include <algorithm>
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;     // matches STREAM_DOT_GROUP in babelstream.cl
constexpr uint32_t kDotGroups = 32;  // partial sums written by stream_dot
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
  std::vector<float> got_a, got_b, got_c, partial;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.upload(c);
    DevicePtr dpartial = s.alloc(kDotGroups * sizeof(float));
    const Dim3 grid{round_up(n, kGroup)}, group{kGroup};
    const uint32_t count = uint32_t(n);
    s.launch("babelstream", "stream_copy", grid, group, KernelArgs().pointer(da).pointer(dc).value(count));
    s.launch("babelstream", "stream_mul", grid, group, KernelArgs().pointer(db).pointer(dc).value(kScalar).value(count));
    s.launch("babelstream", "stream_add", grid, group, KernelArgs().pointer(da).pointer(db).pointer(dc).value(count));
    s.launch("babelstream", "stream_triad", grid, group,
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(kScalar).value(count));
    s.launch("babelstream", "stream_dot", Dim3{kDotGroups * kGroup}, group,
             KernelArgs().pointer(da).pointer(db).pointer(dpartial).value(count));
    got_a = s.download<float>(da, n);
    got_b = s.download<float>(db, n);
    got_c = s.download<float>(dc, n);
    partial = s.download<float>(dpartial, kDotGroups);
  }
  float got_dot = 0.0f;
  for (float p : partial) got_dot += p;

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
  Tolerance dot{0, {sum_error_bound(n + kDotGroups, dot_magnitude) + dot_inherited},
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
