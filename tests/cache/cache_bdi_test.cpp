// The caches' part in BDI compression (docs/CABA.md): an L2 holding lines
// compressed answers fills compressed; an L1 with a hardware codec waits
// decompress_cycles for a compressed fill and compresses whole-line stores;
// an L1 in mode cu hands compressed fills to the compute unit
// (GpuAccess::cu_decompress). Values never change. 1 ns clocks; the L1 over
// an L2 over memory_below().
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;

namespace {

constexpr uint64_t kZeroLine = 0x200, kRandomLine = 0x400;

void write_random_line(MiniPlatform& pf, uint64_t line) {
  uint32_t x = 0x12345678;
  for (unsigned i = 0; i < 64; i += 4) {
    x = x * 1664525u + 1013904223u;
    set_dram_u32(pf, line + i, x);
  }
}

struct Loads {
  sc_time zero_rt, random_rt;
  std::unique_ptr<GpuPayload> zero, random;
};

// A 64 B load of a zero line, then of a random one, each a miss in both
// caches; the L1 in `l1_mode`, the L2 holding lines compressed.
Loads two_loads(MiniPlatform& pf, const char* l1_mode) {
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v",
                              json{{"hit_latency", 10}, {"miss_latency", 3}, {"compression", l1_mode}}, {{"in", 1}});
  auto& l2 = pf.create<Cache>("l2_cache", "l2", json{{"hit_latency", 20}, {"miss_latency", 4}, {"compression", "hold"}}, {{"in", 1}});
  auto& mem = memory_below(pf);
  write_random_line(pf, kRandomLine);
  Loads r;
  r.zero = load(kZeroLine, 64);
  r.random = load(kRandomLine, 64);
  Probe probe("probe", [&](Probe& p) {
    sc_time t0 = sc_core::sc_time_stamp();
    r.zero_rt = roundtrip(p, *r.zero) - t0;
    t0 = sc_core::sc_time_stamp();
    r.random_rt = roundtrip(p, *r.random) - t0;
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();
  // Values unchanged.
  REQUIRE(r.zero->buffer == std::vector<uint8_t>(64, 0));
  uint32_t x = 0x12345678;
  for (unsigned i = 0; i < 64; i += 4) {
    x = x * 1664525u + 1013904223u;
    REQUIRE(r.random->u32(i) == x);
  }
  REQUIRE(pf.stat("l2", "bdi_lines_zeros") == 1);
  REQUIRE(pf.stat("l2", "bdi_lines_uncompressed") == 1);
  REQUIRE(pf.stat("l2", "bdi_bytes_saved") == 32);  // the zero line crossed as one 32 B burst
  return r;
}

}  // namespace

TEST_CASE("cache bdi: a hardware L1 waits one cycle to decompress a compressed fill, none for a plain one",
          "[cache][bdi]") {
  MiniPlatform pf;
  const Loads r = two_loads(pf, "hardware");
  REQUIRE(r.zero_rt - r.random_rt == ns(1));
  REQUIRE(pf.stat("l1v", "bdi_decompressed") == 1);
  REQUIRE(r.zero->ext->cu_decompress == bdi::Encoding::uncompressed);  // decompressed in the L1
}

TEST_CASE("cache bdi: an L1 in mode cu hands a compressed fill's answer to the compute unit", "[cache][bdi]") {
  MiniPlatform pf;
  const Loads r = two_loads(pf, "cu");
  REQUIRE(r.zero_rt == r.random_rt);  // no decompressor in the L1
  REQUIRE(r.zero->ext->cu_decompress == bdi::Encoding::zeros);
  REQUIRE(r.random->ext->cu_decompress == bdi::Encoding::uncompressed);
  REQUIRE(pf.stat("l1v", "bdi_cu_answers") == 1);
}

namespace {
// Two whole-line (64 B) stores through an L1 in `l1_mode` into an L2: zeros,
// then random bytes; `cu_compressed` is what the compute unit says of the
// first. Their round trips.
std::pair<sc_time, sc_time> two_stores(MiniPlatform& pf, const char* l1_mode, bdi::Encoding cu_compressed) {
  auto& l1 = pf.create<Cache>("l1v_cache", "l1v",
                              json{{"hit_latency", 10}, {"miss_latency", 3}, {"compression", l1_mode}}, {{"in", 1}});
  auto& l2 = pf.create<Cache>("l2_cache", "l2", json{{"hit_latency", 20}, {"miss_latency", 4}, {"compression", "hold"}}, {{"in", 1}});
  auto& mem = memory_below(pf);
  auto zeros = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, kZeroLine, 64, AccessKind::Store);
  zeros->ext->cu_compressed = cu_compressed;
  auto random = std::make_unique<GpuPayload>(tlm::TLM_WRITE_COMMAND, kRandomLine, 64, AccessKind::Store);
  for (unsigned i = 0; i < 64; i += 4) random->set_u32(0x9e3779b9u * (i + 1), i);
  std::pair<sc_time, sc_time> rt;
  Probe probe("probe", [&](Probe& p) {
    sc_time t0 = sc_core::sc_time_stamp();
    rt.first = roundtrip(p, *zeros) - t0;
    t0 = sc_core::sc_time_stamp();
    rt.second = roundtrip(p, *random) - t0;
  });
  probe.socket.bind(*l1.target_socket("in", 0));
  l1.out.bind(*l2.target_socket("in", 0));
  l2.out.bind(mem.in);
  sc_core::sc_start();
  return rt;
}
}  // namespace

TEST_CASE("cache bdi: a hardware L1 compresses a whole-line store, answered 5 cycles later", "[cache][bdi]") {
  MiniPlatform pf;
  const auto rt = two_stores(pf, "hardware", bdi::Encoding::uncompressed);
  REQUIRE(rt.first - rt.second == ns(5));
  REQUIRE(pf.stat("l1v", "bdi_lines_zeros") == 1);
  REQUIRE(pf.stat("l1v", "bdi_lines_uncompressed") == 1);
  REQUIRE(pf.stat("l1v", "bdi_bytes_saved") == 32);
}

TEST_CASE("cache bdi: an L1 in mode cu sends a store compressed only when the compute unit compressed it",
          "[cache][bdi]") {
  MiniPlatform pf;
  const auto rt = two_stores(pf, "cu", bdi::Encoding::zeros);
  REQUIRE(rt.first == rt.second);  // no compressor in the L1
  REQUIRE(pf.stat("l1v", "bdi_lines_zeros") == 1);          // the compute unit's
  REQUIRE(pf.stat("l1v", "bdi_lines_uncompressed") == 1);   // the other travels as it is
}
