// Early responses (GpuAccess::early_response): a requester that completes
// every BEGIN_RESP at once is answered from the tag lookup, with BEGIN_RESP
// annotated with the time the answer is due standing for END_REQ. Its answers
// must come at exactly the times the four-phase path gives, and its queue
// places must free at those times, not when the answer is sent.
#include <catch2/catch.hpp>

#include "cache_test_support.h"
#include "models/noc/crossbar.h"

using namespace tessera;
using namespace tessera::test;

namespace {

std::unique_ptr<GpuPayload> early_load(uint64_t addr) {
  auto p = load(addr);
  p->ext->early_response = true;
  return p;
}
}  // namespace

TEST_CASE("early responses: hits and misses are answered at the four-phase path's times", "[cache][early]") {
  MiniPlatform pf;
  const auto run = run_miss_hit_miss(pf, true);
  const Probe& probe = *run->probe;
  GpuPayload *miss = run->miss.get(), *hit = run->hit.get(), *other = run->other.get();

  // The same times as the four-phase test in l1v_cache_test.cpp: a miss is
  // accepted (END_REQ) and answered when its fill is back, 3 + 1 + 40 ns; a
  // hit accepted at 100 is answered at once, annotated for 110, with no END_REQ.
  REQUIRE(probe.time_of(*miss, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(*miss, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(miss->u32() == 0x5a5a5a5a);
  REQUIRE(probe.time_of(*hit, tlm::END_REQ) == sc_core::sc_max_time());
  REQUIRE(probe.time_of(*hit, tlm::BEGIN_RESP) == ns(110));
  REQUIRE(hit->u32() == 0x5a5a5a5a);
  REQUIRE(probe.time_of(*other, tlm::BEGIN_RESP) == ns(154));
  REQUIRE(pf.stat("l1v", "hits") == 1);
  REQUIRE(pf.stat("l1v", "misses") == 2);
  REQUIRE(pf.stat("l1v", "requests_load") == 3);
  // Two fills went below (the first miss and the other line); the hit made none.
  REQUIRE(pf.stat("mem", "reads") == 2);
}

TEST_CASE("early responses: a hit holds its queue place until its answer is due", "[cache][early]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3}, {"queue_depth", 2}},
                              {{"in", 2}});
  auto& mem = memory_below(pf);
  auto warm = early_load(0x000), a = early_load(0x004), b = early_load(0x008), c = early_load(0x00c);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *warm);  // the line is cached from 44 on
    wait(ns(100) - sc_core::sc_time_stamp());
    p.begin_req(*a);
    p.wait_for(*a, tlm::BEGIN_RESP);
  });
  // Two more requesters ask in the same cycles as a; with two places, c waits.
  Probe second("second", [&](Probe& p) {
    wait(ns(101));
    p.begin_req(*b);
    wait(ns(1));
    p.begin_req(*c);
    p.wait_for(*c, tlm::BEGIN_RESP);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  second.socket.bind(*l1.target_socket("in", 1));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // a (accepted at 100) and b (101) hold both places until 110 and 111; c,
  // arriving at 102, is accepted when a's place frees at 110 and answered
  // ten cycles later, as a four-phase requester taking each answer at once
  // would see it.
  REQUIRE(probe.time_of(*a, tlm::BEGIN_RESP) == ns(110));
  REQUIRE(second.time_of(*b, tlm::BEGIN_RESP) == ns(111));
  REQUIRE(second.time_of(*c, tlm::BEGIN_RESP) == ns(120));
  REQUIRE(c->u32() == 0);
  REQUIRE(pf.stat("l1v", "hits") == 3);
}

TEST_CASE("early responses: a crossbar between requester and cache takes the four phases", "[cache][early]") {
  MiniPlatform pf;
  // One input, one output; the input's response buffer holds one response
  // and its link moves one byte per cycle, so answers close together must
  // wait in the crossbar, which an early answer could not.
  json map = json::parse(R"([{"base": 0, "size": "64 KiB", "ports": [0]}])");
  auto& xbar = pf.create<Crossbar>(
      "crossbar", "xbar",
      json{{"address_map", map}, {"in_width", 1}, {"out_width", 0}, {"latency", 0}, {"response_queue_depth", 1}},
      {{"in", 1}, {"out", 1}});
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", kL1, {{"in", 1}});
  auto& mem = memory_below(pf);
  dram(pf).fill(0x200, 0x33, 192);
  auto a = early_load(0x200), b = early_load(0x240), c = early_load(0x280);
  Probe probe("probe", [&](Probe& p) {
    for (auto* t : {a.get(), b.get(), c.get()}) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::END_REQ);
    }
    for (auto* t : {a.get(), b.get(), c.get()}) p.wait_for(*t, tlm::BEGIN_RESP);
  });
  probe.socket.bind(*xbar.target_socket("in", 0));
  xbar.initiator_socket("out", 0)->bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();  // an early answer held by the crossbar would be a protocol error

  for (auto* t : {a.get(), b.get(), c.get()}) REQUIRE(t->u32() == 0x33333333);
  REQUIRE(pf.stat("l1v", "misses") == 3);
  REQUIRE(pf.stat("l1v", "errors") == 0);
  // Each 4-byte answer crosses the input link in 4 cycles, one after another.
  REQUIRE(probe.time_of(*b, tlm::BEGIN_RESP) - probe.time_of(*a, tlm::BEGIN_RESP) >= ns(4));
  REQUIRE(probe.time_of(*c, tlm::BEGIN_RESP) - probe.time_of(*b, tlm::BEGIN_RESP) >= ns(4));
}

