// square: c[i] = a[i]^2 + c[i], launched kSteps times over the same two
// buffers (a read-only, c read and written in place): inter-kernel reuse of
// both buffers at the same index, so on the same chiplet. Access modes are
// declared for every launch (a read-only, c read-write).
//
// Exact by construction: a and the initial c are multiples of 1/64 in [-2, 2],
// so a^2 is a multiple of 2^-12 below 4, and c stays a multiple of 2^-12 below
// 2 + 4 kSteps < 2^6: within 18 significant bits, so every step is exact,
// fused or not, and the outputs compare bit for bit.
//
// square_wrong_hint is the same program with c declared read-only: a wrong
// hint on purpose, which the hint checker (cp.check_hints) must report
// (tests/scenarios.cmake). Only hint-driven firmware reads the hint.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kSteps = 8;

Result run_square(Device& device, size_t n, uint64_t seed, AccessMode c_mode) {
  Rng rng(seed);
  std::vector<float> a(n), c0(n);
  for (auto& v : a) v = rng.dyadic(128, 64);
  for (auto& v : c0) v = rng.dyadic(128, 64);
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(kSteps) + " launches";
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), dc = s.upload(c0);
    // Element i belongs to workgroup i / kGroup: each chiplet touches its share
    // of both buffers when n is a whole number of workgroups.
    const bool shares = n % kGroup == 0;
    for (uint32_t step = 0; step < kSteps; ++step) {
      s.set_access_modes({{da, n * sizeof(float), AccessMode::ReadOnly, 0, shares},
                          {dc, n * sizeof(float), c_mode, 0, shares}});
      s.launch("square", "square", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(da).pointer(dc).value(uint32_t(n)));
    }
    c = s.download<float>(dc, n);
  }
  std::vector<float> want = c0;
  for (uint32_t step = 0; step < kSteps; ++step)
    for (size_t i = 0; i < n; ++i) want[i] = a[i] * a[i] + want[i];
  conclude(result, {make_output("c", c)}, {make_output("c", want, Tolerance{0, {}, "exact (dyadic inputs, see source)"})});
  return result;
}

const WorkloadRegistrar registrar{
    {"square", "c = a*a + c over n floats, 8 launches over the same buffers (a read-only, c in place)", 1u << 16,
     {1, 1000, 4097}, [](Device& d, size_t n, uint64_t seed) { return run_square(d, n, seed, AccessMode::ReadWrite); }}};
const WorkloadRegistrar wrong_hint_registrar{
    {"square_wrong_hint",
     "square with c declared read-only though every launch writes it: a wrong access-mode hint for cp.check_hints to "
     "report",
     1u << 16, {1, 1000, 4097},
     [](Device& d, size_t n, uint64_t seed) { return run_square(d, n, seed, AccessMode::ReadOnly); }}};

}  // namespace
}  // namespace tessera::workloads
