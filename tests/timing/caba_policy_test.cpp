// The compression policies of CABA's assist warps in the whole CABA design
// (docs/CABA.md, "Turning compression off"): on small_gpu with every CU's
// assist warps on and checked, the dynamic policy stops compressing the
// random-data control's stores and never skips a compressible stream's; the
// static switch leaves a named kernel with no compression assist warp. The
// outputs are the functional executor's in every case. One test case per
// run (one process each).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "tests/timing/workload_compare.h"

namespace {

using namespace tessera;

struct AssistTotals {
  uint64_t compress = 0, skipped = 0, static_skipped = 0, buffer_full = 0, decompress = 0;
};

// Runs `name` at its largest test size in the CABA design on small_gpu with
// `extra` CU parameters (name = value) against the functional executor, and
// sums the CUs' assist-warp counters.
AssistTotals run_caba(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";
  o.kernel_dir = test::kKernelDir;
  std::vector<std::pair<std::string, std::string>> set = {{"dram[*].compression", "hierarchy"},
                                                          {"l2[*].compression", "hold"},
                                                          {"l1v[*].compression", "cu"},
                                                          {"cu[*].assist_warps", "true"},
                                                          {"cu[*].assist_warp_check", "true"}};
  set.insert(set.end(), extra.begin(), extra.end());
  for (const auto& [path, value] : set) o.overrides.push_back(parse_override(path + "=" + value));
  FunctionalDevice reference(test::kKernelDir);
  TimingDevice timing(o);
  const workloads::Workload* w = workloads::find_workload(name);
  REQUIRE(w);
  test::compare_run(*w, reference, timing, w->test_sizes.back(), false);
  AssistTotals t;
  for (const StatGroup* g : timing.platform().stats().groups()) {
    t.compress += g->counter_value("assist_started_compress_low");
    t.skipped += g->counter_value("assist_compress_policy_skipped");
    t.static_skipped += g->counter_value("assist_compress_static_skipped");
    t.buffer_full += g->counter_value("assist_buffer_full");
    t.decompress += g->counter_value("assist_started_decompress_high");
  }
  INFO(name << ": compression assist warps " << t.compress << ", skipped by the policy " << t.skipped
            << ", by the static switch " << t.static_skipped << ", buffer full " << t.buffer_full
            << ", decompression assist warps " << t.decompress);
  CHECK(t.compress + t.skipped + t.static_skipped + t.buffer_full > 0);  // whole-line stores were seen
  return t;
}

}  // namespace

TEST_CASE("caba policy: random data's stores stop getting compression assist warps", "[timing][caba][policy]") {
  const AssistTotals t = run_caba("caba_random", {});
  CHECK(t.skipped > 0);
  CHECK(t.skipped > 4 * t.compress);
}

TEST_CASE("caba policy: a compressible stream's stores are never skipped", "[timing][caba][policy]") {
  const AssistTotals t = run_caba("caba_narrow", {});
  CHECK(t.compress > 0);
  CHECK(t.decompress > 0);
  CHECK(t.skipped == 0);
}

TEST_CASE("caba policy: without the dynamic policy random data's stores are all compressed", "[timing][caba][policy]") {
  const AssistTotals t = run_caba("caba_random", {{"cu[*].assist_compress_counter", "0"}});
  CHECK(t.skipped == 0);
  CHECK(t.compress > 0);
}

TEST_CASE("caba policy: the static switch leaves a named kernel with no compression assist warp",
          "[timing][caba][policy]") {
  const AssistTotals t = run_caba("caba_random", {{"cu[*].assist_compress_off", "caba_add_u32"}});
  CHECK(t.compress == 0);
  CHECK(t.static_skipped > 0);
}
