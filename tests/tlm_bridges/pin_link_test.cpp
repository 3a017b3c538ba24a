// The pin-level links of a netlist (axi_link, vr_link): workloads give the
// functional executor's bytes on tests/netlists/timing/small_gpu_pin_links.json,
// small_gpu with an AXI4 hop under one L2 slice and a valid/ready hop under
// the other, both protocol checkers on (a violation fails the run, so the
// comparison fails too). At sizes that send thousands of lines through each hop.
#include <catch2/catch.hpp>

#include <string>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::test;

namespace {

void check_on_pin_links(const std::string& name, size_t size) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/tests/netlists/timing/small_gpu_pin_links.json";
  o.kernel_dir = kKernelDir;
  FunctionalDevice reference(kKernelDir);
  TimingDevice timing(o);
  const workloads::Workload* w = workloads::find_workload(name);
  REQUIRE(w);
  compare_run(*w, reference, timing, size, false);
}

}  // namespace

#define TESSERA_PIN_LINK_WORKLOAD(name, size)                                                          \
  TEST_CASE("pin links: small_gpu with AXI4 and valid/ready hops gives the executor's bytes: " #name, \
            "[axi][vr][workload]") {                                                                   \
    check_on_pin_links(#name, size);                                                                   \
  }

// Streams, atomics, LDS tiles, irregular reads, several launches.
TESSERA_PIN_LINK_WORKLOAD(vector_add, 16384)
TESSERA_PIN_LINK_WORKLOAD(histogram, 16384)
TESSERA_PIN_LINK_WORKLOAD(sgemm16, 64)
TESSERA_PIN_LINK_WORKLOAD(transpose, 128)
TESSERA_PIN_LINK_WORKLOAD(bfs, 2000)
TESSERA_PIN_LINK_WORKLOAD(scan, 16384)
