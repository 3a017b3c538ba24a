// The memory-side L3 slice (l3_cache): hits and misses, write-backs from the
// L2s landing in it, inclusive or not, eviction write-back, the host's view
// of memory through it, and its parameter checks.
#include <catch2/catch.hpp>

#include "cache_test_support.h"
#include "common/device_memory.h"
#include "models/cache/l3_cache.h"
#include "platform/netlist.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

namespace {

// 4 sets of 2 ways of 128 B with modulo indexing: 0x000, 0x200, 0x400 share set 0.
json small_l3(json extra = json::object()) {
  json p = {{"size", "1 KiB"}, {"ways", 2}, {"banks", 1}, {"indexing", "modulo"}, {"hit_latency", 30},
            {"miss_latency", 2}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}

// A fill of one 128-byte line, as an L2 above asks for it.
std::unique_ptr<GpuPayload> fill(uint64_t line) {
  return std::make_unique<GpuPayload>(tlm::TLM_READ_COMMAND, line, 128, AccessKind::Fill);
}

// A write-back of one whole line whose bytes are `value`, as an L2 sends it.
std::unique_ptr<GpuPayload> writeback(uint64_t line, uint8_t value) {
  auto w = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, line, 128, AccessKind::Writeback);
  std::fill(w->buffer.begin(), w->buffer.end(), value);
  return w;
}

struct L3Run {
  MiniPlatform pf;
  L3Cache* l3 = nullptr;
  Memory* mem = nullptr;
  std::unique_ptr<Probe> probe;
  const char* memory_bandwidth = "128 GB/s";
  // Builds an L3 over memory_below() and runs `script` on its in[0].
  void run(const json& params, std::function<void(Probe&)> script) {
    l3 = &pf.create<L3Cache>("l3_cache", "l3", small_l3(params), {{"in", 1}});
    mem = &memory_below(pf, memory_bandwidth);
    probe = std::make_unique<Probe>("probe", std::move(script));
    probe->socket.bind(*l3->target_socket("in", 0));
    l3->out.bind(mem->in);
    sc_core::sc_start();
  }
};

}  // namespace

TEST_CASE("l3_cache: a fill misses, fetches the line from memory, and the next one hits", "[cache][l3]") {
  L3Run r;
  dram(r.pf).fill(0x100, 0x5a, 128);
  auto first = fill(0x100), again = fill(0x100);
  r.run({}, [&](Probe& p) {
    roundtrip(p, *first);
    roundtrip(p, *again);
  });
  // Accepted at 0, the fill leaves at 2, 128 B in 1 ns + 40 ns: 43; the hit 30 later.
  REQUIRE(r.probe->time_of(*first, tlm::BEGIN_RESP) == ns(43));
  REQUIRE(r.probe->time_of(*again, tlm::BEGIN_RESP) == ns(43 + 30));
  REQUIRE(first->buffer == std::vector<uint8_t>(128, 0x5a));
  REQUIRE(again->buffer == std::vector<uint8_t>(128, 0x5a));
  REQUIRE(r.pf.stat("l3", "misses") == 1);
  REQUIRE(r.pf.stat("l3", "hits") == 1);
  REQUIRE(r.pf.stat("l3", "fills") == 1);
  REQUIRE(r.pf.stat("l3", "requests_fill") == 2);
  REQUIRE(r.pf.stat("l3", "bytes_from_below") == 128);
  REQUIRE(r.pf.stat("mem", "reads") == 1);
}

namespace {

// Four fills of lines in four banks arrive at once; the slice takes them in
// one cycle (ports 4) and each leaves 2 cycles later. A memory fast enough to
// move a line in 0.128 ns answers each 40 ns after its data: with out_ports 1
// the fills leave one a cycle (2, 3, 4, 5 ns) and their answers come back on
// four edges; with out_ports 4 they leave together and come back on one.
std::vector<sc_time> four_fills_answered(unsigned out_ports) {
  L3Run r;
  r.memory_bandwidth = "1000 GB/s";
  std::vector<std::unique_ptr<GpuPayload>> fills;
  for (uint64_t line = 0; line < 4; ++line) fills.push_back(fill(line * 128));
  r.run({{"banks", 4}, {"ports", 4}, {"out_ports", out_ports}}, [&](Probe& p) {
    for (auto& f : fills) p.begin_req(*f);
    for (auto& f : fills) p.wait_for(*f, tlm::BEGIN_RESP);
  });
  REQUIRE(r.pf.stat("l3", "misses") == 4);
  std::vector<sc_time> answered;
  for (auto& f : fills) answered.push_back(r.probe->time_of(*f, tlm::BEGIN_RESP));
  return answered;
}

}  // namespace

