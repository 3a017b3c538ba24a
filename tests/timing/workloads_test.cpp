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
#include "tests/mem/mem_test_support.h"
#include "tests/timing/workload_compare.h"
#include "tests/workload_list.h"

using namespace tessera;
using namespace tessera::workloads;

using namespace tessera::test;

namespace {

const std::string kSmallGpu = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";

TimingDeviceOptions small_gpu(bool functional_netlist) {
  TimingDeviceOptions o;
  o.netlist_file = kSmallGpu;
  o.kernel_dir = kKernelDir;
  o.functional = functional_netlist;
  return o;
}

void check_identical(const std::vector<std::string>& names, const TimingDeviceOptions& o) {
  FunctionalDevice reference(kKernelDir);
  TimingDevice timing(o);
  for (const std::string& name : names) {
    const Workload* w = find_workload(name);
    REQUIRE(w);
    for (size_t size : w->test_sizes) compare_run(*w, reference, timing, size, o.functional);
  }
}

// A write-back vector L1 keeps written lines dirty until they are evicted or
// written back: the kernel-end release must write the L1s back before the L2s,
// and device-wide atomics must not be applied in one CU's L1. These workloads
// have atomics (histogram, bfs), partial-line stores and launches that read
// the previous launch's results (scan, producer_consumer, stencil_iter).
void check_write_back_l1(bool direct_dispatch, bool write_allocate) {
  TimingDeviceOptions o = small_gpu(false);
  o.direct_dispatch = direct_dispatch;
  o.overrides.push_back(Override{"l1v[*]", "write_policy", "write_back", "--set l1v[*].write_policy"});
  o.overrides.push_back(Override{"l1v[*]", "write_allocate", write_allocate, "--set l1v[*].write_allocate"});
  check_identical({"histogram", "bfs", "scan", "producer_consumer", "stencil_iter", "transpose"}, o);
}

}  // namespace

// Each at every size of the suite's differential tests (docs/WORKLOADS.md).
#define TESSERA_TIMING_WORKLOAD(name)                                                           \
  TEST_CASE("timing and functional results are bit-identical: " #name, "[timing][workload]") { \
    check_identical({#name}, small_gpu(false));                                                 \
  }

TESSERA_WORKLOAD_LIST(TESSERA_TIMING_WORKLOAD)

TEST_CASE("the timing netlist in functional mode gives the results of the functional executor", "[timing][workload]") {
  // One process, one platform: several workloads in sequence on it.
  check_identical({"vector_add", "sgemm16", "histogram", "bfs"}, small_gpu(true));
}

TEST_CASE("a write-back vector L1 gives the functional executor's results (command processor)", "[timing][workload]") {
  check_write_back_l1(false, false);
}

TEST_CASE("a write-back, write-allocate vector L1 gives the functional executor's results (direct dispatch)",
          "[timing][workload]") {
  check_write_back_l1(true, true);
}

// The firmware's console of square on small_gpu, every packet traced
// (debug_flags 4), with or without cp.elision.
static std::string square_console(bool elision) {
  TimingDeviceOptions o = small_gpu(false);
  o.overrides.push_back(parse_override("cp.debug_flags=4"));
  if (elision) o.overrides.push_back(parse_override("cp.elision=true"));
  TimingDevice timing(o);
  const Workload* w = find_workload("square");
  REQUIRE(w);
  CaptureStdout out;
  const Result r = w->run(timing, 1000, 1);
  REQUIRE(r.passed);
  return out.text();
}

TEST_CASE("a workload's access modes reach the firmware ahead of each launch (Device::set_access_modes)",
          "[timing][workload]") {
  // square declares a read-only and a read-write buffer before each of its 8
  // launches; the device sends them to a CP whose netlist asks for elision.
  const std::string text = square_console(true);
  size_t packets = 0, dispatches = 0;
  for (size_t at = 0; (at = text.find(": 2 access modes\n", at)) != std::string::npos; ++at) ++packets;
  for (size_t at = 0; (at = text.find("2 access modes (1 read-only)", at)) != std::string::npos; ++at) ++dispatches;
  CHECK(packets == 8);
  CHECK(dispatches == 8);
}

TEST_CASE("without cp.elision a workload's access modes are not sent: the baseline does not pay for them",
          "[timing][workload]") {
  const std::string text = square_console(false);
  CHECK(text.find("access modes\n") == std::string::npos);
  CHECK(text.find("0 access modes (0 read-only)") != std::string::npos);
}

