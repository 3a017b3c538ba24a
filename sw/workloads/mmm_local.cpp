// mmm_local: C = A B with the AMD APP SDK's MatrixMultiplication kernel shape
// (A in local memory, a 4 x 4 block of C per work-item, four float4 loads of
// B per step of K issued before their use; sw/kernels/mmm_local.cl), the
// matrix multiply of the LazyGPU paper's wavefront sweep. N = 1024 and
// K = 256, so B is 1 MiB (half of r9_nano's L2) and every wave streams a
// 64-column slice of it; C has `size` rows rounded up to 64. A wave computes
// 16 rows x 64 columns, so the size is also the number of waves.
#include <string>

#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kBlock = 16;  // MMM_BLOCK in mmm_local.cl
constexpr uint32_t kTile = 4;    // MMM_TILE
constexpr uint32_t kCols = 1024;
constexpr uint32_t kDepth = 256;

Result run_mmm_local(Device& device, size_t size, uint64_t seed) {
  const size_t m = round_up(size == 0 ? 1 : size, kBlock * kTile), n = kCols, k = kDepth;
  Rng rng(seed);
  std::vector<float> a(m * k), b(k * n);
  for (auto& v : a) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : b) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = std::to_string(m) + " waves: M=" + std::to_string(m) + " N=" + std::to_string(n) +
                 " K=" + std::to_string(k);
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.alloc(m * n * sizeof(float));
    s.launch("mmm_local", "mmm_local", Dim3{uint32_t(n / kTile), uint32_t(m / kTile)}, Dim3{kBlock, kBlock},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(kDepth));
    c = s.download<float>(dc, m * n);
  }
  conclude(result, {make_output("c", c)}, {make_output("c", reference_gemm(a, b, m, n, k), gemm_tolerance(a, b, m, n, k))});
  return result;
}

const WorkloadRegistrar registrar{{"mmm_local",
                                   "C = A B, SDK mmmKernel_local shape (A in LDS, 4x4 per work-item, float4 B loads "
                                   "ahead of use), N=1024, K=256; size is rows of C (and waves), rounded up to 64",
                                   2048, {1, 70}, run_mmm_local}};

}  // namespace
}  // namespace tessera::workloads
