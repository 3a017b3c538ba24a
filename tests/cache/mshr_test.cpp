// MSHRs: misses to an outstanding line merge; a miss that finds no MSHR (or
// no free target in its line's MSHR) waits without END_REQ, and is accepted
// the cycle a fill frees one.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

namespace {
json l1_params(json extra) {
  json p = {{"hit_latency", 10}, {"miss_latency", 3}, {"ports", 1}, {"banks", 1}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}
}  // namespace

TEST_CASE("cache MSHRs: misses to one line merge until the MSHR's targets are used up", "[cache][mshr]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", l1_params({{"mshr_targets", 2}}), {{"in", 3}});
  auto& mem = memory_below(pf);
  dram(pf).fill(0x1000, 0x11, 64);
  auto a = load(0x1000), b = load(0x1010), c = load(0x1020);
  std::vector<std::unique_ptr<Probe>> probes;
  GpuPayload* reqs[3] = {a.get(), b.get(), c.get()};
  for (int i = 0; i < 3; ++i) {
    GpuPayload* r = reqs[i];
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [r](Probe& p) { roundtrip(p, *r); }));
    probes.back()->socket.bind(*l1.target_socket("in", i));
  }
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // One request per cycle (ports 1): a opens the MSHR at 0 (fill leaves at
  // 3, back at 3 + 1 + 40 = 44), b merges at 1, c finds both targets taken
  // and waits without END_REQ until the fill frees the MSHR at 44, then hits.
  REQUIRE(probes[0]->time_of(*a, tlm::END_REQ) == ns(0));
  REQUIRE(probes[1]->time_of(*b, tlm::END_REQ) == ns(1));
  REQUIRE(probes[2]->time_of(*c, tlm::END_REQ) == ns(44));
  REQUIRE(probes[0]->time_of(*a, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probes[1]->time_of(*b, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probes[2]->time_of(*c, tlm::BEGIN_RESP) == ns(54));
  for (GpuPayload* r : reqs) REQUIRE(r->u32() == 0x11111111);
  REQUIRE(pf.stat("l1v", "mshr_merges") == 1);
  REQUIRE(pf.stat("l1v", "mshr_full_stalls") == 1);
  REQUIRE(pf.stat("l1v", "misses") == 2);
  REQUIRE(pf.stat("l1v", "hits") == 1);
  REQUIRE(pf.stat("l1v", "fills") == 1);
  REQUIRE(pf.stat("mem", "reads") == 1);
}

TEST_CASE("cache MSHRs: with every MSHR busy a new miss gets END_REQ only when a fill returns", "[cache][mshr]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", l1_params({{"mshrs", 2}}), {{"in", 3}});
  auto& mem = memory_below(pf);
  auto a = load(0x0000), b = load(0x0040), c = load(0x0080);
  std::vector<std::unique_ptr<Probe>> probes;
  GpuPayload* reqs[3] = {a.get(), b.get(), c.get()};
  for (int i = 0; i < 3; ++i) {
    GpuPayload* r = reqs[i];
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [r](Probe& p) { roundtrip(p, *r); }));
    probes.back()->socket.bind(*l1.target_socket("in", i));
  }
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // a and b take both MSHRs at 0 and 1; their fills leave at 3 and 4 and
  // return at 44 and 45. c waits from cycle 2 to 44 without END_REQ; its
  // fill leaves at 47 and returns at 47 + 1 + 40 = 88.
  REQUIRE(probes[0]->time_of(*a, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probes[1]->time_of(*b, tlm::END_REQ) == ns(1));
  REQUIRE(probes[1]->time_of(*b, tlm::BEGIN_RESP) == ns(45));
  REQUIRE(probes[2]->time_of(*c, tlm::END_REQ) == ns(44));
  REQUIRE(probes[2]->time_of(*c, tlm::BEGIN_RESP) == ns(88));
  REQUIRE(pf.stat("l1v", "mshr_full_stalls") == 1);
  REQUIRE(pf.stat("l1v", "mshr_merges") == 0);
  REQUIRE(pf.stat("l1v", "misses") == 3);
}

TEST_CASE("cache ports and banks: two ports accept two requests per cycle on different banks only",
          "[cache][mshr]") {
  MiniPlatform pf;
  // 2 banks (line number modulo 2): 0x000 and 0x080 are bank 0, 0x040 bank 1.
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", l1_params({{"ports", 2}, {"banks", 2}}), {{"in", 3}});
  auto& mem = memory_below(pf);
  auto a = load(0x000), b = load(0x080), c = load(0x040);
  std::vector<std::unique_ptr<Probe>> probes;
  GpuPayload* reqs[3] = {a.get(), b.get(), c.get()};
  for (int i = 0; i < 3; ++i) {
    GpuPayload* r = reqs[i];
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [r](Probe& p) { roundtrip(p, *r); }));
    probes.back()->socket.bind(*l1.target_socket("in", i));
  }
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // Cycle 0: a (bank 0) and c (bank 1); b (bank 0) waits for cycle 1.
  REQUIRE(probes[0]->time_of(*a, tlm::END_REQ) == ns(0));
  REQUIRE(probes[2]->time_of(*c, tlm::END_REQ) == ns(0));
  REQUIRE(probes[1]->time_of(*b, tlm::END_REQ) == ns(1));
}
