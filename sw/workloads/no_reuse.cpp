// no_reuse: the control for producer_consumer. The same four uint kernels
// (scale, mix, rotate, fold) over n elements, but kernel k reads its own
// host-written input buffer and writes its own output buffer: no data one
// kernel produces is read by another, so a kernel-boundary policy can gain
// nothing from keeping caches across launches. Checked exactly.
#include <string>

#include "sw/workloads/chain_stages.h"
#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

Result run_no_reuse(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  const auto& stages = chain::stages();
  std::vector<std::vector<uint32_t>> inputs(stages.size(), std::vector<uint32_t>(n));
  for (auto& in : inputs)
    for (auto& v : in) v = rng.next_u32();
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(stages.size()) + " independent kernels";
  std::vector<std::vector<uint32_t>> got;
  {
    Session s(device, result);
    std::vector<DevicePtr> in, out;
    for (const auto& values : inputs) in.push_back(s.upload(values));
    const bool shares = n % chain::kGroup == 0;  // each chiplet touches its share of both buffers
    for (size_t k = 0; k < stages.size(); ++k) {
      out.push_back(s.alloc(n * sizeof(uint32_t)));
      s.set_access_modes({{in[k], n * sizeof(uint32_t), AccessMode::ReadOnly, 0, shares},
                          {out[k], n * sizeof(uint32_t), AccessMode::ReadWrite, 0, shares}});
      s.launch(chain::kProgram, stages[k].kernel, Dim3{round_up(n, chain::kGroup)}, Dim3{chain::kGroup},
               KernelArgs().pointer(in[k]).pointer(out[k]).value(uint32_t(n)));
    }
    for (DevicePtr p : out) got.push_back(s.download<uint32_t>(p, n));
  }
  std::vector<Output> device_outputs, reference_outputs;
  for (size_t k = 0; k < stages.size(); ++k) {
    std::vector<uint32_t> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = stages[k].reference(inputs[k][i], uint32_t(i));
    const std::string name = "y" + std::to_string(k + 1);
    device_outputs.push_back(make_output(name, got[k]));
    reference_outputs.push_back(make_output(name, want));
  }
  conclude(result, std::move(device_outputs), reference_outputs);
  return result;
}

const WorkloadRegistrar registrar{{"no_reuse",
                                   "control: the 4 producer_consumer kernels on disjoint fresh buffers (no reuse)",
                                   1u << 15, {1, 1000, 4097}, run_no_reuse}};

}  // namespace
}  // namespace tessera::workloads
