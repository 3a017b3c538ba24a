// const_table: out[i] = kWeights[keys[i] & 15] * x[i], where kWeights is a
// program-scope __constant array (the code object's read-only data) and the
// product is computed in a function the kernel calls. Runs only if the loader
// has placed the read-only data next to the code and the call and return
// (s_swappc_b64, s_setpc_b64) work. One rounding: exact.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
// The kernel's table (sw/kernels/const_table.cl).
constexpr float kWeights[16] = {1.0f,    -2.5f, 0.125f, 3.0f, -0.75f, 8.0f,     0.0f, -1.0f,
                                0.3125f, 16.0f, -4.0f,  0.5f, 2.25f,  -0.0625f, 7.0f, -32.0f};

Result run_const_table(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> keys(n);
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) {
    keys[i] = rng.next_u32();
    x[i] = rng.uniform(-100.0f, 100.0f);
  }
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr dk = s.upload(keys), dx = s.upload(x), dout = s.alloc(n * sizeof(float));
    s.launch("const_table", "const_table", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(dk).pointer(dx).pointer(dout).value(uint32_t(n)));
    out = s.download<float>(dout, n);
  }
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = kWeights[keys[i] & 15] * x[i];
  conclude(result, {make_output("out", out)}, {make_output("out", want, Tolerance{0, {}, "exact (one rounding)"})});
  return result;
}

const WorkloadRegistrar registrar{{"const_table",
                                   "out = table[key & 15] * x: a program-scope __constant table read in a called "
                                   "function",
                                   1u << 20, {3, 1000, 65536 + 5}, run_const_table}};

}  // namespace
}  // namespace tessera::workloads
