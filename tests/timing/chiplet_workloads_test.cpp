// Every workload of the suite on 2, 4 and 8 chiplets in every topology gives
// the bytes of the functional executor: each chiplet has its own write-back L2
// and runs its own contiguous share of every grid, and the command processor's
// baseline kernel-boundary policy (invalidate L1s and L2s at kernel start,
// write back the L2s at kernel end) makes every kernel see the last one's
// results. Each workload runs at its middle test size; one platform per
// test case (one process each).
#include <catch2/catch.hpp>

#include <algorithm>

#include "platform/functional_device.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::test;

namespace {

void check_all_workloads(const std::string& netlist, const std::string& topology,
                         const std::vector<std::string>& sets = {}) {
  FunctionalDevice reference(kKernelDir);
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + netlist;
  o.kernel_dir = kKernelDir;
  o.overrides.push_back(parse_override("noc.topology=" + topology));
  for (const std::string& s : sets) o.overrides.push_back(parse_override(s));
  TimingDevice timing(o);
  for (const workloads::Workload& w : workloads::workloads()) {
    REQUIRE_FALSE(w.test_sizes.empty());
    // The middle test size: several workgroups per chiplet, small enough for the sanitizer build.
    std::vector<size_t> sizes = w.test_sizes;
    std::sort(sizes.begin(), sizes.end());
    compare_run(w, reference, timing, sizes[sizes.size() / 2], false);
  }
  CHECK(timing.totals().launches >= workloads::workloads().size());
  const json stats = timing.finish();
  // The chiplets did share the work, and remote memory was reached over the links.
  CHECK(stats["noc"]["remote_messages"].get<uint64_t>() > 0);
  CHECK(stats["chiplet[0]"]["dispatcher"]["workgroups"].get<uint64_t>() > 0);
  CHECK(stats["chiplet[1]"]["dispatcher"]["workgroups"].get<uint64_t>() > 0);
  CHECK(stats["simulation"]["ok"] == true);
}

}  // namespace

#define TESSERA_CHIPLET_CASE(chiplets, topology)                                                             \
  TEST_CASE("chiplets: every workload on " #chiplets " chiplets in a " #topology " topology matches the executor", \
            "[timing][chiplet]") {                                                                           \
    check_all_workloads("chiplet" #chiplets "_small.json", #topology);                                       \
  }

TESSERA_CHIPLET_CASE(2, ring)
TESSERA_CHIPLET_CASE(2, mesh)
TESSERA_CHIPLET_CASE(2, switch)
TESSERA_CHIPLET_CASE(2, full)
TESSERA_CHIPLET_CASE(4, ring)
TESSERA_CHIPLET_CASE(4, mesh)
TESSERA_CHIPLET_CASE(4, switch)
TESSERA_CHIPLET_CASE(4, full)
TESSERA_CHIPLET_CASE(8, ring)
TESSERA_CHIPLET_CASE(8, mesh)
TESSERA_CHIPLET_CASE(8, switch)
TESSERA_CHIPLET_CASE(8, full)

// With a shared L3 slice in front of each chiplet's memory: write-backs end in
// it, re-reads after the kernel-start invalidation hit it, and the host reads
// results through it (some still dirty there at the end).
TEST_CASE("chiplets: every workload on 4 chiplets with a shared L3 matches the executor", "[timing][chiplet][l3]") {
  check_all_workloads("chiplet4_small_l3.json", "ring");
}

TEST_CASE("chiplets: every workload on 4 chiplets with a non-inclusive, write-through shared L3 matches the executor",
          "[timing][chiplet][l3]") {
  check_all_workloads("chiplet4_small_l3.json", "ring",
                      {"chiplet[*].l3.inclusive=false", "chiplet[*].l3.write_policy=write_through"});
}

// The paper's remote path (json/platforms/cpelide_4chiplet_home_l2.json): each
// chiplet's L2 keeps only its own lines and serves the other chiplets' requests
// for them, which cross the network to its second port; an L2's misses go to
// its own L3 slice.
TEST_CASE("chiplets: every workload on cpelide_4chiplet_home_l2 (remote lines served by their home's L2) matches the "
          "executor",
          "[timing][chiplet][home_l2]") {
  check_all_workloads("cpelide_4chiplet_home_l2.json", "switch");
}

// The same with pages placed by first touch (json/platforms/cpelide_4chiplet.json,
// the paper's machine): each chiplet's crossbar and the network share one page
// table, so a line is kept by the L2 of the chiplet that touched its page
// first, whichever chiplet asks for it later.
TEST_CASE("chiplets: every workload on cpelide_4chiplet (pages placed by first touch) matches the executor",
          "[timing][chiplet][first_touch]") {
  check_all_workloads("cpelide_4chiplet.json", "switch");
}

// Requester-side L2s (json/platforms/cpelide_4chiplet_requester_l2.json, HMG's
// organisation): every chiplet's L2 keeps what its compute units read, and its
// misses cross the network to the home's L3 slice and memory.
TEST_CASE("chiplets: every workload on cpelide_4chiplet_requester_l2 (requesters' L2s keep remote lines) matches "
          "the executor",
          "[timing][chiplet][requester_l2]") {
  check_all_workloads("cpelide_4chiplet_requester_l2.json", "switch");
}
