// producer_consumer: a chain of four elementwise uint kernels over n elements,
// x1 = scale(x0), x2 = mix(x1), x3 = rotate(x2), x4 = fold(x3), each writing a
// new buffer. Each launch reads the previous launch's output at the same index,
// so (the grid being split the same way in every launch) on the chiplet that
// wrote it: reuse that needs no data from another chiplet, only the previous
// kernel's results to reach memory or stay in that chiplet's L2. Integer
// arithmetic, checked exactly. Compare with no_reuse, the same kernels on
// fresh buffers.
#include <string>

#include "sw/workloads/chain_stages.h"
#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

Result run_producer_consumer(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> x0(n);
  for (auto& v : x0) v = rng.next_u32();
  const auto& stages = chain::stages();
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(stages.size()) + " chained kernels";
  std::vector<std::vector<uint32_t>> got;
  {
    Session s(device, result);
    std::vector<DevicePtr> x{s.upload(x0)};
    // Element i is read and written by workgroup i / kGroup: each chiplet
    // touches its share of both buffers when n is a whole number of workgroups.
    const bool shares = n % chain::kGroup == 0;
    for (const auto& stage : stages) {
      x.push_back(s.alloc(n * sizeof(uint32_t)));
      s.set_access_modes({{x[x.size() - 2], n * sizeof(uint32_t), AccessMode::ReadOnly, 0, shares},
                          {x.back(), n * sizeof(uint32_t), AccessMode::ReadWrite, 0, shares}});
      s.launch(chain::kProgram, stage.kernel, Dim3{round_up(n, chain::kGroup)}, Dim3{chain::kGroup},
               KernelArgs().pointer(x[x.size() - 2]).pointer(x.back()).value(uint32_t(n)));
    }
    for (size_t k = 1; k < x.size(); ++k) got.push_back(s.download<uint32_t>(x[k], n));
  }
  std::vector<Output> device_outputs, reference_outputs;
  std::vector<uint32_t> want = x0;
  for (size_t k = 0; k < stages.size(); ++k) {
    for (size_t i = 0; i < n; ++i) want[i] = stages[k].reference(want[i], uint32_t(i));
    const std::string name = "x" + std::to_string(k + 1);
    device_outputs.push_back(make_output(name, got[k]));
    reference_outputs.push_back(make_output(name, want));
  }
  conclude(result, std::move(device_outputs), reference_outputs);
  return result;
}

const WorkloadRegistrar registrar{{"producer_consumer",
                                   "4 chained uint kernels, each reading the previous one's output at the same index",
                                   1u << 15, {1, 1000, 4097}, run_producer_consumer}};

}  // namespace
}  // namespace tessera::workloads
