// histogram: n values into 256 bins with global atomic increments. Half the
// values fall in 4 hot bins, so many lanes of a wave update the same address.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kBins = 256;

Result run_histogram(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> data(n);
  for (auto& v : data) v = rng.chance(0.5) ? 17 * rng.below(4) : rng.next_u32();
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(kBins) + " bins";
  std::vector<uint32_t> bins;
  {
    Session s(device, result);
    DevicePtr ddata = s.upload(data), dbins = s.upload(std::vector<uint32_t>(kBins, 0));
    s.launch("histogram", "histogram", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(ddata).pointer(dbins).value(uint32_t(n)).value(kBins));
    bins = s.download<uint32_t>(dbins, kBins);
  }
  std::vector<uint32_t> want(kBins, 0);
  for (uint32_t v : data) ++want[v % kBins];
  conclude(result, {make_output("bins", bins)}, {make_output("bins", want)});
  return result;
}

const WorkloadRegistrar registrar{{"histogram", "256-bin histogram with global atomic_inc, skewed input", 1u << 20,
                                   {1, 1000, 50001}, run_histogram}};

}  // namespace
}  // namespace tessera::workloads
