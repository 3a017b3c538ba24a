// Ordering hazards a cache must get right: a write that passes a pending
// fill, requests waiting on one MSHR, and a fill that must not overtake the
// writeback of its own line.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

TEST_CASE("cache ordering: a write-through write to a line being filled is applied to the arriving line",
          "[cache][ordering]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3}}, {{"in", 2}});
  auto& mem = memory_below(pf);
  set_dram_u32(pf, 0x500, 1);
  auto miss = load(0x500), later = load(0x500);
  auto w = store(0x500, 2);
  Probe reader("reader", [&](Probe& p) {
    roundtrip(p, *miss);
    wait(ns(100) - sc_core::sc_time_stamp());
    roundtrip(p, *later);
  });
  Probe writer("writer", [&](Probe& p) {
    wait(ns(1));
    roundtrip(p, *w);
  });
  reader.socket.bind(*l1.target_socket("in", 0));
  writer.socket.bind(*l1.target_socket("in", 1));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // The fill leaves at 3 and reads memory before the write (leaving at 4)
  // reaches it, so it brings the old value; the write recorded in the MSHR
  // is applied on arrival. The first read was ordered before the write.
  REQUIRE(miss->u32() == 1);
  REQUIRE(later->u32() == 2);
  REQUIRE(pf.stat("l1v", "hits") == 1);    // later
  REQUIRE(pf.stat("l1v", "misses") == 2);  // miss, and the write (not allocated)
  REQUIRE(dram_u32(pf, 0x500) == 2);
}

TEST_CASE("cache ordering: requests waiting on one MSHR are applied in arrival order", "[cache][ordering]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2",
                              json{{"size", "1 KiB"}, {"ways", 2}, {"banks", 1}, {"indexing", "modulo"},
                                   {"hit_latency", 20}, {"miss_latency", 5}},
                              {{"in", 3}});
  auto& mem = memory_below(pf, "128 GB/s");
  set_dram_u32(pf, 0x600, 1);
  auto before = load(0x600), after = load(0x600);
  auto w = store(0x600, 2);
  GpuPayload* reqs[3] = {before.get(), w.get(), after.get()};
  std::vector<std::unique_ptr<Probe>> probes;
  for (int i = 0; i < 3; ++i) {
    GpuPayload* r = reqs[i];
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [r, i](Probe& p) {
      wait(ns(i));  // one per cycle, in this order
      roundtrip(p, *r);
    }));
    probes.back()->socket.bind(*l2.target_socket("in", i));
  }
  l2.out.bind(mem.in);
  sc_core::sc_start();

  // All three wait on the fill (back at 5 + 1 + 40 = 46) and are answered then,
  // each seeing the line as the earlier ones left it.
  for (int i = 0; i < 3; ++i) REQUIRE(probes[i]->time_of(*reqs[i], tlm::BEGIN_RESP) == ns(46));
  REQUIRE(before->u32() == 1);
  REQUIRE(after->u32() == 2);
  REQUIRE(pf.stat("l2", "mshr_merges") == 2);
  REQUIRE(dram_u32(pf, 0x600) == 1);  // write-back: still only in the L2
}

TEST_CASE("cache ordering: a fill waits for the writeback of its own line", "[cache][ordering]") {
  MiniPlatform pf;
  // 4 sets of 2 ways of 128 B: 0x000, 0x200, 0x400 share set 0.
  auto& l2 = pf.create<Cache>("l2_cache", "l2",
                              json{{"size", "1 KiB"}, {"ways", 2}, {"banks", 1}, {"indexing", "modulo"},
                                   {"hit_latency", 20}, {"miss_latency", 5}},
                              {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  GpuPayload x(tlm::TLM_WRITE_COMMAND, 0x000, 128, AccessKind::Store);
  for (int i = 0; i < 128; ++i) x.buffer[i] = static_cast<uint8_t>(0x80 + i);
  auto y = load(0x200), z = load(0x400), x_again = load(0x000);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, x);  // allocated dirty without a fill, answered at 20
    roundtrip(p, *y);
    roundtrip(p, *z);  // evicts x, the LRU line: its writeback leaves as z's fill returns
    roundtrip(p, *x_again);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  // y: accepted 20, fill back at 20 + 5 + 1 + 40 = 66. z: 66 + 46 = 112;
  // x's writeback leaves at 112 and is answered at 153. x_again misses at
  // 112, and its fill leaves only at 153: answered at 153 + 1 + 40 = 194
  // (sent right away it would have been answered at 158).
  REQUIRE(probe.time_of(*y, tlm::BEGIN_RESP) == ns(66));
  REQUIRE(probe.time_of(*z, tlm::BEGIN_RESP) == ns(112));
  REQUIRE(probe.time_of(*x_again, tlm::BEGIN_RESP) == ns(194));
  REQUIRE(x_again->u32() == 0x83828180);
  REQUIRE(pf.stat("l2", "writebacks") == 1);
  REQUIRE(pf.stat("l2", "evictions") == 2);  // x by z, then y by x_again
}
