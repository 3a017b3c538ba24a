// The zero cache (LazyGPU) carved out of a cache: its share of capacity,
// mask lines per memory partition, ZeroMask queries (hit, miss, passed down,
// routed to the slice that homes the data), masks kept coherent with stores,
// and maintenance.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

namespace {

std::unique_ptr<GpuPayload> query(uint64_t addr, unsigned len = 64) {
  return std::make_unique<GpuPayload>(tlm::TLM_READ_COMMAND, addr, len, AccessKind::ZeroMask);
}

// A store of `len` bytes of `byte` at `addr`.
std::unique_ptr<GpuPayload> store_bytes(uint64_t addr, unsigned len, uint8_t byte) {
  auto p = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, addr, len, AccessKind::Store);
  std::fill(p->buffer.begin(), p->buffer.end(), byte);
  return p;
}

// 4 sets of 2 ways of 128 B, modulo indexing, plus `extra`.
json small_l2(json extra = json::object()) {
  json p = {{"size", "1 KiB"}, {"ways", 2}, {"line_size", "128 B"}, {"banks", 1}, {"indexing", "modulo"},
            {"hit_latency", 20}, {"miss_latency", 5}, {"maintenance_cycles", 2}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}

std::string error_of(const char* type, const json& params) {
  MiniPlatform pf;
  try {
    pf.create<Cache>(type, "sa.l1v", params, {{"in", 1}});
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("zero cache: its share is carved out of the data cache's sets", "[cache][zero]") {
  for (const json& fraction : {json("1/8"), json(0.125), json("2 KiB")}) {
    MiniPlatform pf;
    auto& l1 = pf.create<Cache>("l1v_cache", "l1v", {{"size", "16 KiB"}, {"zero_fraction", fraction}}, {{"in", 1}});
    REQUIRE(l1.zero_cache() != nullptr);
    REQUIRE(l1.array().sets() == 56);  // 14 KiB of 4 ways of 64 B
    REQUIRE(l1.config().zero_sets() == 8);
    REQUIRE(l1.zero_cache()->coverage() == 2048);  // a 64 B mask line covers 2 KiB
  }
  MiniPlatform pf;
  auto& off = pf.create<Cache>("l1v_cache", "l1v", {{"size", "16 KiB"}}, {{"in", 1}});
  REQUIRE(off.zero_cache() == nullptr);
  REQUIRE(off.array().sets() == 64);
  // An XOR-indexed L2 keeps working with the 56 sets 1/8 leaves it (fold, then modulo).
  auto& l2 = pf.create<Cache>("l2_cache", "l2", {{"size", "128 KiB"}, {"zero_fraction", "1/8"}}, {{"in", 1}});
  REQUIRE(l2.array().sets() == 56);
  REQUIRE(l2.config().zero_sets() == 8);
}

TEST_CASE("zero cache: impossible splits are clear errors", "[cache][zero][config]") {
  using Catch::Matchers::Contains;
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "1/3"}}), Contains("sa.l1v") && Contains("zero_fraction"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "1/128"}}), Contains("not a whole number of sets"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "16 KiB"}}), Contains("leaving nothing"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", 1.5}}), Contains("not a fraction below 1"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "half"}}), Contains("zero_fraction"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "3/2"}}), Contains("A/B with 0 <= A < B"));
  REQUIRE_THAT(error_of("scalar_cache", {{"zero_fraction", "1/8"}}), Contains("read_only"));
  REQUIRE_THAT(error_of("l1v_cache", {{"zero_fraction", "1/8"}, {"zero_interleave", "32 B"}}),
               Contains("zero_interleave"));
  REQUIRE(error_of("l1v_cache", {{"zero_fraction", "1/16"}}).empty());
  REQUIRE(error_of("l1v_cache", {{"zero_fraction", 0}}).empty());
}

