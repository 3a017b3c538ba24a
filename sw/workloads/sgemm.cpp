// sgemm16 / sgemm32: C = A * B with 16 x 16 and 32 x 32 LDS tiles. The size is
// M; N and K are chosen a little off so that no dimension is a tile multiple
// unless M is.
#include <string>

#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

Result run_sgemm(Device& device, size_t size, uint64_t seed, uint32_t tile) {
  const size_t m = size, n = size + 3, k = size + 7;
  Rng rng(seed);
  std::vector<float> a(m * k), b(k * n);
  for (auto& v : a) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : b) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = "M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" + std::to_string(k) + " tile " +
                 std::to_string(tile);
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.alloc(m * n * sizeof(float));
    s.launch("sgemm", "sgemm_tile" + std::to_string(tile), Dim3{round_up(n, tile), round_up(m, tile)},
             Dim3{tile, tile},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(uint32_t(m)).value(uint32_t(n)).value(
                 uint32_t(k)));
    c = s.download<float>(dc, m * n);
  }
  conclude(result, {make_output("c", c)},
           {make_output("c", reference_gemm(a, b, m, n, k), gemm_tolerance(a, b, m, n, k))});
  return result;
}

const WorkloadRegistrar registrar16{{"sgemm16", "C = A * B (f32) with 16 x 16 LDS tiles; size is M, N = M+3, K = M+7",
                                     256, {1, 20, 64}, [](Device& d, size_t size, uint64_t seed) {
                                       return run_sgemm(d, size, seed, 16);
                                     }}};
const WorkloadRegistrar registrar32{{"sgemm32", "C = A * B (f32) with 32 x 32 LDS tiles; size is M, N = M+3, K = M+7",
                                     256, {1, 45, 64}, [](Device& d, size_t size, uint64_t seed) {
                                       return run_sgemm(d, size, seed, 32);
                                     }}};

}  // namespace
}  // namespace tessera::workloads
