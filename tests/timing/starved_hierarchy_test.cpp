// Every finite resource of the memory path at its smallest legal size still
// gives the functional executor's bytes: one-entry queues in the compute
// units, caches, crossbars, DRAM controllers and the chiplet network, one
// MSHR with one target, one port, bank and way per cache, one DRAM channel
// and bank, one fetch and one memory request in flight per CU. Every block
// then spends most of the run withholding END_REQ or END_RESP, so a lost
// wake-up (the platform goes idle before the launch ends), a livelock (the
// launch's cycle limit), a request admitted past a full queue (a queue deeper
// than its bound) or a response that overtakes its data (a wrong byte) fails.
// A second configuration shrinks only the MSHRs, so that requests do reach a
// cache with every MSHR taken.
//
// One platform per test case (SystemC elaborates once per process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "platform/functional_device.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::test;

namespace {

// Atomics, launches that read the previous launch's results, LDS and
// barriers, MFMA, gathers and partial-line stores.
const std::vector<std::string> kWorkloads = {"vector_add", "histogram", "bfs",       "scan",         "sgemm16",
                                             "mfma_gemm_f16", "spmv",   "transpose", "stencil_iter", "producer_consumer"};

// `prefix` names the blocks of one chip: "" on small_gpu, "chiplet[*]." on
// the chiplet netlists, where the caches the CUs share and the DRAM
// controller are single instances.
std::vector<std::string> starved(const std::string& prefix) {
  std::vector<std::string> sets;
  const std::string sqc = prefix.empty() ? "[*]" : "";
  for (const std::string& cache : {std::string("l1v[*]"), "sqc_scalar" + sqc, "sqc_inst" + sqc, std::string("l2[*]")})
    for (const char* p : {"queue_depth", "mshrs", "mshr_targets", "ports", "banks", "ways"})
      sets.push_back(prefix + cache + "." + p + "=1");
  for (const char* p : {"queue_depth", "response_queue_depth"}) sets.push_back(prefix + "xbar." + p + "=1");
  const std::string dram = prefix.empty() ? "dram[*]" : prefix + "dram";
  for (const char* p : {"queue_depth", "channels", "banks"}) sets.push_back(dram + "." + p + "=1");
  for (const char* p : {"vmem_queue", "max_vmem_requests", "max_smem_requests", "max_fetches"})
    sets.push_back(prefix + "cu[*]." + p + "=1");
  // The smallest instruction buffer that holds a 12-byte instruction at a fetch block's end.
  sets.push_back(prefix + "cu[*].ib_depth=2");
  return sets;
}

std::vector<std::string> few_mshrs(const std::string& prefix) {
  return {prefix + "l1v[*].mshrs=1", prefix + "l2[*].mshrs=1", prefix + "l2[*].mshr_targets=1"};
}

// Calls f(path, block) for every block of the statistics that has `key`.
template <typename F>
void for_each_block_with(const json& stats, const std::string& key, const std::string& path, F f) {
  if (!stats.is_object()) return;
  if (stats.contains(key)) f(path, stats);
  for (const auto& [name, sub] : stats.items()) for_each_block_with(sub, key, path + "/" + name, f);
}

json run_all(const std::string& netlist, const std::vector<std::string>& sets) {
  FunctionalDevice reference(kKernelDir);
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + netlist;
  o.kernel_dir = kKernelDir;
  o.max_cycles = 20'000'000;  // per launch; the longest here (spmv) takes about 1.1 M
  for (const std::string& s : sets) o.overrides.push_back(parse_override(s));
  TimingDevice timing(o);
  for (const std::string& name : kWorkloads) {
    const workloads::Workload* w = workloads::find_workload(name);
    REQUIRE(w);
    // The largest test size: many workgroups per CU, so that waves contend.
    compare_run(*w, reference, timing, *std::max_element(w->test_sizes.begin(), w->test_sizes.end()), false);
  }
  json stats = timing.finish();
  CHECK(stats["simulation"]["ok"] == true);
  return stats;
}

// Every cache held at most one request, and full queues did push back.
void check_starved(const json& stats) {
  size_t caches = 0;
  for_each_block_with(stats, "mshr_full_stalls", "", [&](const std::string& path, const json& cache) {
    INFO(path);
    CHECK(cache["queue_occupancy"]["max"].get<uint64_t>() <= 1);
    ++caches;
  });
  CHECK(caches > 0);
  uint64_t stalls = 0;
  for_each_block_with(stats, "request_stalls", "", [&](const std::string&, const json& block) {
    stalls += block["request_stalls"].get<uint64_t>();
  });
  CHECK(stalls > 0);
}

// Requests found every MSHR taken, in the vector L1s and in the L2s.
void check_mshrs_full(const json& stats) {
  uint64_t l1 = 0, l2 = 0;
  for_each_block_with(stats, "mshr_full_stalls", "", [&](const std::string& path, const json& cache) {
    const uint64_t n = cache["mshr_full_stalls"].get<uint64_t>();
    if (path.find("/l1v[") != std::string::npos) l1 += n;
    if (path.find("/l2[") != std::string::npos) l2 += n;
  });
  CHECK(l1 > 0);
  CHECK(l2 > 0);
}

}  // namespace

TEST_CASE("starved hierarchy: every queue, MSHR, port, bank and way at one gives the executor's bytes (small_gpu)",
          "[timing][workload][starved]") {
  check_starved(run_all("small_gpu.json", starved("")));
}

TEST_CASE("starved hierarchy: one MSHR per cache gives the executor's bytes (small_gpu)",
          "[timing][workload][starved]") {
  check_mshrs_full(run_all("small_gpu.json", few_mshrs("")));
}

TEST_CASE("starved hierarchy: every queue at one, one-byte flits between chiplets (chiplet4_small)",
          "[timing][workload][starved][chiplet]") {
  std::vector<std::string> sets = starved("chiplet[*].");
  for (const char* s : {"noc.queue_depth=1", "noc.response_queue_depth=1", "noc.flit_size=1 B"}) sets.push_back(s);
  check_starved(run_all("chiplet4_small.json", sets));
}

TEST_CASE("starved hierarchy: one MSHR per cache gives the executor's bytes (chiplet4_small)",
          "[timing][workload][starved][chiplet]") {
  check_mshrs_full(run_all("chiplet4_small.json", few_mshrs("chiplet[*].")));
}
