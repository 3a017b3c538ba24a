// pruned_gemm_<percent> (0, 20, 40, 60): the prefill of one pruned LLM layer,
// Y = W X over a batch of tokens (pruned_gemm.cl). W has `size` rows (output
// features) and kIns columns, and in every row the given fraction of the
// smallest-magnitude weights is zero (per-row magnitude pruning, as
// pruned_gemv_<percent>); X holds kTokens tokens' activations, feature-major.
// A wave computes one output feature for 64 tokens, so each weight is one
// scalar for the wave and each activation load a coalesced 256 B: a zero
// weight makes the wave's whole activation load unneeded, where in the GEMVs
// it makes one word of a line unneeded.
// pruned_gemm_unrolled_<percent> (0, 20, 40, 60): the same layer by the same
// dense code unrolled by 8 (pruned_gemm_unrolled.cl), as a library kernel is.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;     // matches reqd_work_group_size in pruned_gemm.cl
// Tokens of the batch: 16 workgroups per output feature, and X (1040 x 1024
// floats, 4.26 MB) twice r9_nano's L2, so the waves that share a token block
// reuse its activations from the L2 only while they stay close in the inputs.
constexpr size_t kTokens = 1024;
// W's columns: 1024 (a quarter of LLaMA-7B's hidden size 4096, for simulation
// time) plus one 64 B line, so that the rows the waves stream at once start in
// different sets of the scalar cache instead of all aliasing to one (a 4 KiB
// row stride), as a padded leading dimension.
constexpr size_t kIns = 1024 + 16;
static_assert(kIns % 8 == 0, "pruned_gemm_unrolled.cl reads 8 weights per step and has no tail");

// `kernel` is pruned_gemm (one weight per loop iteration) or
// pruned_gemm_unrolled (8 per step, the activation loads ahead of the FMAs).
Result run_pruned_gemm(Device& device, const std::string& kernel, size_t outs, uint64_t seed, double sparsity) {
  Rng rng(seed);
  std::vector<float> w(outs * kIns), xt(kIns * kTokens);
  for (auto& v : w) v = rng.uniform(-0.1f, 0.1f);
  for (auto& v : xt) v = rng.uniform(-1.0f, 1.0f);
  prune_rows(w, outs, kIns, sparsity);
  Result result;
  result.shape = std::to_string(outs) + "x" + std::to_string(kIns) + " weights (" + zero_percent(w) + "), " +
                 std::to_string(kTokens) + " tokens";
  std::vector<float> yt;
  {
    Session s(device, result);
    DevicePtr dw = s.upload(w), dx = s.upload(xt), dy = s.alloc(outs * kTokens * sizeof(float));
    s.launch(kernel, kernel, Dim3{round_up(kTokens, kGroup), uint32_t(outs)}, Dim3{kGroup, 1},
             KernelArgs().pointer(dw).pointer(dx).pointer(dy).value(uint32_t(kTokens)).value(uint32_t(kIns)));
    yt = s.download<float>(dy, outs * kTokens);
  }
  // Y = W X: W is outs x kIns, X (stored kIns x kTokens) the right factor.
  const std::vector<float> want = reference_gemm(w, xt, outs, kTokens, kIns);
  const Tolerance tol = gemm_tolerance(w, xt, outs, kTokens, kIns);
  conclude(result, {make_output("y", yt)}, {make_output("y", want, tol)});
  return result;
}

Workload pruned_gemm_workload(const std::string& kernel, int percent) {
  const std::string what = kernel == "pruned_gemm_unrolled"
                               ? "pruned LLM-layer prefill GEMM by dense code unrolled by 8 (8 activation loads per "
                                 "wave before the first FMA), "
                               : "pruned LLM-layer prefill GEMM by dense code (a wave is one output feature of 64 "
                                 "tokens), ";
  return Workload{kernel + "_" + std::to_string(percent),
                  what + std::to_string(percent) + "% of each row's weights zeroed by magnitude; size is output " +
                      "features, " + std::to_string(kIns) + " inputs, " + std::to_string(kTokens) + " tokens",
                  256,
                  {1, 3},
                  [kernel, percent](Device& d, size_t size, uint64_t seed) {
                    return run_pruned_gemm(d, kernel, size, seed, percent / 100.0);
                  }};
}

const WorkloadRegistrar gemm_0{pruned_gemm_workload("pruned_gemm", 0)};
const WorkloadRegistrar gemm_20{pruned_gemm_workload("pruned_gemm", 20)};
const WorkloadRegistrar gemm_40{pruned_gemm_workload("pruned_gemm", 40)};
const WorkloadRegistrar gemm_60{pruned_gemm_workload("pruned_gemm", 60)};
const WorkloadRegistrar unrolled_0{pruned_gemm_workload("pruned_gemm_unrolled", 0)};
const WorkloadRegistrar unrolled_20{pruned_gemm_workload("pruned_gemm_unrolled", 20)};
const WorkloadRegistrar unrolled_40{pruned_gemm_workload("pruned_gemm_unrolled", 40)};
const WorkloadRegistrar unrolled_60{pruned_gemm_workload("pruned_gemm_unrolled", 60)};

}  // namespace
}  // namespace tessera::workloads
