// Two CUs' L1s, a router, two interleaved L2 slices and memory: data moves
// through real copies, so what each requester sees depends on which copies
// were invalidated or written back, as on hardware.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

TEST_CASE("cache hierarchy: a write by one CU reaches another only after its L1 is invalidated",
          "[cache][hierarchy]") {
  MiniPlatform pf;
  const json l1p = {{"hit_latency", 10}, {"miss_latency", 3}};
  auto& l1a = pf.create<Cache>("l1v_cache", "cu0.l1v", l1p, {{"in", 1}});
  auto& l1b = pf.create<Cache>("l1v_cache", "cu1.l1v", l1p, {{"in", 1}});
  auto& xbar = pf.create("router", "xbar",
                         {{"address_map", json::parse(R"([{"base": "0x0", "size": "1 MiB", "ports": [0, 1],
                                                           "interleave": 128}])")}},
                         {{"in", 2}, {"out", 2}});
  auto& l2a = pf.create<Cache>("l2_cache", "l2[0]", json{{"size", "16 KiB"}}, {{"in", 1}});
  auto& l2b = pf.create<Cache>("l2_cache", "l2[1]", json{{"size", "16 KiB"}}, {{"in", 1}});
  auto& join = pf.create("router", "join",
                         {{"address_map", json::parse(R"([{"base": "0x0", "size": "1 MiB", "ports": [0]}])")}},
                         {{"in", 2}, {"out", 1}});
  auto& mem = memory_below(pf);
  set_dram_u32(pf, 0x1000, 7);  // slice 0 (0x1000 / 128 is even)
  set_dram_u32(pf, 0x1080, 9);  // slice 1

  auto a_first = load(0x1000), a_stale = load(0x1000), a_fresh = load(0x1000);
  auto b_write = store(0x1000, 8), b_write2 = store(0x1080, 10);
  CommandPayload inv(CacheOp::Invalidate), flush0(CacheOp::WritebackInvalidate), flush1(CacheOp::WritebackInvalidate);
  uint32_t mem_before_flush = 0;
  Probe cu0("cu0", [&](Probe& p) {
    roundtrip(p, *a_first);
    wait(ns(600) - sc_core::sc_time_stamp());
    roundtrip(p, *a_stale);
    wait(ns(800) - sc_core::sc_time_stamp());
    roundtrip(p, *a_fresh);
  });
  Probe cu1("cu1", [&](Probe& p) {
    wait(ns(300));
    roundtrip(p, *b_write);
    roundtrip(p, *b_write2);
  });
  Probe cp_l1("cp_l1", [&](Probe& p) {
    wait(ns(700));
    roundtrip(p, inv);
  });
  Probe cp_l2("cp_l2", [&](Probe& p) {
    wait(ns(900));
    mem_before_flush = dram_u32(pf, 0x1000);
    roundtrip(p, flush0);
  });
  Probe cp_l2b("cp_l2b", [&](Probe& p) {
    wait(ns(900));
    roundtrip(p, flush1);
  });
  cu0.socket.bind(*l1a.target_socket("in", 0));
  cu1.socket.bind(*l1b.target_socket("in", 0));
  cp_l1.socket.bind(*l1a.target_socket("ctrl", -1));
  cp_l2.socket.bind(*l2a.target_socket("ctrl", -1));
  cp_l2b.socket.bind(*l2b.target_socket("ctrl", -1));
  l1a.out.bind(*xbar.target_socket("in", 0));
  l1b.out.bind(*xbar.target_socket("in", 1));
  xbar.initiator_socket("out", 0)->bind(*l2a.target_socket("in", 0));
  xbar.initiator_socket("out", 1)->bind(*l2b.target_socket("in", 0));
  l2a.out.bind(*join.target_socket("in", 0));
  l2b.out.bind(*join.target_socket("in", 1));
  join.initiator_socket("out", 0)->bind(mem.in);
  sc_core::sc_start();

  REQUIRE(a_first->u32() == 7);
  REQUIRE(a_stale->u32() == 7);       // cu0's L1 still holds the old line
  REQUIRE(a_fresh->u32() == 8);       // after the invalidate: from the L2, which has cu1's write
  REQUIRE(mem_before_flush == 7);     // the L2 is write-back: memory is behind until the flush
  REQUIRE(dram_u32(pf, 0x1000) == 8);
  REQUIRE(dram_u32(pf, 0x1080) == 10);
  REQUIRE(flush0.cmd->lines_written_back == 1);
  REQUIRE(flush1.cmd->lines_written_back == 1);
  REQUIRE(pf.stat("l2[0]", "hits") == 2);    // cu1's write and cu0's refetch
  REQUIRE(pf.stat("l2[0]", "misses") == 1);  // cu0's first read
  REQUIRE(pf.stat("l2[1]", "misses") == 1);  // cu1's partial write: fetched, then merged
  REQUIRE(pf.stat("cu0.l1v", "hits") == 1);
}
