// BDI compression on the memory side (docs/CABA.md): the size a compressed
// line takes on a link (wire_bytes), the metadata cache, and a DRAM
// controller that moves only the bursts a line needs, keeps the data as they
// are and marks its answers compressed (hierarchy) or adds its codec's
// latency (memory).
//
// The controller: one channel, 32 B bursts at 32 GB/s (1 ns each), 128 B
// lines, so an uncompressed line holds the bus 4 ns.
#include <catch2/catch.hpp>
#include <cstring>
#include <stdexcept>

#include "common/device_memory.h"
#include "mem_test_support.h"
#include "models/mem/bdi_metadata_cache.h"
#include "models/mem/dram_controller.h"
#include "models/mem/gpu_access.h"
#include "models/mem/memory.h"
#include "models/noc/crossbar.h"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr unsigned kLine = 128;

// Lines of known encodings: zeros, base4-delta1 (small 32-bit values around
// 1000), and bytes that nothing compresses.
std::vector<uint8_t> zero_line() { return std::vector<uint8_t>(kLine, 0); }
std::vector<uint8_t> b4d1_line() {
  std::vector<uint8_t> l(kLine);
  for (unsigned i = 0; i < kLine / 4; ++i) {
    const uint32_t v = 1000 + (i * 7) % 100;
    std::memcpy(&l[i * 4], &v, 4);
  }
  return l;
}
std::vector<uint8_t> random_line() {
  std::vector<uint8_t> l(kLine);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (uint8_t& b : l) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = static_cast<uint8_t>(x >> 24);
  }
  return l;
}

struct Loaded {
  std::vector<bdi::Encoding> wire;   // each answer's wire encoding
  std::vector<sc_core::sc_time> at;  // each answer's time
  bool data_ok = true;
  uint64_t bus_busy_ps, metadata_hits, metadata_misses;
};

