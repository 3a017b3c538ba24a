#include "models/mem/traffic_gen.h"

#include <catch2/catch.hpp>
#include <set>

#include "mem_test_support.h"
#include "models/mem/memory.h"
#include "models/noc/router.h"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr uint64_t kRegion = 16 * 1024, kAccess = 64, kBlocks = kRegion / kAccess, kReads = 512;

struct GenResult {
  bool finished, ok;
  uint64_t reads, mismatches, errors, memory_reads, memory_writes;
  double avg_latency_ns;
  std::string summary;
  bool store_matches;  // the store holds exactly what the generator meant to write
  bool single_cycle;   // pointer_chase: the pointers in the store form one cycle over all blocks
};

// traffic_gen -> router (two memories, 256-byte interleave) -> memories sharing one store.
GenResult run_through_router(const std::string& pattern, const std::string& protocol) {
  MiniPlatform pf;
  auto& tg = pf.create<TrafficGen>("traffic_gen", "tg0",
                                   {{"pattern", pattern}, {"protocol", protocol}, {"base", "0x4000"},
                                    {"size", "16 KiB"}, {"access_size", "64 B"}, {"count", kReads},
                                    {"outstanding", 8}, {"seed", 42}, {"start", "10 ns"}});
  auto map = json::parse(R"([{"base": 0, "size": "64 KiB", "ports": [0, 1], "interleave": 256}])");
  auto& router = pf.create<Router>("router", "xbar", {{"address_map", map}}, {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params());
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params());
  tg.mem.bind(*router.in[0]);
  router.out[0]->bind(m0.in);
  router.out[1]->bind(m1.in);
  sc_core::sc_start();

  GenResult r{};
  r.finished = tg.finished();
  r.ok = tg.ok();
  r.reads = tg.reads_checked();
  r.mismatches = tg.mismatches();
  r.errors = tg.errors();
  r.memory_reads = pf.stat("m0", "reads") + pf.stat("m1", "reads");
  r.memory_writes = pf.stat("m0", "writes") + pf.stat("m1", "writes");
  r.avg_latency_ns = tg.average_read_latency_ns();
  r.summary = tg.summary();

  BackingStore& store = pf.shared.get<BackingStore>("dram");
  std::vector<uint8_t> actual(kRegion), expected(kRegion);
  store.read(0x4000, actual.data(), kRegion);
  tg.expected_data(0x4000, expected.data(), kRegion);
  r.store_matches = actual == expected;
  // Follow the stored pointers from the first element: a single cycle visits every block once.
  std::set<uint64_t> visited;
  uint64_t addr = 0x4000;
  for (uint64_t k = 0; k < kBlocks; ++k) {
    visited.insert(addr);
    uint8_t bytes[8];
    store.read(addr, bytes, 8);
    addr = 0;
    for (int b = 7; b >= 0; --b) addr = (addr << 8) | bytes[b];
  }
  r.single_cycle = visited.size() == kBlocks && addr == 0x4000;
  return r;
}

void require_clean(const GenResult& r) {
  INFO(r.summary);
  REQUIRE(r.finished);
  REQUIRE(r.ok);
  REQUIRE(r.reads == kReads);
  REQUIRE(r.mismatches == 0);
  REQUIRE(r.errors == 0);
  REQUIRE(r.memory_reads == kReads);
  REQUIRE(r.memory_writes == kBlocks);
  REQUIRE(r.store_matches);
}

}  // namespace

// LT read latency through the router: 1 ns + 2.5 ns transfer + 40 ns + 1 ns.
TEST_CASE("traffic_gen: stream over LT through a router checks every byte", "[mem][traffic_gen]") {
  GenResult r = run_through_router("stream", "lt");
  require_clean(r);
  REQUIRE(r.avg_latency_ns == Approx(44.5).epsilon(1e-9));
  REQUIRE_THAT(r.summary, Catch::StartsWith("tg0: stream 512 reads checked, 0 mismatches, 0 errors, avg latency 44.5 ns"));
}

TEST_CASE("traffic_gen: random over LT through a router checks every byte", "[mem][traffic_gen]") {
  GenResult r = run_through_router("random", "lt");
  require_clean(r);
  REQUIRE(r.avg_latency_ns == Approx(44.5).epsilon(1e-9));
}

TEST_CASE("traffic_gen: pointer chase over LT through a router follows one cycle", "[mem][traffic_gen]") {
  GenResult r = run_through_router("pointer_chase", "lt");
  require_clean(r);
  REQUIRE(r.single_cycle);
}

TEST_CASE("traffic_gen: stream over AT through a router checks every byte", "[mem][traffic_gen]") {
  GenResult r = run_through_router("stream", "at");
  require_clean(r);
  // Several reads overlap, so a read waits for others' transfers: never faster than alone.
  REQUIRE(r.avg_latency_ns >= 44.5);
}

TEST_CASE("traffic_gen: random over AT through a router checks every byte", "[mem][traffic_gen]") {
  GenResult r = run_through_router("random", "at");
  require_clean(r);
  REQUIRE(r.avg_latency_ns >= 44.5);
}

TEST_CASE("traffic_gen: pointer chase over AT is one dependent read at a time", "[mem][traffic_gen]") {
  GenResult r = run_through_router("pointer_chase", "at");
  require_clean(r);
  REQUIRE(r.single_cycle);
  // Nothing overlaps a dependent read, so each sees the unloaded latency exactly.
  REQUIRE(r.avg_latency_ns == Approx(44.5).epsilon(1e-9));
}