TEST_CASE("l3_cache: misses leave for memory one per cycle by default", "[cache][l3]") {
  // 2 ns to leave, then 0.128 ns per line and 40 ns of memory latency: each answer on the next edge.
  REQUIRE(four_fills_answered(1) == std::vector<sc_time>{ns(43), ns(44), ns(45), ns(46)});
}

TEST_CASE("l3_cache: four misses leave for memory in one cycle with out_ports 4", "[cache][l3]") {
  REQUIRE(four_fills_answered(4) == std::vector<sc_time>{ns(43), ns(43), ns(43), ns(43)});
}

TEST_CASE("l3_cache: an L2's write-back lands in the L3 and reaches memory only when evicted", "[cache][l3]") {
  L3Run r;
  auto wb = writeback(0x000, 0x77), read_back = fill(0x000);
  auto other1 = fill(0x200), other2 = fill(0x400);
  uint8_t mem_after_wb = 0, mem_after_eviction = 0;
  r.run({}, [&](Probe& p) {
    roundtrip(p, *wb);  // a whole line: allocated without a fill
    dram(r.pf).read(0x000, &mem_after_wb, 1);
    roundtrip(p, *read_back);
    roundtrip(p, *other1);
    roundtrip(p, *other2);  // set 0 is full: evicts 0x000 (LRU), which is dirty
    wait(ns(100));
    dram(r.pf).read(0x000, &mem_after_eviction, 1);
  });
  REQUIRE(r.probe->time_of(*wb, tlm::BEGIN_RESP) == ns(30));
  REQUIRE(mem_after_wb == 0);  // write-back: memory is not written yet
  REQUIRE(read_back->buffer == std::vector<uint8_t>(128, 0x77));
  REQUIRE(mem_after_eviction == 0x77);
  REQUIRE(r.pf.stat("l3", "requests_writeback") == 1);
  REQUIRE(r.pf.stat("l3", "writebacks") == 1);
  REQUIRE(r.pf.stat("l3", "evictions") == 1);
  REQUIRE(r.pf.stat("l3", "bytes_to_below") == 128);
  REQUIRE(r.pf.stat("mem", "writes") == 1);
}

TEST_CASE("l3_cache: the host sees, and updates, a write-back on its way to memory", "[cache][l3]") {
  // A dirty line evicted by a fill leaves for memory; until memory has taken
  // it, the host's reads must find its bytes in the write-back, and a host
  // write must not be overwritten when the write-back lands. The memory takes
  // one request at a time, and a second miss keeps it busy when the eviction
  // happens, so the write-back waits.
  MiniPlatform pf;
  auto& l3 = pf.create<L3Cache>("l3_cache", "l3", small_l3(), {{"in", 1}});
  auto& mem = pf.create<Memory>("memory", "mem", json{{"latency", "40 ns"}, {"bandwidth", "128 GB/s"},
                                                      {"size", "1 MiB"}, {"queue_depth", 1}});
  auto wb = writeback(0x000, 0x77), other1 = fill(0x200), other2 = fill(0x400), busy = fill(0x080);
  uint8_t mem_in_flight = 0xff;
  std::vector<uint8_t> host_saw(16, 0), mem_after(16, 0);
  uint64_t writes_in_flight = 1;
  Probe probe("probe", [&](Probe& p) {
    roundtrip(p, *wb);
    roundtrip(p, *other1);
    p.begin_req(*other2);  // set 0 is full: its fill evicts the dirty 0x000
    wait(ns(1));
    p.begin_req(*busy);    // another set: the memory's next request
    p.wait_for(*other2, tlm::BEGIN_RESP);
    dram(pf).read(0x000, &mem_in_flight, 1);
    writes_in_flight = pf.stat("mem", "writes");
    l3.read_cached(0x000, host_saw.data(), 16);
    const uint8_t host_bytes[4] = {1, 2, 3, 4};
    dram(pf).write(0x004, host_bytes, 4);  // as DeviceMemory::write does: memory, then the copies
    l3.host_wrote(0x004, host_bytes, 4);
    p.wait_for(*busy, tlm::BEGIN_RESP);
    wait(ns(200));
    dram(pf).read(0x000, mem_after.data(), 16);
  });
  probe.socket.bind(*l3.target_socket("in", 0));
  l3.out.bind(mem.in);
  sc_core::sc_start();
  REQUIRE(writes_in_flight == 0);
  REQUIRE(mem_in_flight == 0);  // memory does not have the line yet
  REQUIRE(host_saw == std::vector<uint8_t>(16, 0x77));
  REQUIRE(pf.stat("mem", "writes") == 1);
  REQUIRE(mem_after == std::vector<uint8_t>{0x77, 0x77, 0x77, 0x77, 1, 2, 3, 4, 0x77, 0x77, 0x77, 0x77, 0x77, 0x77,
                                            0x77, 0x77});
}

