// The functional path (b_transport, debug access), read-only caches, the
// request queue limit, and maintenance waiting for outstanding misses.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

TEST_CASE("cache b_transport: same data semantics as the timed path with uncontended latencies", "[cache][lt]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2",
                              json{{"hit_latency", 20}, {"miss_latency", 5}, {"maintenance_cycles", 2}}, {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  set_dram_u32(pf, 0x1000, 41);
  sc_time miss_delay, hit_delay, wb_delay;
  uint32_t dbg_value = 0, mem_after_store = 0;
  CommandPayload wb(CacheOp::Writeback);
  Probe probe("probe", [&](Probe& p) {
    auto r = load(0x1000);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(*r, d);
    miss_delay = d;
    REQUIRE(r->u32() == 41);
    auto w = store(0x1000, 42);
    d = SC_ZERO_TIME;
    p.socket->b_transport(*w, d);
    hit_delay = d;
    mem_after_store = dram_u32(pf, 0x1000);
    auto dbg = load(0x1000);
    REQUIRE(p.socket->transport_dbg(*dbg) == 4);
    dbg_value = dbg->u32();  // the dirty line, not memory
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(10));
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(wb, d);
    wb_delay = d;
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  ctrl.socket.bind(*l2.target_socket("ctrl", -1));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(miss_delay == ns(5 + 1 + 40));  // miss_latency + the memory's own delay for 128 B
  REQUIRE(hit_delay == ns(20));
  REQUIRE(mem_after_store == 41);  // write-back: memory is behind
  REQUIRE(dbg_value == 42);
  REQUIRE(wb.cmd->lines_written_back == 1);
  REQUIRE(wb_delay == ns(1 + 40 + 2));  // the writeback, then one line of walk
  REQUIRE(dram_u32(pf, 0x1000) == 42);
}

TEST_CASE("cache read-only: scalar and instruction caches answer writes with a command error", "[cache][lt]") {
  MiniPlatform pf;
  auto& sc = pf.create<Cache>("scalar_cache", "sc", json::object(), {{"in", 1}});
  auto& mem = memory_below(pf);
  auto w = store(0x40, 1);
  auto crossing = load(0x3c, 8);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *w);
    roundtrip(p, *crossing);
  });
  probe.socket.bind(*sc.target_socket("in", 0));
  sc.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(w->get_response_status() == tlm::TLM_COMMAND_ERROR_RESPONSE);
  REQUIRE(crossing->get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);  // crosses a 64-byte line
  REQUIRE(probe.time_of(*w, tlm::BEGIN_RESP) == ns(12));                     // answered after the hit latency
  REQUIRE(pf.stat("sc", "errors") == 2);
  REQUIRE(pf.stat("mem", "writes") == 0);
}

TEST_CASE("cache queue_depth: a full request queue withholds END_REQ until a response is taken", "[cache][lt]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3}, {"queue_depth", 2}},
                              {{"in", 1}});
  auto& mem = memory_below(pf);
  auto a = load(0x000), b = load(0x040), c = load(0x080);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;  // the script takes responses itself
    p.begin_req(*a);
    p.wait_for(*a, tlm::END_REQ);
    p.begin_req(*b);
    p.wait_for(*b, tlm::END_REQ);
    p.begin_req(*c);
    p.wait_for(*a, tlm::BEGIN_RESP);
    wait(ns(60) - sc_core::sc_time_stamp());
    p.end_resp(*a);
    p.wait_for(*b, tlm::BEGIN_RESP);
    p.end_resp(*b);
    p.wait_for(*c, tlm::BEGIN_RESP);
    p.end_resp(*c);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // a and b fill the queue at 0 and 1; c is accepted when a's END_RESP
  // frees a place at 60 (on that clock edge), its fill back at 60+3+1+40.
  REQUIRE(probe.time_of(*b, tlm::END_REQ) == ns(1));
  REQUIRE(probe.time_of(*a, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probe.time_of(*c, tlm::END_REQ) == ns(60));
  REQUIRE(probe.time_of(*b, tlm::BEGIN_RESP) == ns(60));  // ready at 45, waited for a's END_RESP
  REQUIRE(probe.time_of(*c, tlm::BEGIN_RESP) == ns(104));
}

TEST_CASE("cache maintenance: a command waits for outstanding misses and holds new requests meanwhile",
          "[cache][maintenance]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v",
                              json{{"hit_latency", 10}, {"miss_latency", 3}, {"maintenance_cycles", 2}}, {{"in", 2}});
  auto& mem = memory_below(pf);
  auto miss = load(0x100), held = load(0x100);
  CommandPayload inv(CacheOp::Invalidate);
  Probe p0("p0", [&](Probe& p) { roundtrip(p, *miss); });
  Probe p1("p1", [&](Probe& p) {
    wait(ns(20));
    roundtrip(p, *held);
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(10));
    roundtrip(p, inv);
  });
  p0.socket.bind(*l1.target_socket("in", 0));
  p1.socket.bind(*l1.target_socket("in", 1));
  ctrl.socket.bind(*l1.target_socket("ctrl", -1));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // The fill returns at 44; the invalidate accepted at 10 drains until then,
  // walks the one valid line (2 cycles) and answers at 46. The request that
  // arrived at 20 is accepted only then, and misses.
  REQUIRE(p0.time_of(*miss, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(ctrl.time_of(inv, tlm::END_REQ) == ns(10));
  REQUIRE(ctrl.time_of(inv, tlm::BEGIN_RESP) == ns(46));
  REQUIRE(inv.cmd->lines_invalidated == 1);
  REQUIRE(p1.time_of(*held, tlm::END_REQ) == ns(46));
  REQUIRE(p1.time_of(*held, tlm::BEGIN_RESP) == ns(46 + 3 + 1 + 40));
  REQUIRE(pf.stat("l1v", "maintenance_cycles") == 36);
}
