// The lazy unit (models/cu/lazy_unit.h, docs/LAZYGPU.md): a compute unit with
// lazy_loads on, running hand-written kernels against fixed-latency memories
// (1 ns cycles; vector memory 100, scalar 20, fetch 10), and the unit alone
// for what needs addresses no test allocation reaches (upper address bits).
//
// SystemC elaborates once per process, so each test case runs one CU; the
// eager counterparts' requests are worked out in the comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include "models/cu/lazy_unit.h"
#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

const json kLazy = {{"lazy_loads", true}};

// out[0..63] = 10 * lane initially; the kernel's results land after them.
struct LazyRun {
  std::vector<uint32_t> words;                  // the buffer after the run
  std::vector<LatencyMemory::Seen> loads;       // vector load requests, in order
  std::vector<LatencyMemory::Seen> stores;
  uint64_t finish = 0;
  std::map<std::string, uint64_t> stats;
};

LazyRun run_kernel(const std::string& name, const std::string& body, bool lazy, unsigned words = 256,
                   const json& params = kLazy) {
  AsmKernel k;
  k.name = name;
  k.body = body;
  CuRig rig(assemble(k), name, lazy ? quiet(params) : quiet());
  const uint64_t out = rig.device.alloc(words * 4);
  std::vector<uint32_t> init(words, 0);
  for (uint32_t l = 0; l < 64; ++l) init[l] = 10 * l;
  rig.device.write(out, init.data(), words * 4);
  rig.launch(out, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  REQUIRE(rig.dispatcher.finished[0].fault.empty());
  LazyRun r;
  r.words.resize(words);
  rig.device.read(r.words.data(), out, words * 4);
  for (const auto& s : rig.vmem.requests) (s.kind == AccessKind::Load ? r.loads : r.stores).push_back(s);
  r.finish = rig.finish_cycle();
  for (const char* n : {"lazy_loads_deferred", "lazy_requests", "lazy_eliminated_end", "lazy_eliminated_overwrite",
                        "lazy_issued_lanes", "lazy_suspended_lanes", "lazy_eliminated_zero_product"})
    r.stats[n] = lazy ? rig.stat(n) : 0;
  return r;
}

uint64_t ns_of(const sc_core::sc_time& t) { return static_cast<uint64_t>(t.to_seconds() * 1e9 + 0.5); }

const char* kPrologue = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
)";

}  // namespace

// A store to the load's own address follows the deferred load; the load's
// request goes out only when the store of v2 reads it, after the first
// store, yet v2 holds the value from before the store (program order).
TEST_CASE("lazy unit: a store after a deferred load does not change what the load returns", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(global_load_dword v2, v1, s[4:5]
v_mov_b32 v3, 777
global_store_dword v1, v3, s[4:5]
s_waitcnt vmcnt(0)
global_store_dword v1, v2, s[4:5] offset:256
s_waitcnt vmcnt(0)
s_endpgm)";
  const LazyRun r = run_kernel("store_after", body, true);
  for (uint32_t l = 0; l < 64; ++l) {
    CHECK(r.words[l] == 777);
    CHECK(r.words[64 + l] == 10 * l);
  }
  REQUIRE(r.loads.size() == 4);  // 256 bytes in four 64-byte lines
  REQUIRE(r.stores.size() == 8);
  CHECK(r.stats.at("lazy_loads_deferred") == 1);
  CHECK(r.stats.at("lazy_requests") == 4);
  // The load went out after the first store had been answered (the waitcnt
  // waited for the store only); eagerly it would have gone first.
  CHECK(ns_of(r.loads[0].at) > ns_of(r.stores[3].at) + 90);
}

