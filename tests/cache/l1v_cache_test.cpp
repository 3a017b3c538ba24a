// The vector L1: exact hit and miss latencies, real (and therefore stale)
// data, write-through without allocation, glc bypass, invalidation.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

TEST_CASE("l1v_cache: a miss costs miss_latency plus the fill round trip and a hit costs hit_latency",
          "[cache][l1v]") {
  MiniPlatform pf;
  const auto run = run_miss_hit_miss(pf, false);
  const Probe& probe = *run->probe;
  GpuPayload *miss = run->miss.get(), *hit = run->hit.get(), *other = run->other.get();

  // Accepted at 0; the fill leaves at 3, the memory moves 64 B in 1 ns and
  // answers 40 ns later: 3 + 1 + 40.
  REQUIRE(probe.time_of(*miss, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(*miss, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(miss->u32() == 0x5a5a5a5a);
  // The same line later: accepted at 100, answered 10 cycles later.
  REQUIRE(probe.time_of(*hit, tlm::BEGIN_RESP) == ns(110));
  REQUIRE(hit->u32() == 0x5a5a5a5a);
  // The next line misses again: 110 + 3 + 1 + 40.
  REQUIRE(probe.time_of(*other, tlm::BEGIN_RESP) == ns(154));
  REQUIRE(other->u32() == 0);
  REQUIRE(pf.stat("l1v", "hits") == 1);
  REQUIRE(pf.stat("l1v", "misses") == 2);
  REQUIRE(pf.stat("l1v", "fills") == 2);
  REQUIRE(pf.stat("l1v", "requests_load") == 3);
  REQUIRE(pf.stat("l1v", "bytes_from_below") == 128);
  REQUIRE(pf.stat("mem", "reads") == 2);
}

TEST_CASE("l1v_cache: a line cached before memory changes stays stale until Invalidate", "[cache][l1v]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3},
                                                       {"maintenance_cycles", 2}}, {{"in", 2}});
  auto& mem = memory_below(pf);
  set_dram_u32(pf, 0x200, 1111);
  auto first = load(0x200), stale = load(0x200), fresh = load(0x200), glc = load(0x200, 4, true);
  auto other_line = load(0x400);
  CommandPayload inv(CacheOp::Invalidate);
  sc_time inv_sent, inv_done;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *first);
    roundtrip(p, *other_line);
    set_dram_u32(pf, 0x200, 2222);  // another agent writes memory behind the L1's back
    roundtrip(p, *stale);
    roundtrip(p, *glc);  // glc reads go below without allocating
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(500));
    inv_sent = sc_core::sc_time_stamp();
    inv_done = roundtrip(p, inv);
  });
  Probe after("after", [&](Probe& p) {
    wait(ns(600));
    roundtrip(p, *fresh);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  ctrl.socket.bind(*l1.target_socket("ctrl", -1));
  after.socket.bind(*l1.target_socket("in", 1));  // a second requester
  sc_core::sc_start();

  REQUIRE(first->u32() == 1111);
  REQUIRE(stale->u32() == 1111);
  REQUIRE(glc->u32() == 2222);
  REQUIRE(fresh->u32() == 2222);
  // Two valid lines at 2 cycles each.
  REQUIRE(inv_done - inv_sent == ns(4));
  REQUIRE(inv.cmd->lines_invalidated == 2);
  REQUIRE(inv.cmd->lines_written_back == 0);
  REQUIRE(inv.get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(pf.stat("l1v", "bypasses") == 1);
  REQUIRE(pf.stat("l1v", "hits") == 1);    // only `stale`
  REQUIRE(pf.stat("l1v", "misses") == 3);  // first, other_line, fresh
  REQUIRE(pf.stat("l1v", "lines_invalidated") == 2);
}

TEST_CASE("l1v_cache: writes go through to memory and update a cached copy but never allocate", "[cache][l1v]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", kL1, {{"in", 1}});
  auto& mem = memory_below(pf);
  auto warm = load(0x300), hit_store = store(0x304, 77), read_back = load(0x304);
  auto miss_store = store(0x800, 99), after_miss = load(0x800);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *warm);
    roundtrip(p, *hit_store);
    roundtrip(p, *read_back);
    roundtrip(p, *miss_store);
    roundtrip(p, *after_miss);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // A write answers when memory has it: accepted at 44, leaves at 47,
  // 4 bytes take 0.0625 ns at 64 GB/s, memory answers 40 ns later (87.0625),
  // and the cache acts on it at its next clock edge.
  REQUIRE(probe.time_of(*hit_store, tlm::BEGIN_RESP) == ns(88));
  REQUIRE(dram_u32(pf, 0x304) == 77);
  REQUIRE(dram_u32(pf, 0x800) == 99);
  REQUIRE(read_back->u32() == 77);  // from the updated copy: a hit
  REQUIRE(after_miss->u32() == 99);
  REQUIRE(pf.stat("l1v", "hits") == 2);    // hit_store, read_back
  REQUIRE(pf.stat("l1v", "misses") == 3);  // warm, miss_store (not allocated), after_miss
  REQUIRE(pf.stat("l1v", "fills") == 2);
  REQUIRE(pf.stat("l1v", "forwarded") == 2);
  REQUIRE(pf.stat("l1v", "requests_store") == 2);
  REQUIRE(pf.stat("l1v", "bytes_to_below") == 8);
  REQUIRE(pf.stat("mem", "writes") == 2);
}

TEST_CASE("l1v_cache: a full set evicts its least recently used line", "[cache][l1v]") {
  MiniPlatform pf;
  // 2 sets of 2 ways of 64 B: lines 0x000, 0x080, 0x100 share set 0.
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"size", "256 B"}, {"ways", 2}, {"hit_latency", 10},
                                                       {"miss_latency", 3}}, {{"in", 1}});
  auto& mem = memory_below(pf);
  std::vector<std::unique_ptr<GpuPayload>> reqs;
  for (uint64_t a : {0x000, 0x080, 0x000, 0x100, 0x000, 0x080}) reqs.push_back(load(a));
  Probe probe("probe", [&](Probe& p) {
    for (auto& r : reqs) roundtrip(p, *r);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // 0x000 miss, 0x080 miss, 0x000 hit (0x080 now LRU), 0x100 miss evicts
  // 0x080, 0x000 hit, 0x080 miss evicts 0x100.
  REQUIRE(pf.stat("l1v", "hits") == 2);
  REQUIRE(pf.stat("l1v", "misses") == 4);
  REQUIRE(pf.stat("l1v", "evictions") == 2);
  REQUIRE(pf.stat("l1v", "writebacks") == 0);
}