TEST_CASE("traffic_gen: the data pattern depends on the seed and nothing else", "[mem][traffic_gen]") {
  MiniPlatform pf;
  auto& a = pf.create<TrafficGen>("traffic_gen", "a", {{"seed", 1}, {"count", 0}});
  auto& b = pf.create<TrafficGen>("traffic_gen", "b", {{"seed", 2}, {"count", 0}});
  std::vector<uint8_t> da(256), db(256);
  a.expected_data(0, da.data(), 256);
  b.expected_data(0, db.data(), 256);
  REQUIRE(da != db);
  std::vector<uint8_t> again(256);
  a.expected_data(0, again.data(), 256);
  REQUIRE(da == again);
}

TEST_CASE("traffic_gen: a streaming AT reader reaches the memory's bandwidth", "[mem][traffic_gen]") {
  MiniPlatform pf;
  auto& tg = pf.create<TrafficGen>("traffic_gen", "tg0",
                                   {{"size", "256 KiB"}, {"access_size", "256 B"}, {"count", 2048}, {"outstanding", 64}});
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params({{"queue_depth", 64}}));
  tg.mem.bind(mem.in);
  sc_core::sc_start();
  REQUIRE(tg.ok());
  const double achieved = pf.stats.find("tg0")->to_json()["read_bandwidth"].get<double>();
  // 2048 transfers of 10 ns each plus one latency: 25.6 GB/s * 20480 / 20520.
  REQUIRE(achieved == Approx(25.6e9 * 20480.0 / 20520.0).epsilon(1e-6));
}

TEST_CASE("traffic_gen: a store corrupted between the write and read passes is caught", "[mem][traffic_gen]") {
  MiniPlatform pf;
  auto& tg = pf.create<TrafficGen>("traffic_gen", "tg0",
                                   {{"protocol", "lt"}, {"size", "16 KiB"}, {"count", kBlocks}});
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  tg.mem.bind(mem.in);
  uint64_t writes_at_corruption = 0, reads_at_corruption = 0;
  // 256 writes of 42.5 ns end at 10880 ns; block 200 is read at 10880 + 200 * 42.5 ns.
  Script corrupt("corrupt", [&] {
    sc_core::wait(ns(11000));
    writes_at_corruption = pf.stat("mem0", "writes");
    reads_at_corruption = pf.stat("mem0", "reads");
    BackingStore& store = pf.shared.get<BackingStore>("dram");
    uint8_t b = 0;
    store.read(200 * 64 + 17, &b, 1);
    b ^= 0x40;
    store.write(200 * 64 + 17, &b, 1);
  });
  sc_core::sc_start();

  REQUIRE(writes_at_corruption == kBlocks);
  REQUIRE(reads_at_corruption < 200);
  REQUIRE(tg.finished());
  REQUIRE(tg.reads_checked() == kBlocks);
  REQUIRE(tg.mismatches() == 1);
  REQUIRE_FALSE(tg.ok());
  REQUIRE_THAT(tg.summary(), Catch::Contains("1 mismatches"));
}

TEST_CASE("traffic_gen: a corrupted pointer is caught and the chase still finishes", "[mem][traffic_gen]") {
  MiniPlatform pf;
  auto& tg = pf.create<TrafficGen>("traffic_gen", "tg0",
                                   {{"pattern", "pointer_chase"}, {"size", "16 KiB"}, {"count", kBlocks}});
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  tg.mem.bind(mem.in);
  Script corrupt("corrupt", [&] {
    sc_core::wait(ns(11000));  // after the write pass (256 x 42.5 ns), before most reads
    const uint64_t bogus = 0x123457;  // not an element address
    BackingStore& store = pf.shared.get<BackingStore>("dram");
    // Corrupt the element the chase reaches last (the one pointing back to the start).
    for (uint64_t e = 0; e < kBlocks; ++e) {
      uint8_t bytes[8];
      store.read(e * 64, bytes, 8);
      uint64_t next = 0;
      for (int b = 7; b >= 0; --b) next = (next << 8) | bytes[b];
      if (next == 0) store.write(e * 64, reinterpret_cast<const uint8_t*>(&bogus), 8);
    }
  });
  sc_core::sc_start();

  REQUIRE(tg.finished());
  REQUIRE(tg.reads_checked() == kBlocks);
  REQUIRE(tg.mismatches() == 1);
  REQUIRE_FALSE(tg.ok());
}

TEST_CASE("traffic_gen: error responses are counted and fail the generator", "[mem][traffic_gen]") {
  MiniPlatform pf;
  // The memory covers only the first half of the generator's region.
  auto& tg = pf.create<TrafficGen>("traffic_gen", "tg0", {{"size", "16 KiB"}, {"count", 64}});
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params({{"size", "8 KiB"}}));
  tg.mem.bind(mem.in);
  sc_core::sc_start();
  REQUIRE(tg.finished());
  REQUIRE(tg.errors() == kBlocks / 2);  // the writes to the upper half; the 64 reads stay in the lower half
  REQUIRE(tg.mismatches() == 0);
  REQUIRE_FALSE(tg.ok());
  REQUIRE(pf.stat("mem0", "errors") == kBlocks / 2);
}

TEST_CASE("traffic_gen: impossible parameters are clear errors naming the instance", "[mem][traffic_gen]") {
  MiniPlatform pf;
  REQUIRE_THROWS_WITH(pf.create("traffic_gen", "gen.a", {{"size", "1000 B"}, {"access_size", "64 B"}}),
                      Catch::Contains("gen.a") && Catch::Contains("multiple of access_size"));
  REQUIRE_THROWS_WITH(pf.create("traffic_gen", "gen.b", {{"pattern", "pointer_chase"}, {"access_size", "4 B"}}),
                      Catch::Contains("gen.b") && Catch::Contains("at least 8 bytes"));
  REQUIRE_THROWS_WITH(pf.create("traffic_gen", "gen.c", {{"pattern", "zigzag"}}), Catch::Contains("\"stream\""));
}