TEST_CASE("l3_cache: write_through sends an L2's write-back on to memory at once and keeps a copy",
          "[cache][l3]") {
  L3Run r;
  auto first = fill(0x080), wb = writeback(0x080, 0x33), read_back = fill(0x080);
  uint8_t mem_after_wb = 0;
  r.run({{"write_policy", "write_through"}}, [&](Probe& p) {
    roundtrip(p, *first);
    roundtrip(p, *wb);
    dram(r.pf).read(0x080, &mem_after_wb, 1);
    roundtrip(p, *read_back);
  });
  REQUIRE(mem_after_wb == 0x33);
  REQUIRE(read_back->buffer == std::vector<uint8_t>(128, 0x33));
  REQUIRE(r.pf.stat("l3", "hits") == 2);  // the write-back on the line, then the read
  REQUIRE(r.pf.stat("l3", "forwarded") == 1);
}

namespace {

// Two fills of one line, then a write-back of another and a fill of it: an
// inclusive slice keeps the first line, a non-inclusive one only the second.
void check_inclusion(bool inclusive) {
  L3Run r;
  dram(r.pf).fill(0x100, 0x11, 128);
  auto a = fill(0x100), b = fill(0x100), wb = writeback(0x280, 0x22), c = fill(0x280);
  r.run({{"inclusive", inclusive}}, [&](Probe& p) {
    roundtrip(p, *a);
    roundtrip(p, *b);
    roundtrip(p, *wb);
    roundtrip(p, *c);
  });
  REQUIRE(b->buffer == std::vector<uint8_t>(128, 0x11));
  REQUIRE(c->buffer == std::vector<uint8_t>(128, 0x22));
  // The second fill of 0x100 hits only if the first allocated; the line
  // written back is held either way.
  REQUIRE(r.pf.stat("l3", "hits") == (inclusive ? 2u : 1u));
  REQUIRE(r.pf.stat("l3", "misses") == (inclusive ? 2u : 3u));  // the write-back's line too
  REQUIRE(r.pf.stat("l3", "fills") == (inclusive ? 1u : 0u));
  REQUIRE(r.pf.stat("l3", "forwarded") == (inclusive ? 0u : 2u));
  REQUIRE(r.pf.stat("mem", "reads") == (inclusive ? 1u : 2u));
  // A miss passed below costs what a fill does: 2 + 1 + 40 cycles.
  REQUIRE(r.probe->time_of(*b, tlm::BEGIN_RESP) - r.probe->time_of(*a, tlm::BEGIN_RESP) ==
          (inclusive ? ns(30) : ns(43)));
}

}  // namespace

TEST_CASE("l3_cache: inclusive keeps the lines the L2s fetch and the lines they write back", "[cache][l3]") {
  check_inclusion(true);
}

TEST_CASE("l3_cache: not inclusive passes fills to memory and keeps only the lines written back", "[cache][l3]") {
  check_inclusion(false);
}

