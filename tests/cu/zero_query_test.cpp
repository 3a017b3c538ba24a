// The compute unit's zero-mask queries (zero_queries, models/cu/zero_query.h,
// docs/LAZYGPU.md): hand-written kernels on a CU against fixed-latency
// memories (1 ns cycles; vector memory 100), which have no zero cache and
// read a query like data. The buffer's words 64..127 (bytes 256..511) are the
// loaded ones; the kernel's results land at words 128..191.
//
// SystemC elaborates once per process, so each test case runs one CU.
#include <catch2/catch.hpp>

#include <functional>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

struct ZeroRun {
  std::vector<uint32_t> words;
  std::vector<LatencyMemory::Seen> loads, queries;
  std::map<std::string, uint64_t> stats;
};

// Runs `body` on one wave with words 64..127 set by `loaded(lane)` and
// words 0..63 by `partner(lane)` (0 without it).
ZeroRun run(const std::string& name, const std::string& body, const json& params,
            const std::function<uint32_t(uint32_t)>& loaded,
            const std::function<uint32_t(uint32_t)>& partner = nullptr) {
  AsmKernel k;
  k.name = name;
  k.body = body;
  CuRig rig(assemble(k), name, quiet(params));
  constexpr unsigned kWords = 256;
  const uint64_t out = rig.device.alloc(kWords * 4);
  std::vector<uint32_t> init(kWords, 0);
  for (uint32_t l = 0; l < 64; ++l) init[64 + l] = loaded(l);
  for (uint32_t l = 0; partner && l < 64; ++l) init[l] = partner(l);
  rig.device.write(out, init.data(), kWords * 4);
  rig.launch(out, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  REQUIRE(rig.dispatcher.finished[0].fault.empty());
  ZeroRun r;
  r.words.resize(kWords);
  rig.device.read(r.words.data(), out, kWords * 4);
  for (const auto& s : rig.vmem.requests) {
    if (s.kind == AccessKind::Load) r.loads.push_back(s);
    if (s.kind == AccessKind::ZeroMask) r.queries.push_back(s);
  }
  const bool lazy = params.value("lazy_loads", false);
  for (const char* n : {"zero_queries", "zero_requests_saved", "lazy_eliminated_zero_cache",
                        "lazy_suspended_lanes", "lazy_eliminated_zero_product", "lazy_requests"})
    r.stats[n] = lazy || std::string(n).rfind("zero_", 0) == 0 ? rig.stat(n) : 0;
  return r;
}

const json kLazyZc = {{"lazy_loads", true}, {"zero_queries", true}};

// v3 = v2 + 1 for the 64 loaded lanes, stored at words 128..191.
const char* kAddOne = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
global_load_dword v2, v1, s[4:5] offset:256
s_waitcnt vmcnt(0)
v_add_u32 v3, 1, v2
global_store_dword v1, v3, s[4:5] offset:512
s_waitcnt vmcnt(0)
s_endpgm)";

// Lanes 16..31 (the second 64-byte line) hold 5 + lane, the others 0.
uint32_t second_line(uint32_t lane) { return lane >= 16 && lane < 32 ? 5 + lane : 0; }

}  // namespace

TEST_CASE("zero queries: a lazy load of all-zero data sends no data request", "[cu][lazy][zero]") {
  const ZeroRun r = run("zq_all_zero", kAddOne, kLazyZc, [](uint32_t) { return 0u; });
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == 1);
  CHECK(r.loads.empty());
  REQUIRE(r.queries.size() == 4);  // one per 64-byte line the lanes touch
  for (const auto& q : r.queries) CHECK(q.len == 64);
  CHECK(r.stats.at("zero_queries") == 4);
  CHECK(r.stats.at("zero_requests_saved") == 4);
  CHECK(r.stats.at("lazy_eliminated_zero_cache") == 64);
  CHECK(r.stats.at("lazy_requests") == 0);
}

TEST_CASE("zero queries: mixed lanes request only the lines with a non-zero word, after the queries",
          "[cu][lazy][zero]") {
  const ZeroRun r = run("zq_mixed", kAddOne, kLazyZc, second_line);
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == second_line(l) + 1);
  REQUIRE(r.queries.size() == 4);
  REQUIRE(r.loads.size() == 1);
  CHECK(r.loads[0].addr == r.queries[1].addr);  // the second line, lanes 16..31
  CHECK(r.loads[0].len == 64);
  // The data request waits for the queries' answers (100 cycles).
  CHECK(r.loads[0].at >= r.queries[3].at + sc_core::sc_time(100, sc_core::SC_NS));
  CHECK(r.stats.at("zero_requests_saved") == 3);
  CHECK(r.stats.at("lazy_eliminated_zero_cache") == 48);
  CHECK(r.stats.at("lazy_requests") == 1);
}