TEST_CASE("zero cache: a mask line covers the words of one memory partition", "[cache][zero]") {
  CacheConfig c;
  c.ways = 16;
  c.line_size = 128;
  c.zero_bytes = 16 * 1024;
  c.zero_interleave = 128;
  c.zero_partitions = 16;
  StatGroup stats("l2");
  ZeroCache z(c, stats);
  REQUIRE(z.coverage() == 4096);
  // Partition 0 holds chunks 0, 16, 32...: 32 of its chunks (4 KiB) share a mask line.
  REQUIRE(z.key_of(0x0) == z.key_of(0x10 * 128));
  REQUIRE(z.key_of(0x0) == z.key_of(31 * 16 * 128 + 124));
  REQUIRE(z.key_of(0x0) != z.key_of(32 * 16 * 128));
  REQUIRE(z.key_of(0x0) != z.key_of(0x80));  // partition 1
  REQUIRE(z.first_address(z.key_of(0x80 + 5 * 16 * 128)) == 0x80);
  REQUIRE(z.first_address(z.key_of(32 * 16 * 128 + 0x100 + 8)) == 32 * 16 * 128 + 0x100);
  REQUIRE(ZeroCache::is_key(z.key_of(0x1234)));
  // Without partitions a mask line covers contiguous data.
  c.zero_interleave = 0;
  c.zero_partitions = 1;
  StatGroup stats2("l1");
  ZeroCache flat(c, stats2);
  REQUIRE(flat.key_of(0x0) == flat.key_of(4095));
  REQUIRE(flat.first_address(flat.key_of(4096 + 100)) == 4096);
}

TEST_CASE("zero cache: a query miss fetches its mask line from below and the next query hits without touching data",
          "[cache][zero]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3},
                                                      {"zero_fraction", "1/8"}}, {{"in", 1}});
  auto& mem = memory_below(pf);
  set_dram_u32(pf, 0x100, 5);
  auto miss = query(0x100), hit = query(0x7c0), other = query(0x800), data = load(0x100);
  sc_time hit_sent;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *miss);
    wait(ns(100) - sc_core::sc_time_stamp());
    hit_sent = sc_core::sc_time_stamp();
    roundtrip(p, *hit);
    roundtrip(p, *other);
    roundtrip(p, *data);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  // The mask fill leaves 3 cycles after acceptance: 64 B in 1 ns + 40 ns.
  REQUIRE(probe.time_of(*miss, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probe.time_of(*hit, tlm::BEGIN_RESP) == hit_sent + ns(10));  // same 2 KiB: one mask line
  REQUIRE(miss->get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(pf.stat("l1v", "zero_misses") == 2);  // 0x100 and 0x800
  REQUIRE(pf.stat("l1v", "zero_hits") == 1);
  REQUIRE(pf.stat("l1v", "zero_fills") == 2);
  // The data array saw only the load: the queries neither hit nor filled it.
  REQUIRE(pf.stat("l1v", "misses") == 1);
  REQUIRE(pf.stat("l1v", "hits") == 0);
  REQUIRE(pf.stat("l1v", "fills") == 1);
  REQUIRE(data->u32() == 5);
  REQUIRE(pf.stat("mem", "reads") == 3);  // two mask lines, one data line
}

TEST_CASE("zero cache: a cache without one passes a query below unchanged", "[cache][zero]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", kL1, {{"in", 1}});
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2({{"zero_fraction", "1/2"}}), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  auto q = query(0x40), again = query(0x80);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *q);
    roundtrip(p, *again);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();
  REQUIRE(pf.stat("l1v", "forwarded") == 2);
  REQUIRE(pf.stat("l1v", "misses") == 0);
  REQUIRE(pf.stat("l2", "zero_misses") == 1);
  REQUIRE(pf.stat("l2", "zero_hits") == 1);
  REQUIRE(pf.stat("l2", "fills") == 0);
  // L1 forward leaves at 3, the L2 accepts it then: mask fill at +5, 128 B in 1 ns + 40 ns.
  REQUIRE(probe.time_of(*q, tlm::BEGIN_RESP) == ns(3 + 5 + 41));
}

