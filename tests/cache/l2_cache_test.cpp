// The L2 slice: write-back with write-allocate, dirty data reaching memory
// only on eviction or a maintenance command, atomics applied at the line.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

namespace {
// 4 sets of 2 ways of 128 B with modulo indexing: 0x000, 0x200, 0x400 share set 0.
json small_l2(json extra = json::object()) {
  json p = {{"size", "1 KiB"}, {"ways", 2}, {"line_size", "128 B"}, {"banks", 1}, {"indexing", "modulo"},
            {"hit_latency", 20}, {"miss_latency", 5}, {"maintenance_cycles", 2}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}
}  // namespace

TEST_CASE("l2_cache: a partial write miss fetches the line and keeps the write until the line is evicted",
          "[cache][l2]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2(), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  set_dram_u32(pf, 0x000, 5);
  set_dram_u32(pf, 0x004, 6);
  auto w = store(0x004, 60), r = load(0x000, 8);
  auto fill1 = load(0x200), fill2 = load(0x400);
  uint32_t mem_before_eviction = 0;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *w);
    roundtrip(p, *r);
    roundtrip(p, *fill1);
    mem_before_eviction = dram_u32(pf, 0x004);
    roundtrip(p, *fill2);  // set 0 is full: evicts 0x000 (LRU), which is dirty
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  // The write: accepted at 0, fill leaves at 5, 128 B in 1 ns + 40 ns: 46.
  REQUIRE(probe.time_of(*w, tlm::BEGIN_RESP) == ns(46));
  REQUIRE(probe.time_of(*r, tlm::BEGIN_RESP) == ns(46 + 20));
  REQUIRE(r->u32(0) == 5);
  REQUIRE(r->u32(4) == 60);  // the merged write over the fetched line
  REQUIRE(mem_before_eviction == 6);
  REQUIRE(dram_u32(pf, 0x004) == 60);
  REQUIRE(pf.stat("l2", "writebacks") == 1);
  REQUIRE(pf.stat("l2", "evictions") == 1);
  REQUIRE(pf.stat("l2", "fills") == 3);
  REQUIRE(pf.stat("mem", "writes") == 1);
}

TEST_CASE("l2_cache: a full-line write allocates without a fill and Writeback cleans it", "[cache][l2]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2(), {{"in", 2}});
  auto& mem = memory_below(pf, "128 GB/s");
  GpuPayload line(tlm::TLM_WRITE_COMMAND, 0x080, 128, AccessKind::Writeback);
  for (int i = 0; i < 128; ++i) line.buffer[i] = static_cast<uint8_t>(i);
  CommandPayload wb(CacheOp::Writeback), wb_again(CacheOp::Writeback);
  auto r = load(0x0fc);
  sc_time wb_sent, wb_done;
  uint8_t mem_before = 0xee;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, line);
    dram(pf).read(0x081, &mem_before, 1);
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(100));
    wb_sent = sc_core::sc_time_stamp();
    wb_done = roundtrip(p, wb);
    roundtrip(p, wb_again);
  });
  Probe reader("reader", [&](Probe& p) {
    wait(ns(300));
    roundtrip(p, *r);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  reader.socket.bind(*l2.target_socket("in", 1));
  ctrl.socket.bind(*l2.target_socket("ctrl", -1));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(line, tlm::BEGIN_RESP) == ns(20));  // a hit's latency: nothing fetched
  REQUIRE(pf.stat("l2", "fills") == 0);
  REQUIRE(mem_before == 0);
  // One dirty line: visited after 2 cycles, its writeback leaves then,
  // 1 ns transfer + 40 ns: 100 + 2 + 41.
  REQUIRE(wb_done - wb_sent == ns(43));
  REQUIRE(wb.cmd->lines_written_back == 1);
  REQUIRE(wb.cmd->lines_invalidated == 0);
  REQUIRE(wb_again.cmd->lines_written_back == 0);  // clean now
  for (int i = 0; i < 128; ++i) {
    uint8_t b = 0;
    dram(pf).read(0x080 + i, &b, 1);
    REQUIRE(b == i);
  }
  REQUIRE(r->u32() == 0x7f7e7d7c);  // bytes 0x7c..0x7f of the line  // still cached (clean): a hit
  REQUIRE(reader.time_of(*r, tlm::BEGIN_RESP) == ns(320));
  REQUIRE(pf.stat("l2", "hits") == 1);
  REQUIRE(pf.stat("l2", "requests_writeback") == 1);
}