// s_waitcnt vmcnt(0) does not wait for a deferred load and does not force
// it out: the request leaves when v_add reads v2, after the s_sleep
// (10 x 64 cycles), and v_add waits for it.
TEST_CASE("lazy unit: s_waitcnt vmcnt before the use neither waits for nor issues a deferred load", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(global_load_dword v2, v1, s[4:5]
s_waitcnt vmcnt(0)
s_sleep 10
v_add_u32 v3, 1, v2
global_store_dword v1, v3, s[4:5] offset:256
s_waitcnt vmcnt(0)
s_endpgm)";
  const LazyRun lazy = run_kernel("waitcnt_first", body, true);
  for (uint32_t l = 0; l < 64; ++l) CHECK(lazy.words[64 + l] == 10 * l + 1);
  REQUIRE(lazy.loads.size() == 4);
  // Eagerly the load leaves within the first 100 cycles and the waitcnt waits
  // for it; here the sleep (640 cycles) comes first, then the load, and the
  // store of v3 waits for its 100 cycles.
  const uint64_t sent = ns_of(lazy.loads[0].at);
  CHECK(sent > 640);
  REQUIRE(lazy.stores.size() == 4);
  CHECK(ns_of(lazy.stores[0].at) >= sent + 100);
}

// A wave that ends with a deferred load never sends it.
TEST_CASE("lazy unit: a wave ending with deferred loads drops them", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(global_load_dword v2, v1, s[4:5]
global_load_dwordx2 v[4:5], v1, s[4:5] offset:256
s_endpgm)";
  const LazyRun lazy = run_kernel("ends_deferred", body, true, 512);
  CHECK(lazy.loads.empty());  // eagerly 4 + 8 line requests
  CHECK(lazy.stats.at("lazy_loads_deferred") == 2);
  CHECK(lazy.stats.at("lazy_eliminated_end") == 64 + 2 * 64);  // register-lanes
  CHECK(lazy.finish < 100);  // nothing to wait for (eagerly the wave drains its loads: over 100 cycles)
}

// Lanes 0..15 load; lanes 0..7 read (v_add with EXEC = 8 lanes): only
// their 32 bytes are requested, and the other 8 lanes are dropped at the end.
TEST_CASE("lazy unit: a partial EXEC mask requests only the lanes read", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(v_cmp_gt_u32 vcc, 16, v0
s_and_saveexec_b64 s[6:7], vcc
global_load_dword v2, v1, s[4:5]
s_or_b64 exec, exec, s[6:7]
v_cmp_gt_u32 vcc, 8, v0
s_and_saveexec_b64 s[8:9], vcc
v_add_u32 v3, 1, v2
global_store_dword v1, v3, s[4:5] offset:256
s_or_b64 exec, exec, s[8:9]
s_waitcnt vmcnt(0)
s_endpgm)";
  const LazyRun lazy = run_kernel("partial_exec", body, true);
  for (uint32_t l = 0; l < 8; ++l) CHECK(lazy.words[64 + l] == 10 * l + 1);
  for (uint32_t l = 8; l < 64; ++l) CHECK(lazy.words[64 + l] == 0);
  REQUIRE(lazy.loads.size() == 1);
  CHECK(lazy.loads[0].len == 32);  // lanes 0..7 (eagerly 64 bytes: lanes 0..15)
  CHECK(lazy.stats.at("lazy_issued_lanes") == 8);
  CHECK(lazy.stats.at("lazy_eliminated_end") == 8);
}

// A deferred register overwritten before it is read sends nothing; a
// dwordx2 load whose first register alone is read requests only its dwords.
TEST_CASE("lazy unit: overwritten registers are eliminated and only the registers read are requested", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(v_lshlrev_b32 v6, 3, v0
global_load_dword v2, v1, s[4:5]
global_load_dwordx2 v[4:5], v6, s[4:5]
v_mov_b32 v2, 5
v_add_u32 v3, v2, v4
global_store_dword v1, v3, s[4:5] offset:512
s_waitcnt vmcnt(0)
s_endpgm)";
  const LazyRun lazy = run_kernel("overwrite", body, true, 512);
  // v4 of lane l is word 2l: 10 * 2l below 64, else 0.
  for (uint32_t l = 0; l < 64; ++l) CHECK(lazy.words[128 + l] == 5 + (2 * l < 64 ? 20 * l : 0));
  // Eagerly 4 + 8 line requests. Only v4's dwords: 64 lanes x 4 bytes at an 8-byte stride, spread over 8 lines.
  CHECK(lazy.loads.size() == 8);
  CHECK(lazy.stats.at("lazy_eliminated_overwrite") == 64);
  CHECK(lazy.stats.at("lazy_issued_lanes") == 64);
  CHECK(lazy.stats.at("lazy_eliminated_end") == 64);  // v5, never read
}

