// mfma_gemm_f32 / mfma_gemm_f16: C = A * B on the matrix cores, one wave per
// 32 x 32 tile of C. On PoCL the same kernels run their plain OpenCL C twin
// (see mfma_gemm.cl), which writes C through the same lane layout.
//
// Inputs are multiples of 1/64 in [-2, 2]: exactly representable in f16 and
// f32, every product is a multiple of 2^-12 below 4 in magnitude, and every
// partial sum of at most K <= 1024 such products stays below 2^12 on a grid of
// 2^-12, i.e. within 24 significant bits. So every accumulation order gives the
// exact product, and the outputs are compared bit for bit.
#include <cstdint>
#include <string>

#include "sw/workloads/half.h"
#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kWave = 64;
constexpr uint32_t kTile = 32;
constexpr size_t kMaxExactK = 1024;

Result run_mfma_gemm(Device& device, size_t size, uint64_t seed, bool f16) {
  const size_t m = size, n = size + 5, k = size + 3;
  Result result;
  if (k > kMaxExactK) {
    result.message = "K=" + std::to_string(k) + " exceeds " + std::to_string(kMaxExactK) +
                     ", beyond which the exact-result argument for this workload does not hold";
    return result;
  }
  Rng rng(seed);
  std::vector<float> a(m * k), b(k * n);
  for (auto& v : a) v = rng.dyadic(128, 64);
  for (auto& v : b) v = rng.dyadic(128, 64);
  result.shape = "M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" + std::to_string(k) +
                 (f16 ? " f16 inputs" : " f32 inputs");
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da, db;
    if (f16) {
      std::vector<uint16_t> ah(a.size()), bh(b.size());
      for (size_t i = 0; i < a.size(); ++i) ah[i] = float_to_half(a[i]);
      for (size_t i = 0; i < b.size(); ++i) bh[i] = float_to_half(b[i]);
      da = s.upload(ah);
      db = s.upload(bh);
    } else {
      da = s.upload(a);
      db = s.upload(b);
    }
    DevicePtr dc = s.alloc(m * n * sizeof(float));
    const uint32_t tiles_x = uint32_t((n + kTile - 1) / kTile), tiles_y = uint32_t((m + kTile - 1) / kTile);
    s.launch("mfma_gemm", f16 ? "mfma_gemm_f16" : "mfma_gemm_f32", Dim3{tiles_x * kWave, tiles_y}, Dim3{kWave, 1},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(uint32_t(m)).value(uint32_t(n)).value(
                 uint32_t(k)));
    c = s.download<float>(dc, m * n);
  }
  conclude(result, {make_output("c", c)},
           {make_output("c", reference_gemm(a, b, m, n, k), Tolerance{0, {}, "exact (dyadic inputs, see source)"})});
  return result;
}

const WorkloadRegistrar registrar_f32{
    {"mfma_gemm_f32", "C = A * B with v_mfma_f32_32x32x2f32, one wave per 32x32 tile; size is M", 256, {1, 40, 70},
     [](Device& d, size_t size, uint64_t seed) { return run_mfma_gemm(d, size, seed, false); }}};
const WorkloadRegistrar registrar_f16{
    {"mfma_gemm_f16", "C = A * B (f16 in, f32 out) with v_mfma_f32_32x32x8f16, one wave per 32x32 tile; size is M",
     256, {1, 40, 70}, [](Device& d, size_t size, uint64_t seed) { return run_mfma_gemm(d, size, seed, true); }}};

}  // namespace
}  // namespace tessera::workloads