TEST_CASE("zero cache: a mask miss goes to the L2 slice that homes the data and on to memory", "[cache][zero]") {
  MiniPlatform pf;
  const json part = {{"zero_fraction", "1/2"}, {"zero_interleave", "128 B"}, {"zero_partitions", 2}};
  json l1p = {{"hit_latency", 10}, {"miss_latency", 3}};
  for (auto& item : part.items()) l1p[item.key()] = item.value();
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", l1p, {{"in", 1}});
  auto& xbar = pf.create("router", "xbar",
                         {{"address_map", json::parse(R"([{"base": "0x0", "size": "1 MiB", "ports": [0, 1],
                                                           "interleave": 128}])")}},
                         {{"in", 1}, {"out", 2}});
  auto& l2a = pf.create<Cache>("l2_cache", "l2[0]", small_l2(part), {{"in", 1}});
  auto& l2b = pf.create<Cache>("l2_cache", "l2[1]", small_l2(part), {{"in", 1}});
  auto& join = pf.create("router", "join",
                         {{"address_map", json::parse(R"([{"base": "0x0", "size": "1 MiB", "ports": [0]}])")}},
                         {{"in", 2}, {"out", 1}});
  auto& mem = memory_below(pf);
  // 0x1080 and 0x1180 are slice 1's (odd 128 B chunks), 16 of its chunks apart
  // at most: one L1 mask line (2 KiB of slice 1's data). 0x1000 is slice 0's.
  auto q1 = query(0x1080), q2 = query(0x1180), q0 = query(0x1000);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *q1);
    roundtrip(p, *q2);
    roundtrip(p, *q0);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(*xbar.target_socket("in", 0));
  xbar.initiator_socket("out", 0)->bind(*l2a.target_socket("in", 0));
  xbar.initiator_socket("out", 1)->bind(*l2b.target_socket("in", 0));
  l2a.out.bind(*join.target_socket("in", 0));
  l2b.out.bind(*join.target_socket("in", 1));
  join.initiator_socket("out", 0)->bind(mem.in);
  sc_core::sc_start();

  for (auto* q : {q1.get(), q2.get(), q0.get()}) REQUIRE(q->get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(pf.stat("l1v", "zero_misses") == 2);
  REQUIRE(pf.stat("l1v", "zero_hits") == 1);
  REQUIRE(pf.stat("l2[1]", "zero_misses") == 1);  // q1's mask fill, homed with its data
  REQUIRE(pf.stat("l2[0]", "zero_misses") == 1);  // q0's
  REQUIRE(pf.stat("l2[1]", "zero_fills") == 1);
  REQUIRE(pf.stat("l2[0]", "fills") + pf.stat("l2[1]", "fills") == 0);
  REQUIRE(pf.stat("mem", "reads") == 2);  // one 128 B mask line per slice
}

TEST_CASE("zero cache: masks stay coherent under mixed stores and zero-only stores move no data",
          "[cache][zero]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2({{"zero_fraction", "1/2"}}), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  for (uint64_t a = 0x0; a < 0x100; a += 4) set_dram_u32(pf, a, 0x11111111);
  auto zero_whole = store_bytes(0x10, 8, 0);       // whole words of zeros: zero cache only
  auto zero_partial = store_bytes(0x21, 2, 0);     // zeros, but not whole words: data path
  auto nonzero = store(0x30, 7);                   // data path; the mask line is updated too
  auto cached = load(0x80);                        // brings line 0x80 in
  auto zero_cached = store_bytes(0x84, 4, 0);      // zero-only store to a cached line
  auto r0 = load(0x10, 8), r1 = load(0x20, 4), r2 = load(0x30), r3 = load(0x84);
  uint32_t mem_0x10_at_once = 1, mem_0x84_at_once = 1;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *zero_whole);
    mem_0x10_at_once = dram_u32(pf, 0x10);
    roundtrip(p, *zero_partial);
    roundtrip(p, *nonzero);
    roundtrip(p, *cached);
    roundtrip(p, *zero_cached);
    mem_0x84_at_once = dram_u32(pf, 0x84);
    for (auto* r : {r0.get(), r1.get(), r2.get(), r3.get()}) roundtrip(p, *r);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(pf.stat("l2", "zero_stores") == 2);
  REQUIRE(pf.stat("l2", "zero_bytes_saved") == 12);
  REQUIRE(pf.stat("l2", "zero_misses") == 1);  // the first zero store fetched the mask line
  REQUIRE(pf.stat("l2", "zero_hits") == 1);
  // The zero-only stores' bytes are where every reader looks, at once.
  REQUIRE(mem_0x10_at_once == 0);
  REQUIRE(mem_0x84_at_once == 0);
  REQUIRE(r0->u32(0) == 0);
  REQUIRE(r0->u32(4) == 0);
  REQUIRE(r1->u32() == 0x11000011);
  REQUIRE(r2->u32() == 7);
  REQUIRE(r3->u32() == 0);
  // Line 0x00 was fetched by the partial store, after the zeros were below.
  REQUIRE(pf.stat("l2", "fills") == 2);
  // The first zero store answered when its mask line arrived: 5 + 1 + 40.
  REQUIRE(probe.time_of(*zero_whole, tlm::BEGIN_RESP) == ns(46));
}