TEST_CASE("l3_cache: the host's reads and writes of device memory see the L3's copies", "[cache][l3]") {
  L3Run r;
  isa::DeviceMemory& device = r.pf.shared.get<isa::DeviceMemory>("device");
  auto wb = writeback(0x180, 0x44), after_host = fill(0x180);
  std::vector<uint8_t> host_saw(16, 0);
  r.run({}, [&](Probe& p) {
    roundtrip(p, *wb);  // dirty in the L3, not in memory
    r.l3->read_cached(0x180, host_saw.data(), 16);
    const uint8_t host_bytes[4] = {1, 2, 3, 4};
    r.l3->host_wrote(0x184, host_bytes, 4);  // as DeviceMemory::write calls it
    roundtrip(p, *after_host);
  });
  REQUIRE(host_saw == std::vector<uint8_t>(16, 0x44));
  REQUIRE(after_host->buffer[3] == 0x44);
  REQUIRE(after_host->buffer[4] == 1);
  REQUIRE(after_host->buffer[7] == 4);
  REQUIRE(after_host->buffer[8] == 0x44);
  // The slice attached itself to the platform's device memory.
  const uint64_t p = device.alloc(256);
  std::vector<uint8_t> bytes(8, 0);
  device.read(bytes.data(), p, 8);
  REQUIRE(bytes == std::vector<uint8_t>(8, 0));  // nothing of that allocation is cached
}

namespace {

void check_functional_path(bool inclusive) {
  MiniPlatform pf;
  auto& l3 = pf.create<L3Cache>("l3_cache", "l3", small_l3({{"inclusive", inclusive}}), {{"in", 1}});
  auto& mem = memory_below(pf, "128 GB/s");
  dram(pf).fill(0x000, 0x66, 128);
  auto a = fill(0x000), b = fill(0x000);
  Probe probe("probe", [&](Probe& p) {
    sc_time d = sc_core::SC_ZERO_TIME;
    p.socket->b_transport(*a, d);
    p.socket->b_transport(*b, d);
  });
  probe.socket.bind(*l3.target_socket("in", 0));
  l3.out.bind(mem.in);
  sc_core::sc_start();
  REQUIRE(b->buffer == std::vector<uint8_t>(128, 0x66));
  REQUIRE(pf.stat("l3", "hits") == (inclusive ? 1u : 0u));
  REQUIRE(pf.stat("l3", "misses") == (inclusive ? 1u : 2u));
  REQUIRE(pf.stat("mem", "reads") == (inclusive ? 1u : 2u));
}

}  // namespace

TEST_CASE("l3_cache: the functional path allocates a fill when inclusive", "[cache][l3]") {
  check_functional_path(true);
}

TEST_CASE("l3_cache: the functional path passes a fill to memory when not inclusive", "[cache][l3]") {
  check_functional_path(false);
}

TEST_CASE("l3_cache: parameters the slice cannot work with are refused with a clear message", "[cache][l3]") {
  MiniPlatform pf;
  REQUIRE_THROWS_WITH(pf.create<L3Cache>("l3_cache", "chiplet[1].l3", {{"size", "1001 KiB"}, {"ways", 16}}),
                      Catch::Contains("chiplet[1].l3: size 1025024 bytes is not a non-zero multiple of ways * "
                                      "line_size"));
  // In a netlist, the loader names the parameter's JSON path.
  auto netlist_with = [](json l3) {
    l3["type"] = "l3_cache";
    return json{{"clocks", {{"core", "1 GHz"}}},
                {"components", {{"l3", l3}, {"m", {{"type", "memory"}, {"size", "1 MiB"}}}}},
                {"bindings", {"l3.out -> m.in"}}};
  };
  REQUIRE_THROWS_WITH(load_netlist(netlist_with({{"inclusive", "sometimes"}})),
                      Catch::Contains("/components/l3/inclusive") && Catch::Contains("expected true or false"));
  REQUIRE_THROWS_WITH(load_netlist(netlist_with({{"mshrs", 0}})),
                      Catch::Contains("/components/l3/mshrs") && Catch::Contains("out of range"));
}

TEST_CASE("l3_cache: the type declares its defaults and the inclusive parameter", "[cache][l3]") {
  const BlockType* t = Registry::instance().find("l3_cache");
  REQUIRE(t);
  REQUIRE(t->param("inclusive")->default_value == true);
  REQUIRE(t->param("write_policy")->default_value == "write_back");
  REQUIRE(t->param("size")->default_value == "4 MiB");
  REQUIRE(t->socket("out")->to_memory);
  // The engine's other types have no such parameter.
  REQUIRE(Registry::instance().find("l2_cache")->param("inclusive") == nullptr);
}
