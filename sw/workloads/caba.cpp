// CABA's workloads (docs/CABA.md): memory-bound kernels over the data BDI
// compresses in the paper's applications, each with a CPU reference, and two
// controls:
//   caba_narrow    c = a + b over small integers that drift slowly (counters,
//                  labels, quantised values): base4-delta1 lines
//   caba_zeros     c = a + b over buffers that are 90 % zero runs (sparse
//                  data, padding): zero lines
//   caba_index     out = x[idx], idx sorted and close together (a CSR column
//                  array): base4-delta1/delta2 index lines
//   caba_smooth    out = a * s + b over slowly varying floats (a sensor
//                  signal): base4-delta1/delta2 lines
//   caba_random    caba_narrow's kernel over random 32-bit integers, its
//                  output buffer random before the kernel too: nothing
//                  compresses (the control)
//   caba_compute   256 dependent integer multiply-adds per narrow input
//                  element: compute-bound (the other control)
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;

// Small values that drift: within a 64-value stretch they stay inside a byte
// of each other, as counters and quantised measurements do.
std::vector<uint32_t> narrow_values(Rng& rng, size_t n) {
  std::vector<uint32_t> v(n);
  uint32_t level = 1000;
  for (size_t i = 0; i < n; ++i) {
    if (i % 64 == 0) level = 1000 + rng.below(100000);
    v[i] = level + rng.below(100);
  }
  return v;
}

// Runs of zeros with a few non-zero stretches: 9 of every 10 lines' worth of
// 32 values are zero.
std::vector<uint32_t> zero_heavy_values(Rng& rng, size_t n) {
  std::vector<uint32_t> v(n, 0);
  for (size_t i = 0; i < n; i += 32)
    if (rng.below(10) == 0)
      for (size_t j = i; j < i + 32 && j < n; ++j) v[j] = rng.next_u32();
  return v;
}

std::vector<uint32_t> random_values(Rng& rng, size_t n) {
  std::vector<uint32_t> v(n);
  for (uint32_t& x : v) x = rng.next_u32();
  return v;
}

// `c_before`: what c holds before the kernel overwrites it (empty: the zeros
// of a fresh allocation). The levels that fetch a line before a partial write
// to it read these bytes, so an incompressible control needs them random too.
Result run_add(Device& device, size_t n, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
               const std::vector<uint32_t>& c_before, const std::string& data) {
  Result result;
  result.shape = "n=" + std::to_string(n) + " " + data;
  std::vector<uint32_t> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b);
    DevicePtr dc = c_before.empty() ? s.alloc(n * sizeof(uint32_t)) : s.upload(c_before);
    s.launch("caba", "caba_add_u32", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(uint32_t(n)));
    c = s.download<uint32_t>(dc, n);
  }
  std::vector<uint32_t> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  conclude(result, {make_output("c", c)}, {make_output("c", want)});
  return result;
}

Result run_narrow(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> a = narrow_values(rng, n), b = narrow_values(rng, n);
  return run_add(device, n, a, b, {}, "narrow integers");
}

Result run_zeros(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> a = zero_heavy_values(rng, n), b = zero_heavy_values(rng, n);
  return run_add(device, n, a, b, {}, "zero-heavy");
}

Result run_random(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> a = random_values(rng, n), b = random_values(rng, n), c_before = random_values(rng, n);
  return run_add(device, n, a, b, c_before, "random");
}

Result run_index(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  // Sorted column indices with small gaps, as in the rows of a banded sparse matrix.
  std::vector<uint32_t> idx(n);
  uint32_t col = 0;
  for (size_t i = 0; i < n; ++i) {
    col += rng.below(3);
    idx[i] = col;
  }
  std::vector<float> x(size_t{col} + 1);
  for (float& v : x) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = "n=" + std::to_string(n) + " sorted indices";
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr didx = s.upload(idx), dx = s.upload(x), dout = s.alloc(n * sizeof(float));
    s.launch("caba", "caba_gather", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(didx).pointer(dx).pointer(dout).value(uint32_t(n)));
    out = s.download<float>(dout, n);
  }
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = x[idx[i]];
  conclude(result, {make_output("out", out)}, {make_output("out", want, Tolerance{0, {}, "exact (a copy)"})});
  return result;
}

// A slowly varying signal: neighbours a few units in the last place apart.
std::vector<float> smooth_values(Rng& rng, size_t n) {
  std::vector<float> v(n);
  float level = 100.0f;
  for (size_t i = 0; i < n; ++i) {
    if (i % 64 == 0) level = rng.uniform(64.0f, 127.0f);
    v[i] = level + float(rng.below(64)) * 0x1p-17f;
  }
  return v;
}

Result run_smooth(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> a = smooth_values(rng, n), b = smooth_values(rng, n);
  const float scale = 0.5f;  // exact: the result keeps the inputs' smoothness
  Result result;
  result.shape = "n=" + std::to_string(n) + " slowly varying floats";
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dout = s.alloc(n * sizeof(float));
    s.launch("caba", "caba_axpy", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(da).pointer(db).pointer(dout).value(scale).value(uint32_t(n)));
    out = s.download<float>(dout, n);
  }
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] * scale + b[i];
  // a * 0.5 is exact, so one rounded add (or one fused multiply-add) gives the same bits.
  conclude(result, {make_output("out", out)}, {make_output("out", want, Tolerance{0, {}, "exact (one rounding)"})});
  return result;
}

constexpr uint32_t kComputeIters = 256;

Result run_compute(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> a = narrow_values(rng, n);
  Result result;
  result.shape = "n=" + std::to_string(n) + " iters=" + std::to_string(kComputeIters);
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), dout = s.alloc(n * sizeof(uint32_t));
    s.launch("caba", "caba_compute", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(da).pointer(dout).value(kComputeIters).value(uint32_t(n)));
    out = s.download<uint32_t>(dout, n);
  }
  std::vector<uint32_t> want(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t v = a[i];
    for (uint32_t k = 0; k < kComputeIters; ++k) v = v * 1664525u + 1013904223u + k;
    want[i] = v;
  }
  conclude(result, {make_output("out", out)}, {make_output("out", want)});
  return result;
}

const std::vector<size_t> kTestSizes{1, 1000, 4096, 65537};
const WorkloadRegistrar reg_narrow{{"caba_narrow", "c = a + b over slowly drifting small integers (BDI base4-delta1)",
                                1u << 20, kTestSizes, run_narrow}};
const WorkloadRegistrar reg_zeros{{"caba_zeros", "c = a + b over buffers 90 % zero (BDI zero lines)", 1u << 20,
                               kTestSizes, run_zeros}};
const WorkloadRegistrar reg_index{{"caba_index", "out = x[idx] through sorted, close column indices (CSR-like)",
                               1u << 20, kTestSizes, run_index}};
const WorkloadRegistrar reg_smooth{{"caba_smooth", "out = a * 0.5 + b over slowly varying floats", 1u << 20,
                                kTestSizes, run_smooth}};
const WorkloadRegistrar reg_random{{"caba_random", "caba_narrow's kernel over random integers (incompressible control)",
                                1u << 20, kTestSizes, run_random}};
const WorkloadRegistrar reg_compute{{"caba_compute", "256 dependent multiply-adds per narrow integer (compute-bound "
                                 "control)",
                                 1u << 18, kTestSizes, run_compute}};

}  // namespace
}  // namespace tessera::workloads
