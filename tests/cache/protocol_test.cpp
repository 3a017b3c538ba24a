// Negative tests: a cache stops a requester that breaks the base protocol on
// its in[] sockets, naming itself, the rule and the transaction.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("protocol: l1v_cache reports END_REQ on in[0]", "[cache][protocol]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", kL1, {{"in", 1}});
  auto& mem = memory_below(pf);
  auto r = load(0x40);
  Probe probe("probe", [&](Probe& p) { p.send_phase(*r, tlm::END_REQ); });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("l1v") &&
                                               Catch::Contains("protocol violation: unexpected phase END_REQ on in[0] "
                                                               "for read of 4 bytes at 0x40"));
}

TEST_CASE("protocol: l2_cache reports an END_RESP for a response not in flight", "[cache][protocol]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", json::object(), {{"in", 1}});
  auto& mem = memory_below(pf);
  auto r = load(0x80);
  Probe probe("probe", [&](Probe& p) { p.send_phase(*r, tlm::END_RESP); });
  probe.socket.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("l2") && Catch::Contains("protocol violation: END_RESP for "
                                                                                    "a response not in flight"));
}
