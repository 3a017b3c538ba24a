// vector_add: c = a + b. The simplest kernel: one global load pair, one add,
// one store per work-item, and the bounds guard of a rounded-up grid.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;

Result run_vector_add(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = rng.uniform(-1.0f, 1.0f);
    b[i] = rng.uniform(-1.0f, 1.0f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.alloc(n * sizeof(float));
    s.launch("vector_add", "vector_add", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(uint32_t(n)));
    c = s.download<float>(dc, n);
  }
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  // One IEEE addition, correctly rounded everywhere: bit-exact.
  conclude(result, {make_output("c", c)}, {make_output("c", want, Tolerance{0, {}, "exact (one rounded add)"})});
  return result;
}

const WorkloadRegistrar registrar{{"vector_add", "c = a + b over n floats", 1u << 20,
                                   {1, 1000, 4096, 65537}, run_vector_add}};

}  // namespace
}  // namespace tessera::workloads