TEST_CASE("l2_cache: an Invalidate of a dirty line loses its write and counts it", "[cache][l2]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2(), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  GpuPayload line(tlm::TLM_WRITE_COMMAND, 0x080, 128, AccessKind::Writeback);
  line.buffer.assign(128, 0x5c);
  CommandPayload inv(CacheOp::Invalidate), inv_again(CacheOp::Invalidate);
  Probe probe("probe", [&](Probe& p) { roundtrip(p, line); });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(100));
    roundtrip(p, inv);
    roundtrip(p, inv_again);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  ctrl.socket.bind(*l2.target_socket("ctrl", -1));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(inv.cmd->lines_invalidated == 1);
  REQUIRE(inv.cmd->lines_written_back == 0);
  REQUIRE(dram_u32(pf, 0x080) == 0);  // the write never reached memory
  REQUIRE(pf.stat("l2", "dirty_lines_dropped") == 1);
  REQUIRE(inv_again.cmd->lines_invalidated == 0);  // nothing left to drop
  REQUIRE(pf.stat("l2", "dirty_lines_dropped") == 1);
}

TEST_CASE("l2_cache: WritebackInvalidate costs more with more dirty lines", "[cache][l2]") {
  MiniPlatform pf;
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2(), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  std::vector<std::unique_ptr<GpuPayload>> writes;
  for (uint64_t a : {0x000, 0x080, 0x100, 0x180, 0x200})
    writes.push_back(std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, a, 128, AccessKind::Store));
  auto clean = load(0x280);
  CommandPayload one(CacheOp::WritebackInvalidate), five(CacheOp::WritebackInvalidate);
  sc_time one_sent, one_done, five_sent, five_done;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *writes[0]);
    wait(ns(200) - sc_core::sc_time_stamp());
    for (auto& w : writes) roundtrip(p, *w);
    roundtrip(p, *clean);
  });
  Probe ctrl("ctrl", [&](Probe& p) {
    wait(ns(100));
    one_sent = sc_core::sc_time_stamp();
    one_done = roundtrip(p, one);
    wait(ns(500) - sc_core::sc_time_stamp());
    five_sent = sc_core::sc_time_stamp();
    five_done = roundtrip(p, five);
  });
  probe.socket.bind(*l2.target_socket("in", 0));
  ctrl.socket.bind(*l2.target_socket("ctrl", -1));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  // One dirty line: 2 cycles of walk, then its writeback's 41 ns.
  REQUIRE(one_done - one_sent == ns(2 + 41));
  REQUIRE(one.cmd->lines_written_back == 1);
  REQUIRE(one.cmd->lines_invalidated == 1);
  // Five dirty lines and one clean one: the walk visits six lines, 2 cycles
  // each, in set order (set 0: 0x000 0x200, set 1: 0x080 0x280 (clean),
  // set 2: 0x100, set 3: 0x180). Line k's writeback leaves at 2(k+1); the
  // last (k = 5) at 12, answered 12 + 1 + 40 = 53 after the command.
  REQUIRE(five.cmd->lines_written_back == 5);
  REQUIRE(five.cmd->lines_invalidated == 6);
  REQUIRE(five_done - five_sent == ns(53));
  REQUIRE(pf.stat("l2", "lines_written_back") == 6);
  REQUIRE(pf.stat("l2", "maintenance_commands") == 2);
  REQUIRE(pf.stat("mem", "writes") == 6);
}

