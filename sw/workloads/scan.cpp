// scan: inclusive prefix sum of n uints. Workgroups scan 256-element blocks in
// LDS; the block totals are scanned by the same two kernels recursively, then
// added back, so large inputs take several levels of launches.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;  // matches SCAN_GROUP in scan.cl

// Scans n uints at `in` into `out` (both device buffers of n elements).
void scan_on_device(Session& s, DevicePtr in, DevicePtr out, uint32_t n) {
  const uint32_t blocks = (n + kGroup - 1) / kGroup;
  DevicePtr block_sums = s.alloc(blocks * sizeof(uint32_t));
  s.launch("scan", "scan_block", Dim3{blocks * kGroup}, Dim3{kGroup},
           KernelArgs().pointer(in).pointer(out).pointer(block_sums).value(n));
  if (blocks == 1) return;
  DevicePtr scanned = s.alloc(blocks * sizeof(uint32_t));
  scan_on_device(s, block_sums, scanned, blocks);
  s.launch("scan", "scan_add", Dim3{blocks * kGroup}, Dim3{kGroup},
           KernelArgs().pointer(out).pointer(scanned).value(n));
}

Result run_scan(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = rng.below(1000);
  Result result;
  result.shape = "n=" + std::to_string(n);
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(in), dout = s.alloc(n * sizeof(uint32_t));
    scan_on_device(s, din, dout, uint32_t(n));
    out = s.download<uint32_t>(dout, n);
  }
  std::vector<uint32_t> want(n);
  uint32_t running = 0;
  for (size_t i = 0; i < n; ++i) want[i] = running += in[i];
  conclude(result, {make_output("prefix", out)}, {make_output("prefix", want)});
  return result;
}

// 70000 needs three levels (274 blocks, then 2, then 1).
const WorkloadRegistrar registrar{{"scan", "inclusive prefix sum of n uints: LDS block scans, recursive block totals",
                                   1u << 20, {1, 256, 1000, 70000}, run_scan}};

}  // namespace
}  // namespace tessera::workloads