TEST_CASE("zero queries: one non-zero lane is requested alone", "[cu][lazy][zero]") {
  const ZeroRun r = run("zq_one_lane", kAddOne, kLazyZc, [](uint32_t l) { return l == 37 ? 9u : 0u; });
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == (l == 37 ? 10u : 1u));
  REQUIRE(r.loads.size() == 1);
  CHECK(r.loads[0].len == 4);
  CHECK(r.loads[0].addr == r.queries[0].addr + 37 * 4);
  CHECK(r.stats.at("lazy_eliminated_zero_cache") == 63);
}

// Without lazy loads (eager_zc): the queries and the non-zero lines' data
// requests leave together at execute.
TEST_CASE("zero queries: an eager load sends its queries and its non-zero lines together", "[cu][zero]") {
  const ZeroRun r = run("zq_eager", kAddOne, {{"zero_queries", true}}, second_line);
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == second_line(l) + 1);
  REQUIRE(r.queries.size() == 4);
  REQUIRE(r.loads.size() == 1);
  CHECK(r.loads[0].len == 64);
  const sc_core::sc_time window(10, sc_core::SC_NS);
  CHECK(r.loads[0].at <= r.queries[0].at + window);
  CHECK(r.queries[3].at <= r.loads[0].at + window);
  CHECK(r.stats.at("zero_queries") == 4);
  CHECK(r.stats.at("zero_requests_saved") == 3);
}

// ⊗ with zero queries: v4 = v2 * v3 (or v3 * v2) where v2 is 0 in lanes
// 0..31 and v3 is never 0. Both loads send their queries when they execute
// (the paper's Figure 8, step 1); when they are answered, v2's lanes 0..31
// are known zero (busy bits clear, registers 0). The multiply then requests
// v2 and v3 only in lanes 32..63: v3's lanes 0..31 are suspended, then
// eliminated when v3 is overwritten. A zero multiplicand excuses its partner
// in either operand position.
namespace {

ZeroRun product_run(const std::string& name, const std::string& mul) {
  const std::string body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
global_load_dword v2, v1, s[4:5] offset:256
global_load_dword v3, v1, s[4:5]
)" + mul + R"(
v_mov_b32 v3, 0
global_store_dword v1, v4, s[4:5] offset:512
s_waitcnt vmcnt(0)
s_endpgm)";
  const json all = {{"lazy_loads", true}, {"zero_queries", true}, {"lazy_zero_products", true}};
  return run(name, body, all, [](uint32_t l) { return l < 32 ? 0u : l; }, [](uint32_t l) { return 100 + l; });
}

void check_product(const ZeroRun& r) {
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == (l < 32 ? 0u : l * (100 + l)));
  CHECK(r.stats.at("lazy_suspended_lanes") == 32);
  CHECK(r.stats.at("lazy_eliminated_zero_product") == 32);
  CHECK(r.stats.at("lazy_eliminated_zero_cache") == 32);  // v2's lanes 0..31
  // v2 and v3: 2 data lines each (lanes 32..63); 4 queries each, at execute.
  CHECK(r.loads.size() == 4);
  REQUIRE(r.queries.size() == 8);
  for (const auto& q : r.queries) CHECK(q.at < r.loads.front().at);
}

}  // namespace

TEST_CASE("zero queries: a zero src0 found by its query suspends src1's lanes", "[cu][lazy][zero]") {
  check_product(product_run("zq_product_src0", "v_mul_u32_u24 v4, v2, v3"));
}

TEST_CASE("zero queries: a zero src1 found by its query suspends src0's lanes", "[cu][lazy][zero]") {
  check_product(product_run("zq_product_src1", "v_mul_u32_u24 v4, v3, v2"));
}

// zero_query_span 128 (a partition's 128-byte interleave chunk): the 256
// bytes the wave loads are asked about in 2 queries of 128 bytes, not 4 of 64.
TEST_CASE("zero queries: one query per partition chunk a load touches", "[cu][lazy][zero]") {
  json p = kLazyZc;
  p["zero_query_span"] = "128 B";
  const ZeroRun r = run("zq_span", kAddOne, p, second_line);
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[128 + l] == second_line(l) + 1);
  REQUIRE(r.queries.size() == 2);
  CHECK(r.queries[0].len == 128);
  CHECK(r.queries[1].len == 128);
  CHECK(r.queries[1].addr == r.queries[0].addr + 128);
  REQUIRE(r.loads.size() == 1);  // lanes 16..31's line
  CHECK(r.loads[0].len == 64);
  CHECK(r.stats.at("zero_queries") == 2);
  CHECK(r.stats.at("zero_requests_saved") == 3);  // of the 4 lines the load touches
}

TEST_CASE("zero queries: zero_query_span below vmem_line is a parameter error", "[cu][zero]") {
  MiniPlatform p;
  try {
    p.create<ComputeUnit>("compute_unit", "cu[2]", {{"zero_queries", true}, {"zero_query_span", "32 B"}});
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()).find("cu[2]: parameter 'zero_query_span': expected 0 or a power of two of at least "
                                     "vmem_line (64 B), got 32") != std::string::npos);
  }
}
