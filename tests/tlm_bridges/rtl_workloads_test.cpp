// Every workload of the suite gives the functional executor's bytes on
// json/platforms/small_gpu_rtl_memory.json: small_gpu with the SystemVerilog
// AXI4 memory (Verilated, behind the TLM -> AXI4 bridge, checked by the AXI4
// protocol checker) in place of its DRAM controllers, by a netlist change
// alone. At each workload's smallest test size, to keep the test time
// reasonable (the RTL is evaluated every cycle of every memory access).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/timing/workload_compare.h"
#include "tests/workload_list.h"

using namespace tessera;
using namespace tessera::test;

namespace {

void check_on_rtl_memory(const std::string& name) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu_rtl_memory.json";
  o.kernel_dir = kKernelDir;
  FunctionalDevice reference(kKernelDir);
  TimingDevice timing(o);
  const workloads::Workload* w = workloads::find_workload(name);
  REQUIRE(w);
  compare_run(*w, reference, timing, *std::min_element(w->test_sizes.begin(), w->test_sizes.end()), false);
}

}  // namespace

#define TESSERA_RTL_WORKLOAD(name)                                                                   \
  TEST_CASE("rtl memory: small_gpu with the RTL AXI4 memory gives the executor's bytes: " #name,     \
            "[rtl][workload]") {                                                                     \
    check_on_rtl_memory(#name);                                                                      \
  }

TESSERA_WORKLOAD_LIST(TESSERA_RTL_WORKLOAD)

