// The BDI compressor/decompressor in SystemVerilog (tlm_bridges/rtl/bdi_codec.sv,
// Verilated) against the C++ reference (models/mem/bdi.h): for structured and
// random 128-byte lines, the RTL's image, size and encoding are the
// reference's, decompressing the reference's image gives the line back, and
// the answers come 5 (compress) and 1 (decompress) cycles after the request.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "Vbdi_codec.h"
#include "models/mem/bdi.h"

using namespace sc_core;
namespace bdi = tessera::bdi;

namespace {

constexpr size_t kLine = 128;

sc_dt::sc_bv<1024> to_bits(const std::vector<uint8_t>& bytes) {
  sc_dt::sc_bv<1024> bv;
  for (int w = 0; w < 32; ++w) {
    uint32_t v = 0;
    for (int b = 0; b < 4; ++b) {
      const size_t i = static_cast<size_t>(w * 4 + b);
      if (i < bytes.size()) v |= uint32_t{bytes[i]} << (8 * b);
    }
    bv.set_word(w, v);
  }
  return bv;
}

std::vector<uint8_t> to_bytes(const sc_dt::sc_bv<1024>& bv, size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(bv.get_word(static_cast<int>(i / 4)) >> (8 * (i % 4)));
  return out;
}

// Lines of every kind: the encodings' edges, as in the reference's own tests.
std::vector<uint8_t> random_line(std::mt19937_64& rng) {
  const unsigned widths[] = {2, 4, 8};
  const unsigned k = widths[rng() % 3];
  const unsigned spread_bits = 1 + rng() % 40;
  const uint64_t base = rng() >> (rng() % 64);
  const unsigned small_pct = rng() % 100;
  std::vector<uint8_t> line(kLine);
  for (size_t i = 0; i < kLine / k; ++i) {
    const int64_t delta =
        static_cast<int64_t>(rng() % (uint64_t{1} << spread_bits)) - (int64_t{1} << (spread_bits - 1));
    uint64_t v = rng() % 100 < small_pct ? static_cast<uint64_t>(delta) : base + static_cast<uint64_t>(delta);
    if (rng() % 200 == 0) v = rng();
    for (unsigned b = 0; b < k; ++b) line[i * k + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  if (rng() % 20 == 0) std::fill(line.begin(), line.end(), 0);
  if (rng() % 20 == 0)
    for (size_t i = 8; i < kLine; ++i) line[i] = line[i % 8];
  return line;
}

struct Answer {
  std::vector<uint8_t> data;
  unsigned bytes, encoding, cycles;
};

struct CodecBench : sc_module {
  explicit CodecBench(sc_module_name n) : sc_module(n), rtl("rtl") {
    rtl.clk(clk), rtl.rst_n(rst_n), rtl.in_valid(in_valid), rtl.in_ready(in_ready), rtl.in_op(in_op);
    rtl.in_data(in_data), rtl.in_bytes(in_bytes), rtl.out_valid(out_valid), rtl.out_ready(out_ready);
    rtl.out_data(out_data), rtl.out_bytes(out_bytes), rtl.out_encoding(out_encoding);
  }
  // One request, answered: its data, size, encoding, and the rising edges
  // from the request's handshake to the one where the answer was first valid.
  Answer ask(bool decompress, const std::vector<uint8_t>& data) {
    in_valid = true, in_op = decompress, in_data = to_bits(data), in_bytes = static_cast<uint32_t>(data.size());
    do wait(clk.posedge_event());
    while (!in_ready.read());  // the values before the edge: the handshake happened at it
    in_valid = false;
    Answer a{};
    do {
      wait(clk.posedge_event());
      ++a.cycles;
    } while (!out_valid.read());
    a.bytes = out_bytes.read();
    a.encoding = out_encoding.read();
    a.data = to_bytes(out_data.read(), a.bytes);
    wait(clk.posedge_event());  // the answer is taken (OUT_READY is high) at this edge's predecessor
    return a;
  }
  sc_clock clk{"clk", 1, SC_NS};
  sc_signal<bool> rst_n{"rst_n"}, in_valid{"in_valid"}, in_ready{"in_ready"}, in_op{"in_op"};
  sc_signal<bool> out_valid{"out_valid"}, out_ready{"out_ready"};
  sc_signal<sc_dt::sc_bv<1024>> in_data{"in_data"}, out_data{"out_data"};
  sc_signal<uint32_t> in_bytes{"in_bytes"}, out_bytes{"out_bytes"}, out_encoding{"out_encoding"};
  Vbdi_codec rtl;
};

}  // namespace

TEST_CASE("bdi codec RTL: images and lines equal the C++ reference's on structured and random lines", "[bdi][rtl]") {
  CodecBench bench("bench");
  std::vector<std::vector<uint8_t>> lines;
  lines.push_back(std::vector<uint8_t>(kLine, 0));
  std::vector<uint8_t> noise(kLine);
  std::mt19937_64 rng(43);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  lines.push_back(noise);
  // Lines that fit several encodings, so that the RTL's choice among them is
  // checked: 4-byte values beside a constant fit b4d1 and b8d2 (b4d1 is
  // smaller); 8-byte pointers fit b8d1, b8d2, b8d4; 2-byte numbers fit b2d1
  // and b4d2.
  auto words = [&](unsigned k, auto value) {
    std::vector<uint8_t> line(kLine);
    for (size_t i = 0; i < kLine / k; ++i)
      for (unsigned b = 0; b < k; ++b) line[i * k + b] = static_cast<uint8_t>(uint64_t{value(i)} >> (8 * b));
    return line;
  };
  for (uint64_t c = 1; c < 60; ++c) {
    lines.push_back(words(4, [&](size_t i) { return i % 2 ? c : 3 * i + c; }));
    lines.push_back(words(8, [&](size_t i) { return (c << 40) + 8 * i; }));
    lines.push_back(words(8, [&](size_t i) { return (c << 40) + 1000 * i; }));
    lines.push_back(words(2, [&](size_t i) { return (i * c) % 120; }));
    lines.push_back(words(4, [&](size_t i) { return i % 2 ? uint64_t{0} : 1000000 + 900 * i + c; }));
  }
  for (int i = 0; i < 3000; ++i) lines.push_back(random_line(rng));
  unsigned checked = 0, per_encoding[bdi::kEncodingCount] = {};
  std::vector<unsigned> compress_cycles, decompress_cycles;
  sc_spawn([&] {
    bench.out_ready = true;
    for (int i = 0; i < 3; ++i) wait(bench.clk.posedge_event());
    bench.rst_n = true;
    for (const auto& line : lines) {
      const bdi::Compressed want = bdi::compress(line);
      const Answer c = bench.ask(false, line);
      const Answer d = bench.ask(true, want.image);
      INFO("line " << checked << ", reference encoding " << bdi::name(want.encoding));
      CHECK(c.encoding == static_cast<unsigned>(want.encoding));
      CHECK(c.bytes == want.image.size());
      CHECK(c.data == want.image);
      CHECK(d.data == line);
      compress_cycles.push_back(c.cycles);
      decompress_cycles.push_back(d.cycles);
      ++per_encoding[static_cast<unsigned>(want.encoding)];
      ++checked;
    }
    sc_stop();
  });
  sc_start(10, SC_MS);
  CHECK(checked == lines.size());
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    INFO(bdi::name(static_cast<bdi::Encoding>(e)));
    CHECK(per_encoding[e] > 10);  // every encoding was compared
  }
  // Handshake at edge 0; the answer is registered at edge 5 (compress) or 1
  // (decompress) and first seen valid at the edge after.
  CHECK(std::all_of(compress_cycles.begin(), compress_cycles.end(), [](unsigned c) { return c == 6; }));
  CHECK(std::all_of(decompress_cycles.begin(), decompress_cycles.end(), [](unsigned c) { return c == 2; }));
}