TEST_CASE("early responses: a forwarded write's answer frees its queue place for a waiting request",
          "[cache][early]") {
  MiniPlatform pf;
  // One place: the write-through store holds it until memory answers it, and
  // the load behind it must be accepted then (it used to wait forever).
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3}, {"queue_depth", 1}},
                              {{"in", 1}});
  auto& mem = memory_below(pf);
  set_dram_u32(pf, 0x200, 0x1234);
  auto w = store(0x100, 7);
  auto r = early_load(0x200);
  w->ext->early_response = true;
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(*w);
    wait(ns(1));
    p.begin_req(*r);
    p.wait_for(*r, tlm::BEGIN_RESP);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  const sc_core::sc_time written = probe.time_of(*w, tlm::BEGIN_RESP);
  REQUIRE(written > ns(40));  // forwarded after 3 cycles, 40 ns in memory
  REQUIRE(written < sc_core::sc_max_time());
  // The load is accepted (END_REQ) when the store's answer frees the place,
  // and then misses: answered a fill round trip later, with memory's data.
  REQUIRE(probe.time_of(*r, tlm::END_REQ) == written);
  REQUIRE(probe.time_of(*r, tlm::BEGIN_RESP) > written + ns(40));
  REQUIRE(r->u32() == 0x1234);
  REQUIRE(dram_u32(pf, 0x100) == 7);
}

TEST_CASE("early responses: a cache's next request leaves when the level below takes its last, not when it answers",
          "[cache][early]") {
  MiniPlatform pf;
  // Two L1s share an L2 that looks up one request per cycle, so in each cycle
  // one of their fills waits and is answered early from the L2's queue:
  // BEGIN_RESP annotated with the hit's time stands for END_REQ now, and the
  // L1 may send its next fill in the next cycle. Taking the request at the
  // answer's time instead held each L1's misses 20 cycles apart.
  auto& a = pf.create<Cache>("l1v_cache", "a", kL1, {{"in", 1}});
  auto& b = pf.create<Cache>("l1v_cache", "b", kL1, {{"in", 1}});
  auto& l2 = pf.create<Cache>("l2_cache", "l2", json{{"hit_latency", 20}, {"miss_latency", 4}, {"ports", 1}},
                              {{"in", 2}});
  auto& mem = memory_below(pf);
  dram(pf).fill(0x0, 0x66, 2048);
  std::vector<std::unique_ptr<GpuPayload>> warm, from_a, from_b;
  for (uint64_t i = 0; i < 8; ++i) warm.push_back(load(i * 128));
  for (uint64_t i = 0; i < 4; ++i) {
    from_a.push_back(early_load(i * 128));
    from_b.push_back(early_load(512 + i * 128));
  }
  const auto burst = [](Probe& p, std::vector<std::unique_ptr<GpuPayload>>& loads) {
    wait(ns(1000) - sc_core::sc_time_stamp());
    for (auto& t : loads) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::END_REQ);  // an L1 miss is accepted at once
    }
    for (auto& t : loads) p.wait_for(*t, tlm::BEGIN_RESP);
  };
  Probe pa("pa", [&](Probe& p) {
    for (auto& t : warm) roundtrip(p, *t);  // the 8 lines into the L2 (and 0..3 into a, then invalidated below)
    burst(p, from_a);
  });
  Probe pb("pb", [&](Probe& p) { burst(p, from_b); });
  pa.socket.bind(*a.target_socket("in", 0));
  pb.socket.bind(*b.target_socket("in", 0));
  a.out.bind(*l2.target_socket("in", 0));
  b.out.bind(*l2.target_socket("in", 1));
  l2.out.bind(mem.in);
  // a's copies of lines 0..3 would make its burst hit: its lines are 64 B, so
  // the warm-up's loads at i * 128 left lines 0x000, 0x080, ... in a; the
  // burst reads 64 B further on.
  for (auto& t : from_a) t->set_address(t->get_address() + 64);
  sc_core::sc_start();

  REQUIRE(pf.stat("l2", "hits") == 8);  // every burst fill hits the L2 (the 64 B halves of warmed lines)
  sc_core::sc_time last = sc_core::SC_ZERO_TIME;
  for (auto* side : {&from_a, &from_b})
    for (auto& t : *side) {
      REQUIRE(t->u32() == 0x66666666);
      last = std::max(last, (side == &from_a ? pa : pb).time_of(*t, tlm::BEGIN_RESP));
    }
  // Eight fills, one L2 lookup per cycle, each answered 20 cycles after it is
  // taken: all answered within 3 + 8 + 20 cycles and a few cycles of links.
  REQUIRE(last < ns(1000 + 40));
}