TEST_CASE("zero cache: maintenance writes back and drops mask lines like data lines", "[cache][zero]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2({{"zero_fraction", "1/2"}}), {{"in", 2}});
  auto& mem = memory_below(pf, "128 GB/s");
  set_dram_u32(pf, 0x0, 0x33333333);     // where mask line 0's writeback is addressed
  set_dram_u32(pf, 0x1000, 0x22222222);  // first word of mask line 1's coverage (4 KiB)
  auto dirty = store_bytes(0x40, 4, 0);  // mask line 0, dirty
  auto clean = query(0x1000);            // mask line 1, clean
  auto after = query(0x1004);
  CommandPayload wb(CacheOp::Writeback), inv(CacheOp::WritebackInvalidate);
  uint64_t writes_before = 0;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *dirty);
    roundtrip(p, *clean);
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(200));
    writes_before = pf.stat("mem", "writes");
    roundtrip(p, wb);
    roundtrip(p, inv);
  });
  Probe later("later", [&](Probe& p) {
    wait(ns(500));
    roundtrip(p, *after);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  later.socket.bind(*l2.target_socket("in", 1));
  ctrl.socket.bind(*l2.target_socket("ctrl", -1));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(wb.cmd->lines_written_back == 1);  // the dirty mask line
  REQUIRE(inv.cmd->lines_written_back == 0);
  REQUIRE(inv.cmd->lines_invalidated == 2);  // both mask lines
  REQUIRE(pf.stat("l2", "zero_writebacks") == 1);
  REQUIRE(pf.stat("mem", "writes") == writes_before + 1);  // the mask bytes moved...
  REQUIRE(dram_u32(pf, 0x1000) == 0x22222222);             // ...and changed no data
  REQUIRE(dram_u32(pf, 0x0) == 0x33333333);
  REQUIRE(pf.stat("l2", "zero_misses") == 3);               // the query after the invalidate misses again
}

// zero_hit_latency (a what-if: the paper gives no zero-cache latency) answers
// a query that hits the mask array in its own time; data hits keep hit_latency.
TEST_CASE("zero cache: zero_hit_latency times a query's hit, not a data hit", "[cache][zero]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3},
                                                      {"zero_fraction", "1/8"}, {"zero_hit_latency", 2}},
                              {{"in", 1}});
  auto& mem = memory_below(pf);
  auto miss = query(0x100), hit = query(0x7c0), fill = load(0x100), data = load(0x100);
  sc_time hit_sent, data_sent, lt_hit;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *miss);
    roundtrip(p, *fill);
    wait(ns(200) - sc_core::sc_time_stamp());
    hit_sent = sc_core::sc_time_stamp();
    roundtrip(p, *hit);
    wait(ns(300) - sc_core::sc_time_stamp());
    data_sent = sc_core::sc_time_stamp();
    roundtrip(p, *data);
    auto again = query(0x140);
    sc_time d = sc_core::SC_ZERO_TIME;
    p.socket->b_transport(*again, d);
    lt_hit = d;
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(*miss, tlm::BEGIN_RESP) == ns(44));  // a miss is timed as before
  REQUIRE(probe.time_of(*hit, tlm::BEGIN_RESP) == hit_sent + ns(2));
  REQUIRE(probe.time_of(*data, tlm::BEGIN_RESP) == data_sent + ns(10));
  REQUIRE(lt_hit == ns(2));  // b_transport: the same
  REQUIRE(pf.stat("l1v", "zero_hits") == 2);
  REQUIRE(pf.stat("l1v", "hits") == 1);
}

