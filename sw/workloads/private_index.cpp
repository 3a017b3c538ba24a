// private_index: each work-item loads 16 floats into a private array, then
// a[w] = -a[w + 5] and out = a[r] - a[r + 1] (indices mod 16), with w and r
// kernel arguments: the same for every work-item, so clang keeps the array in
// VGPRs and indexes it through M0 (s_set_gpr_idx_on / s_set_gpr_idx_off).
// Two launches: one reads the element just written, one reads others.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 128;
constexpr unsigned kElems = 16;

std::vector<float> reference(const std::vector<float>& in, size_t n, int w, int r) {
  std::vector<float> out(n);
  for (size_t i = 0; i < n; ++i) {
    float a[kElems];
    for (unsigned e = 0; e < kElems; ++e) a[e] = in[i * kElems + e];
    a[w & 15] = -a[(w + 5) & 15];
    out[i] = a[r & 15] - a[(r + 1) & 15];
  }
  return out;
}

Result run_private_index(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> in(n * kElems);
  for (auto& v : in) v = rng.uniform(-8.0f, 8.0f);
  const int w = int(rng.below(kElems));
  const int pairs[2][2] = {{w, w}, {w + 3, w + 9}};
  Result result;
  result.shape = "n=" + std::to_string(n) + ", w=" + std::to_string(w);
  std::vector<float> out[2];
  {
    Session s(device, result);
    DevicePtr din = s.upload(in), dout = s.alloc(n * sizeof(float));
    for (int l = 0; l < 2; ++l) {
      s.launch("private_index", "private_index", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(din).pointer(dout).value(uint32_t(n)).value(int32_t(pairs[l][0])).value(
                   int32_t(pairs[l][1])));
      out[l] = s.download<float>(dout, n);
    }
  }
  const Tolerance exact{0, {}, "exact (one rounding)"};
  conclude(result, {make_output("read_written", out[0]), make_output("read_others", out[1])},
           {make_output("read_written", reference(in, n, pairs[0][0], pairs[0][1]), exact),
            make_output("read_others", reference(in, n, pairs[1][0], pairs[1][1]), exact)});
  return result;
}

const WorkloadRegistrar registrar{{"private_index",
                                   "a private array indexed by kernel arguments (M0-indexed VGPR access)", 1u << 18,
                                   {3, 1000, 8192 + 5}, run_private_index}};

}  // namespace
}  // namespace tessera::workloads