// Writes the three lines to device memory and reads them back one after the
// other through a controller with `compression`.
Loaded read_three(const char* compression) {
  MiniPlatform pf;
  json p = {{"channels", 1}, {"banks", 16}, {"row_size", "1 KiB"}, {"bank_interleave", "1 KiB"},
            {"burst_size", "32 B"}, {"bandwidth", "32 GB/s"}, {"tCL", "14 ns"}, {"tRCD", "14 ns"},
            {"tRP", "14 ns"}, {"tRAS", "33 ns"}, {"controller_latency", "4 ns"}, {"compression", compression}};
  auto& dram = pf.create<DramController>("dram_controller", "hbm", p);
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(4 * kLine);
  const std::vector<std::vector<uint8_t>> lines{zero_line(), b4d1_line(), random_line()};
  for (size_t i = 0; i < lines.size(); ++i) dev.write(base + i * kLine, lines[i].data(), kLine);
  std::vector<std::unique_ptr<Payload>> reads;
  for (size_t i = 0; i < lines.size(); ++i) {
    reads.push_back(std::make_unique<Payload>(tlm::TLM_READ_COMMAND, base + i * kLine, kLine));
    auto* ext = new GpuAccess;  // owned by the payload
    ext->kind = AccessKind::Fill;
    reads.back()->set_extension(ext);
  }
  Loaded out;
  Probe probe("probe", [&](Probe& pr) {
    for (auto& r : reads) {
      pr.begin_req(*r);
      out.at.push_back(pr.wait_for(*r, tlm::BEGIN_RESP));
    }
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();
  for (size_t i = 0; i < lines.size(); ++i) {
    out.wire.push_back(reads[i]->get_extension<GpuAccess>()->wire);
    out.data_ok = out.data_ok && reads[i]->buffer == lines[i];
  }
  out.bus_busy_ps = pf.stat("hbm", "bus_busy_ps");
  out.metadata_hits = pf.stat("hbm", "bdi_metadata_hits");
  out.metadata_misses = pf.stat("hbm", "bdi_metadata_misses");
  return out;
}

}  // namespace

TEST_CASE("bdi memory: a compressed line crosses a link in whole 32-byte bursts of its image", "[mem][bdi]") {
  auto wire = [](bdi::Encoding e, unsigned len) {
    Payload t(tlm::TLM_READ_COMMAND, 0, len);
    auto* ext = new GpuAccess;
    ext->wire = e;
    t.set_extension(ext);
    return wire_bytes(t);
  };
  REQUIRE(wire(bdi::Encoding::uncompressed, 128) == 128);
  REQUIRE(wire(bdi::Encoding::zeros, 128) == 32);
  REQUIRE(wire(bdi::Encoding::repeated, 128) == 32);
  REQUIRE(wire(bdi::Encoding::base4_delta1, 128) == 64);  // 1 + 4 (mask) + 4 + 32 = 41 bytes
  REQUIRE(wire(bdi::Encoding::base8_delta4, 128) == 96);  // 1 + 2 + 8 + 64 = 75 bytes
  REQUIRE(wire(bdi::Encoding::base2_delta1, 128) == 96);  // 1 + 8 + 2 + 64 = 75 bytes
  REQUIRE(wire(bdi::Encoding::base8_delta1, 64) == 32);   // 1 + 1 + 8 + 8 = 18 bytes
  Payload plain(tlm::TLM_READ_COMMAND, 0, 128);           // no GpuAccess: the length
  REQUIRE(wire_bytes(plain) == 128);
}

TEST_CASE("bdi memory: the metadata cache hits, misses and writes back dirty blocks (LRU)", "[mem][bdi]") {
  BdiMetadataCache md(4 * 32, 2, 32);  // 2 sets of 2 ways
  REQUIRE(md.sets() == 2);
  REQUIRE_FALSE(md.access(0, false).hit);
  REQUIRE(md.access(0, false).hit);
  REQUIRE_FALSE(md.access(2, true).hit);  // set 0, second way, dirty
  REQUIRE(md.access(0, false).hit);       // 0 is now the most recent
  const auto evict = md.access(4, false);  // set 0 full: evicts 2, dirty
  REQUIRE_FALSE(evict.hit);
  REQUIRE(evict.writeback);
  REQUIRE(md.access(0, false).hit);
  const auto clean = md.access(6, false);  // evicts 4, clean
  REQUIRE_FALSE(clean.writeback);
  REQUIRE(md.access(1, false).hit == false);  // set 1 untouched so far
  REQUIRE_THROWS_AS(BdiMetadataCache(100, 4, 32), std::invalid_argument);
}

TEST_CASE("bdi memory: without compression every line takes its four bursts", "[mem][bdi][dram]") {
  const Loaded off = read_three("off");
  REQUIRE(off.data_ok);
  REQUIRE(off.bus_busy_ps == 12 * 1000);
  REQUIRE(off.wire == std::vector<bdi::Encoding>(3, bdi::Encoding::uncompressed));
}

TEST_CASE("bdi memory: DRAM moves only the bursts a line needs, plus a metadata miss", "[mem][bdi][dram]") {
  const Loaded on = read_three("hierarchy");
  REQUIRE(on.data_ok);  // the values are the stored ones
  // zeros 1 burst + 1 for the metadata miss, b4d1 2 (metadata hit), random 4.
  REQUIRE(on.bus_busy_ps == (2 + 2 + 4) * 1000);
  REQUIRE(on.metadata_misses == 1);
  REQUIRE(on.metadata_hits == 2);
  REQUIRE(on.wire == std::vector<bdi::Encoding>{bdi::Encoding::zeros, bdi::Encoding::base4_delta1,
                                                bdi::Encoding::uncompressed});
  REQUIRE(on.at[0] == ns(14 + 14 + 2 + 4));  // ACT, column, two bursts, controller
}

TEST_CASE("bdi memory: in mode memory answers leave uncompressed, 1 ns later for the decompressor",
          "[mem][bdi][dram]") {
  const Loaded memory = read_three("memory");
  REQUIRE(memory.data_ok);
  REQUIRE(memory.bus_busy_ps == (2 + 2 + 4) * 1000);
  REQUIRE(memory.wire == std::vector<bdi::Encoding>(3, bdi::Encoding::uncompressed));
  // The zero line: ACT 0, column 14, data 28..30 (its burst and the metadata's),
  // controller 4, decompressor 1 (in mode hierarchy the answer is at 34 ns).
  REQUIRE(memory.at[0] == ns(35));
}

TEST_CASE("bdi memory: a crossbar carries a compressed line at its compressed size", "[mem][bdi][noc]") {
  // 32 B per cycle per link, latency 2, one memory on out[0]: a 64 B line
  // takes 2 cycles a link, a zero line compressed to one burst 1.
  MiniPlatform pf;
  json map = json::parse(R"([{"base": 0, "size": "64 KiB", "ports": [0]}])");
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar",
                                   json{{"address_map", map}, {"in_width", 32}, {"out_width", 32}, {"latency", 2}},
                                   {{"in", 1}, {"out", 1}});
  auto& mem = pf.create<Memory>("memory", "m0", memory_params());
  Payload plain(tlm::TLM_WRITE_COMMAND, 0x40, 64), compressed(tlm::TLM_WRITE_COMMAND, 0x80, 64);
  auto* ext = new GpuAccess;  // owned by the payload
  ext->kind = AccessKind::Writeback;
  ext->wire = bdi::Encoding::zeros;
  compressed.set_extension(ext);
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(plain);
    p.wait_for(plain, tlm::BEGIN_RESP);
    wait(ns(100) - sc_core::sc_time_stamp());
    p.begin_req(compressed);
    p.wait_for(compressed, tlm::BEGIN_RESP);
  });
  probe.socket.bind(*xbar.in[0]);
  xbar.out[0]->bind(mem.in);
  sc_core::sc_start();
  REQUIRE(probe.time_of(plain, tlm::END_REQ) == ns(2));         // two cycles on the input link
  REQUIRE(probe.time_of(compressed, tlm::END_REQ) == ns(101));  // one
  REQUIRE(pf.stat("xbar.in[0]", "req_bytes") == 64 + 32);
  REQUIRE(pf.stat("xbar.out[0]", "req_busy_cycles") == 2 + 1);
}