TEST_CASE("zero cache: b_transport queries cost a mask fill on a miss and the hit latency on a hit",
          "[cache][zero][lt]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2({{"zero_fraction", "1/2"}}), {{"in", 1}});
  auto& plain = pf.create<Cache>("l2_cache", "plain", small_l2(), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  auto& mem2 = pf.create<Memory>("memory", "mem2",
                                 json{{"latency", "40 ns"}, {"bandwidth", "128 GB/s"}, {"size", "1 MiB"}, {"page_size", "4 KiB"}});
  sc_time miss_delay, hit_delay, passed_delay;
  Probe probe("probe", [&](Probe& p) {
    auto q = query(0x100), again = query(0x200);
    sc_time d = sc_core::SC_ZERO_TIME;
    p.socket->b_transport(*q, d);
    miss_delay = d;
    d = sc_core::SC_ZERO_TIME;
    p.socket->b_transport(*again, d);
    hit_delay = d;
    REQUIRE(again->get_response_status() == tlm::TLM_OK_RESPONSE);
  });
  Probe other("other", [&](Probe& p) {
    auto q = query(0x100);
    sc_time d = sc_core::SC_ZERO_TIME;
    p.socket->b_transport(*q, d);
    passed_delay = d;
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  other.socket.bind(*plain.target_socket("in", 0));
  l2.out.bind(mem.in);
  plain.out.bind(mem2.in);
  sc_core::sc_start();

  REQUIRE(miss_delay == ns(5 + 1 + 40));  // miss_latency + a 128 B mask line from memory
  REQUIRE(hit_delay == ns(20));
  REQUIRE(passed_delay == ns(5 + 0.5 + 40));  // passed below unchanged: a 64 B read
  REQUIRE(pf.stat("l2", "zero_fills") == 1);
  REQUIRE(pf.stat("l2", "fills") == 0);
  REQUIRE(pf.stat("plain", "forwarded") == 1);
}

TEST_CASE("zero cache: a zero-only store to a line whose writeback is on its way down is not undone by it",
          "[cache][zero]") {
  MiniPlatform pf;
  // 2 sets of 2 ways of data: 0x000, 0x100 and 0x200 share set 0.
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2({{"zero_fraction", "1/2"}}), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  auto five = store(0x000, 5), mask = query(0x000), a = load(0x100), b = load(0x200);
  auto zero = store_bytes(0x000, 4, 0), check = load(0x000);
  Probe probe("probe", [&](Probe& p) {
    for (auto* t : {five.get(), mask.get(), a.get(), b.get()}) roundtrip(p, *t);  // b evicts dirty 0x000
    roundtrip(p, *zero);
    wait(ns(200));
    roundtrip(p, *check);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(pf.stat("l2", "writebacks") == 1);
  REQUIRE(pf.stat("l2", "zero_stores") == 1);
  REQUIRE(dram_u32(pf, 0x000) == 0);
  REQUIRE(check->u32() == 0);
}

// A CU sends one query per partition chunk (zero_query_span): 128 bytes
// across two 64 B lines of the L1 are one query, answered from one mask line.
// A data load across the same two lines is still refused.
TEST_CASE("zero cache: a query may span lines inside one mask line's coverage", "[cache][zero]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3},
                                                      {"zero_fraction", "1/8"}}, {{"in", 1}});
  auto& mem = memory_below(pf);
  auto first = query(0x100, 128), second = query(0x180, 128);
  auto across = std::make_unique<GpuPayload>(tlm::TLM_READ_COMMAND, 0x100, 128, AccessKind::Load);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *first);
    roundtrip(p, *second);
    roundtrip(p, *across);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(first->get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(second->get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(pf.stat("l1v", "zero_misses") == 1);
  REQUIRE(pf.stat("l1v", "zero_hits") == 1);
  REQUIRE(across->get_response_status() == tlm::TLM_BURST_ERROR_RESPONSE);
}

// Two L1s of one array (sa.l1v[0], sa.l1v[1]) over one memory; with
// `shared` their zero caches are one (LazyGPU's L1 zero cache per shader
// array). A queries 0x100 at 0; A and B query 0x4000 (another mask line)
// together at 100 ns; B queries 0x100 at 200 ns.
struct SharedPair {
  std::unique_ptr<GpuPayload> a_first = query(0x100), a_both = query(0x4000), b_both = query(0x4000),
                              b_late = query(0x100);
  sc_time b_late_sent, b_late_back, a_both_back, b_both_back;
};

void run_shared_pair(MiniPlatform& pf, SharedPair& r, bool shared) {
  const json p = {{"hit_latency", 10}, {"miss_latency", 3}, {"zero_fraction", "1/8"}, {"zero_shared", shared}};
  auto& a = pf.create<Cache>("l1v_cache", "sa.l1v[0]", p, {{"in", 1}});
  auto& b = pf.create<Cache>("l1v_cache", "sa.l1v[1]", p, {{"in", 1}});
  auto& join = pf.create("router", "join",
                         {{"address_map", json::parse(R"([{"base": "0x0", "size": "1 MiB", "ports": [0]}])")}},
                         {{"in", 2}, {"out", 1}});
  auto& mem = memory_below(pf);
  Probe pa("pa", [&](Probe& p) {
    roundtrip(p, *r.a_first);
    wait(ns(100) - sc_core::sc_time_stamp());
    r.a_both_back = roundtrip(p, *r.a_both);
  });
  Probe pb("pb", [&](Probe& p) {
    wait(ns(100));
    r.b_both_back = roundtrip(p, *r.b_both);
    wait(ns(200) - sc_core::sc_time_stamp());
    r.b_late_sent = sc_core::sc_time_stamp();
    r.b_late_back = roundtrip(p, *r.b_late);
  });
  pa.socket.bind(*a.target_socket("in", 0));
  pb.socket.bind(*b.target_socket("in", 0));
  a.out.bind(*join.target_socket("in", 0));
  b.out.bind(*join.target_socket("in", 1));
  join.initiator_socket("out", 0)->bind(mem.in);
  sc_core::sc_start();
  for (auto* q : {r.a_first.get(), r.a_both.get(), r.b_both.get(), r.b_late.get()})
    REQUIRE(q->get_response_status() == tlm::TLM_OK_RESPONSE);
  // Each cache answers from its own zero cache or from the array's one, of the sum of their sizes.
  REQUIRE(a.zero_cache()->capacity_bytes() == (shared ? 4096u : 2048u));
  REQUIRE(b.zero_cache()->capacity_bytes() == a.zero_cache()->capacity_bytes());
}

TEST_CASE("zero cache: the L1s of one array share one zero cache with zero_shared", "[cache][zero]") {
  MiniPlatform pf;
  SharedPair r;
  run_shared_pair(pf, r, true);
  // B finds the mask line A fetched: a hit at its own hit latency.
  REQUIRE(pf.stat("sa.l1v[1]", "zero_hits") == 1);
  REQUIRE(r.b_late_back == r.b_late_sent + ns(10));
  // The query both sent together went below once: B waited for A's fill and was answered with A.
  REQUIRE(pf.stat("mem", "reads") == 2);
  REQUIRE(r.b_both_back == r.a_both_back);
  REQUIRE(pf.stat("sa.l1v[0]", "zero_fills") + pf.stat("sa.l1v[1]", "zero_fills") == 2);
  REQUIRE(pf.stat("sa.l1v[0]", "zero_misses") + pf.stat("sa.l1v[1]", "zero_misses") == 3);
}

TEST_CASE("zero cache: without zero_shared each L1 fetches its own mask lines", "[cache][zero]") {
  MiniPlatform pf;
  SharedPair r;
  run_shared_pair(pf, r, false);
  REQUIRE(pf.stat("sa.l1v[1]", "zero_hits") == 0);  // B never fetched 0x100's mask line
  REQUIRE(r.b_late_back > r.b_late_sent + ns(40));   // a fill from memory
  REQUIRE(pf.stat("mem", "reads") == 4);
}

TEST_CASE("zero cache: zero_shared is refused on a write-back cache", "[cache][zero][config]") {
  using Catch::Matchers::Contains;
  MiniPlatform pf;
  std::string error;
  try {
    pf.create<Cache>("l2_cache", "l2[0]", small_l2({{"zero_fraction", "1/2"}, {"zero_shared", true}}), {{"in", 1}});
  } catch (const UserError& e) {
    error = e.what();
  }
  REQUIRE_THAT(error, Contains("zero_shared") && Contains("write-through"));
}
