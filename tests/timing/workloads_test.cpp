// Every workload of the suite gives the same bytes on the timing device
// (json/platforms/small_gpu.json: cycle-level CUs, caches holding real data,
// crossbar, DRAM) as on the functional executor, at the suite's test sizes,
// which include partial workgroups. Timing changes when things happen, never
// what is computed: the kernel-boundary cache policy must make every launch
// see the previous launches' results, and atomics must apply in the same
// order per address as far as the result depends on it (the suite's kernels
// are written so that it does not).
//
// One test case per workload (SystemC elaborates once per process, and CTest
// runs each case in its own process), plus the same netlist in functional mode.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::workloads;

using namespace tessera::test;

namespace {

const std::string kSmallGpu = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";

void check_identical(const std::vector<std::string>& names, bool functional_netlist) {
  FunctionalDevice reference(kKernelDir);
  TimingDeviceOptions o;
  o.netlist_file = kSmallGpu;
  o.kernel_dir = kKernelDir;
  o.functional = functional_netlist;
  TimingDevice timing(o);
  for (const std::string& name : names) {
    const Workload* w = find_workload(name);
    REQUIRE(w);
    for (size_t size : w->test_sizes) compare_run(*w, reference, timing, size, functional_netlist);
  }
}

}  // namespace

// Each at every size of the suite's differential tests (docs/WORKLOADS.md).
#define TESSERA_TIMING_WORKLOAD(name)                                                           \
  TEST_CASE("timing and functional results are bit-identical: " #name, "[timing][workload]") { \
    check_identical({#name}, false);                                                            \
  }

TESSERA_TIMING_WORKLOAD(vector_add)
TESSERA_TIMING_WORKLOAD(saxpy)
TESSERA_TIMING_WORKLOAD(reduction)
TESSERA_TIMING_WORKLOAD(relu)
TESSERA_TIMING_WORKLOAD(scan)
TESSERA_TIMING_WORKLOAD(sgemm16)
TESSERA_TIMING_WORKLOAD(sgemm32)
TESSERA_TIMING_WORKLOAD(mfma_gemm_f32)
TESSERA_TIMING_WORKLOAD(mfma_gemm_f16)
TESSERA_TIMING_WORKLOAD(conv2d)
TESSERA_TIMING_WORKLOAD(stencil2d)
TESSERA_TIMING_WORKLOAD(transpose)
TESSERA_TIMING_WORKLOAD(spmv)
TESSERA_TIMING_WORKLOAD(pruned_gemv_0)
TESSERA_TIMING_WORKLOAD(pruned_gemv_50)
TESSERA_TIMING_WORKLOAD(pruned_gemv_90)
TESSERA_TIMING_WORKLOAD(fir)
TESSERA_TIMING_WORKLOAD(histogram)
TESSERA_TIMING_WORKLOAD(bfs)
TESSERA_TIMING_WORKLOAD(babelstream)
TESSERA_TIMING_WORKLOAD(nbody)
TESSERA_TIMING_WORKLOAD(kmeans)
TESSERA_TIMING_WORKLOAD(babelstream_iter)
TESSERA_TIMING_WORKLOAD(stencil_iter)
TESSERA_TIMING_WORKLOAD(producer_consumer)
TESSERA_TIMING_WORKLOAD(permuted_consumer)
TESSERA_TIMING_WORKLOAD(no_reuse)

TEST_CASE("the timing netlist in functional mode gives the results of the functional executor", "[timing][workload]") {
  // One process, one platform: several workloads in sequence on it.
  check_identical({"vector_add", "sgemm16", "histogram", "bfs"}, true);
}

TEST_CASE("every workload of the suite has a timing test case", "[timing][workload]") {
  // Keeps the list above complete: a new workload must be added there.
  const std::vector<std::string> listed = {
      "vector_add",    "saxpy",         "reduction",     "relu",           "scan",           "sgemm16",
      "sgemm32",       "mfma_gemm_f32", "mfma_gemm_f16", "conv2d",         "stencil2d",      "transpose",
      "spmv",          "pruned_gemv_0", "pruned_gemv_50", "pruned_gemv_90", "fir",           "histogram",
      "bfs",           "babelstream",   "nbody",         "kmeans",
      "babelstream_iter", "stencil_iter", "producer_consumer", "permuted_consumer", "no_reuse"};
  std::vector<std::string> registered;
  for (const auto& w : tessera::workloads::workloads()) registered.push_back(w.name);
  std::vector<std::string> sorted = listed;
  std::sort(sorted.begin(), sorted.end());
  std::sort(registered.begin(), registered.end());
  CHECK(sorted == registered);
}