TEST_CASE("l2_cache: two atomic lanes on one address apply in lane order and return old values", "[cache][l2]") {
  MiniPlatform pf;
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v", json{{"hit_latency", 10}, {"miss_latency", 3}}, {{"in", 1}});
  auto& l2 = pf.create<Cache>("l2_cache", "l2", small_l2(), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  set_dram_u32(pf, 0x340, 100);
  auto warm = load(0x340);
  GpuPayload atomic(tlm::TLM_WRITE_COMMAND, 0x340, 4, AccessKind::Atomic);
  atomic.ext->op = isa::mem::Rmw::Add;
  atomic.ext->elem = isa::mem::Elem::U32;
  atomic.ext->lanes = {AtomicLane{0, 5, 0, 0}, AtomicLane{0, 7, 0, 0}};
  auto after = load(0x340);
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *warm);
    roundtrip(p, atomic);
    roundtrip(p, *after);
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(warm->u32() == 100);
  REQUIRE(atomic.get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(atomic.ext->lanes[0].old == 100);
  REQUIRE(atomic.ext->lanes[1].old == 105);
  REQUIRE(after->u32() == 112);  // the L1 dropped its copy: refetched from the L2
  REQUIRE(dram_u32(pf, 0x340) == 100);  // the L2 owns the new value until it writes it back
  REQUIRE(pf.stat("l2", "atomic_lanes") == 2);
  REQUIRE(pf.stat("l2", "hits") == 2);  // the atomic and the refetch; the warm-up missed
  REQUIRE(pf.stat("l1v", "misses") == 2);
  REQUIRE(pf.stat("l1v", "forwarded") == 1);
}

namespace {

std::unique_ptr<GpuPayload> atomic_add(uint64_t addr, uint32_t value) {
  auto p = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, addr, 4, AccessKind::Atomic);
  p->ext->op = isa::mem::Rmw::Add;
  p->ext->elem = isa::mem::Elem::U32;
  p->ext->lanes = {AtomicLane{0, value, 0, 0}};
  return p;
}

// Two L2s (one per chiplet) with atomics here, each over its own memory port
// onto one backing store: "a" adds at 0x340, then "b" adds at `b_addr`.
// Returns the statistics that count conflicts, a's then b's.
std::pair<uint64_t, uint64_t> atomics_in_two_l2s(uint64_t b_addr) {
  MiniPlatform pf;
  auto& a = pf.create<Cache>("l2_cache", "a", small_l2(), {{"in", 1}});
  auto& b = pf.create<Cache>("l2_cache", "b", small_l2(), {{"in", 1}});
  auto& mem_a = memory_below(pf, "128 GB/s");
  auto& mem_b =
      pf.create<Memory>("memory", "mem_b", json{{"latency", "40 ns"}, {"size", "1 MiB"}, {"page_size", "4 KiB"}});
  set_dram_u32(pf, 0x340, 100);
  auto first = atomic_add(0x340, 5), second = atomic_add(b_addr, 7);
  Probe pa("pa", [&](Probe& p) { roundtrip(p, *first); });
  Probe pb("pb", [&](Probe& p) {
    sc_core::wait(sc_core::sc_time(500, sc_core::SC_NS));  // after a's atomic: a holds the line dirty
    roundtrip(p, *second);
  });
  pa.socket.bind(*a.target_socket("in", 0));
  pb.socket.bind(*b.target_socket("in", 0));
  a.out.bind(mem_a.in);
  b.out.bind(mem_b.in);
  sc_core::sc_start();
  REQUIRE(first->ext->lanes[0].old == 100);
  REQUIRE(second->get_response_status() == tlm::TLM_OK_RESPONSE);
  return {pf.stat("a", "atomic_conflicts"), pf.stat("b", "atomic_conflicts")};
}

}  // namespace

TEST_CASE("l2_cache: an atomic on bytes another L2 holds dirty is counted as a conflict", "[cache][l2]") {
  // b fetched the line from memory, which lacks a's +5: both now hold a different
  // value for 0x340, and one of the two updates will be lost.
  CHECK(atomics_in_two_l2s(0x340) == std::make_pair(uint64_t{0}, uint64_t{1}));
}

TEST_CASE("l2_cache: atomics of two L2s on different bytes of one line do not conflict", "[cache][l2]") {
  // Writebacks carry only the dirty bytes, so both updates reach memory.
  CHECK(atomics_in_two_l2s(0x344) == std::make_pair(uint64_t{0}, uint64_t{0}));
}
