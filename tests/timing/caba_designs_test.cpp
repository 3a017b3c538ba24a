// BDI compression changes when data move, never what they are (docs/CABA.md):
// on small_gpu, each compression design gives the functional executor's bytes
// for the compressible workloads, SpMV, BFS and the histogram's atomics, at
// the suite's test sizes. One test case per design (one process each).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "tests/timing/workload_compare.h"

namespace {

// Runs the workloads on small_gpu with `set` (path = value) against the functional executor.
void check_design(const std::vector<std::pair<std::string, std::string>>& set) {
  using namespace tessera;
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";
  o.kernel_dir = test::kKernelDir;
  for (const auto& [path, value] : set) {
    const size_t dot = path.rfind('.');
    o.overrides.push_back(Override{path.substr(0, dot), path.substr(dot + 1), value, "--set " + path});
  }
  FunctionalDevice reference(test::kKernelDir);
  TimingDevice timing(o);
  for (const char* name : {"caba_narrow", "caba_zeros", "caba_index", "caba_smooth", "spmv", "bfs", "histogram"}) {
    const workloads::Workload* w = workloads::find_workload(name);
    REQUIRE(w);
    for (size_t size : w->test_sizes) test::compare_run(*w, reference, timing, size, false);
  }
}

}  // namespace

TEST_CASE("caba designs give the functional executor's bytes: hw_bdi_mem", "[timing][caba]") {
  check_design({{"dram[*].compression", "memory"}});
}

TEST_CASE("caba designs give the functional executor's bytes: hw_bdi", "[timing][caba]") {
  check_design({{"dram[*].compression", "hierarchy"}, {"l2[*].compression", "hold"},
                {"l1v[*].compression", "hardware"}});
}

TEST_CASE("caba designs give the functional executor's bytes: caba (memory side)", "[timing][caba]") {
  check_design({{"dram[*].compression", "hierarchy"}, {"l2[*].compression", "hold"}, {"l1v[*].compression", "cu"}});
}