// With lazy_whole_loads the same reader of v4 requests the whole dwordx2
// (v4 and v5) for its lanes, as LazyGPU's one request per lane and load
// would: the same 8 lines, 128 register-lanes, nothing left to drop.
TEST_CASE("lazy unit: with lazy_whole_loads a reader of one register requests the whole load", "[cu][lazy]") {
  const std::string body = std::string(kPrologue) + R"(v_lshlrev_b32 v6, 3, v0
global_load_dwordx2 v[4:5], v6, s[4:5]
v_add_u32 v3, 1, v4
global_store_dword v1, v3, s[4:5] offset:512
s_waitcnt vmcnt(0)
v_add_u32 v3, 1, v5
global_store_dword v1, v3, s[4:5] offset:768
s_waitcnt vmcnt(0)
s_endpgm)";
  const LazyRun lazy = run_kernel("wholeload", body, true, 512, {{"lazy_loads", true}, {"lazy_whole_loads", true}});
  for (uint32_t l = 0; l < 64; ++l) {
    CHECK(lazy.words[128 + l] == 1 + (2 * l < 64 ? 20 * l : 0));
    CHECK(lazy.words[192 + l] == 1 + (2 * l + 1 < 64 ? 10 * (2 * l + 1) : 0));
  }
  CHECK(lazy.loads.size() == 8);  // one group (per register: 16): the reader of v5 finds nothing deferred
  CHECK(lazy.stats.at("lazy_issued_lanes") == 128);
  CHECK(lazy.stats.at("lazy_eliminated_end") == 0);
}

// The paper keeps 35 upper address bits per (wave, register): lanes whose
// upper bits differ from the register's (the lowest lane's) cannot wait and
// are requested when the load executes. Test allocations all lie within one
// 512 MiB region, so the unit is driven directly with a plan whose second
// half of lanes lies 512 MiB higher.
TEST_CASE("lazy unit: lanes whose upper 35 address bits differ are requested at once", "[cu][lazy]") {
  StatGroup stats("cu");
  const unsigned slots = kVgprSlot + 16;
  LazyUnit unit(stats, 1, slots);
  WaveSlot w;
  w.index = 0;
  w.board.reset(slots, 16);
  InstInfo info;
  info.writes = 1;
  info.write_runs[0] = SlotRun{static_cast<uint16_t>(kVgprSlot + 2), 1, false};
  info.reads = 1;
  info.read_runs[0] = info.write_runs[0];
  MemInst m;
  m.plan.kind = isa::MemKind::Load;
  m.plan.lane_stride = 4;
  m.plan.exec = ~uint64_t{0};
  const uint64_t base = 0x1'0000'0000ull;
  m.plan.add(isa::MemSpace::Global, base, 32 * 4, 0, 0);                   // lanes 0..31
  m.plan.add(isa::MemSpace::Global, base + (1ull << 29), 32 * 4, 32, 128);  // lanes 32..63, 512 MiB higher
  MemInstPool insts;
  RequestPool pool(64);
  std::vector<MemRequest*> out;
  unit.record(w, m, info, 0, 0, insts, pool, out);
  const unsigned slot = kVgprSlot + 2;
  CHECK(unit.deferred_lanes(0, slot) == 0xffffffffull);
  CHECK(unit.inflight_lanes(0, slot) == 0xffffffff00000000ull);
  REQUIRE(out.size() == 2);  // 128 bytes of lanes 32..63 in two lines
  CHECK(out[0]->get_address() == base + (1ull << 29));
  CHECK(out[1]->get_address() == base + (1ull << 29) + 64);
  CHECK(w.lazy_out == 1);
  CHECK(stats.counter_value("lazy_lanes_eager") == 32);
  // A reader of lanes 0..15 requests those alone.
  out.clear();
  CHECK(unit.blocks(w, info, 0xffff, true, 0, 1, insts, pool, out) == LazyUnit::Owed::InFlight);
  REQUIRE(out.size() == 1);
  CHECK(out[0]->get_address() == base);
  CHECK(out[0]->get_data_length() == 64);
  CHECK(unit.deferred_lanes(0, slot) == 0xffff0000ull);
  // Without trigger, only what is owed is reported.
  CHECK(unit.owes(w, info, 0xffff0000ull) == LazyUnit::Owed::Deferred);
  unit.drop(w);
  CHECK(unit.deferred_lanes(0, slot) == 0);
  CHECK(stats.counter_value("lazy_eliminated_end") == 16);
}

