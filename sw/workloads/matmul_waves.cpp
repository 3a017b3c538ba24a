// matmul_waves: C = A B with C of `size` rows and 64 columns and K = 256, one
// wave (a 64-wide workgroup) per row of C. The size is therefore the number of
// waves, and with it how many loads are in flight at once: a sweep over it
// goes from an idle memory system to a contended one.
#include <string>

#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kCols = 64;  // MATMUL_COLS in matmul_waves.cl
constexpr uint32_t kDepth = 256;

Result run_matmul_waves(Device& device, size_t waves, uint64_t seed) {
  const size_t m = waves, n = kCols, k = kDepth;
  Rng rng(seed);
  std::vector<float> a(m * k), b(k * n);
  for (auto& v : a) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : b) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = std::to_string(waves) + " waves: M=" + std::to_string(m) + " N=" + std::to_string(n) +
                 " K=" + std::to_string(k);
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.alloc(m * n * sizeof(float));
    s.launch("matmul_waves", "matmul_waves", Dim3{uint32_t(m) * kCols}, Dim3{kCols},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(kDepth));
    c = s.download<float>(dc, m * n);
  }
  conclude(result, {make_output("c", c)}, {make_output("c", reference_gemm(a, b, m, n, k), gemm_tolerance(a, b, m, n, k))});
  return result;
}

const WorkloadRegistrar registrar{{"matmul_waves",
                                   "C = A B, 64 columns, K=256, one wave per row of C; size is the number of waves",
                                   256, {1, 5, 40}, run_matmul_waves}};

}  // namespace
}  // namespace tessera::workloads