// ⊗ elimination: v_mul_u32_u24 reads the deferred v2 with a partner v3
// that is 0 in lanes 0..31. Those lanes are suspended: only lanes 32..63
// (128 bytes, two lines) are requested, and when v2 is overwritten the
// suspended lanes are eliminated, never requested. The product is still
// the exact one (0 in lanes 0..31, 30 x lane above).
const char* kZeroPartner = R"(v_cmp_gt_u32 vcc, 32, v0
v_mov_b32 v5, 0
v_mov_b32 v3, 3
v_cndmask_b32 v3, v3, v5, vcc
global_load_dword v2, v1, s[4:5]
v_mul_u32_u24 v4, v2, v3
v_mov_b32 v2, 1
global_store_dword v1, v4, s[4:5] offset:256
s_waitcnt vmcnt(0)
s_endpgm)";

TEST_CASE("lazy unit: a multiplicand whose partner is 0 is suspended and then eliminated", "[cu][lazy]") {
  const LazyRun r = run_kernel("zero_partner", std::string(kPrologue) + kZeroPartner, true, 256,
                               {{"lazy_loads", true}, {"lazy_zero_products", true}});
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[64 + l] == (l < 32 ? 0 : 30 * l));
  REQUIRE(r.loads.size() == 2);
  CHECK(r.loads[0].len == 64);
  CHECK(r.stats.at("lazy_suspended_lanes") == 32);
  CHECK(r.stats.at("lazy_eliminated_zero_product") == 32);
  CHECK(r.stats.at("lazy_eliminated_overwrite") == 0);
  CHECK(r.stats.at("lazy_issued_lanes") == 32);
}

// The same kernel without ⊗ elimination: the multiply waits for all 64 lanes.
TEST_CASE("lazy unit: without lazy_zero_products a multiply waits for every lane", "[cu][lazy]") {
  const LazyRun r = run_kernel("zero_partner", std::string(kPrologue) + kZeroPartner, true);
  for (uint32_t l = 0; l < 64; ++l) CHECK(r.words[64 + l] == (l < 32 ? 0 : 30 * l));
  CHECK(r.loads.size() == 4);
  CHECK(r.stats.at("lazy_suspended_lanes") == 0);
  CHECK(r.stats.at("lazy_issued_lanes") == 64);
}

TEST_CASE("lazy unit: lazy_zero_products without lazy_loads is a parameter error", "[cu][lazy]") {
  MiniPlatform p;
  try {
    p.create<ComputeUnit>("compute_unit", "cu[2]", {{"lazy_zero_products", true}});
    FAIL("no error");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()).find("cu[2]: parameter 'lazy_zero_products': needs lazy_loads") != std::string::npos);
  }
}
