// BDI reference: sizes as the paper gives them, the encoding each kind of line
// gets, the stored image's layout, and decompress(compress(x)) == x on random
// and structured lines, with the chosen encoding checked against an
// independent search for the smallest one that fits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

#include "models/mem/bdi.h"

namespace bdi = tessera::bdi;
using bdi::Encoding;
using Line = std::vector<uint8_t>;

namespace {

constexpr Encoding kAll[] = {Encoding::zeros,        Encoding::repeated,     Encoding::base8_delta1,
                             Encoding::base8_delta2, Encoding::base8_delta4, Encoding::base4_delta1,
                             Encoding::base4_delta2, Encoding::base2_delta1, Encoding::uncompressed};

template <class T>
Line line_of(const std::vector<T>& values) {
  Line line(values.size() * sizeof(T));
  std::memcpy(line.data(), values.data(), line.size());
  return line;
}

template <class T>
Line line_from(size_t line_bytes, T (*value)(size_t)) {
  std::vector<T> v(line_bytes / sizeof(T));
  for (size_t i = 0; i < v.size(); ++i) v[i] = value(i);
  return line_of(v);
}

// Test-side definition of "fits", written from the paper rather than from the
// model: every k-byte value is either a signed d-byte number, or within a
// signed d-byte delta of the first value that is not.
bool fits_independently(Encoding e, const Line& line) {
  if (e == Encoding::uncompressed) return true;
  if (e == Encoding::zeros) return std::all_of(line.begin(), line.end(), [](uint8_t b) { return b == 0; });
  if (e == Encoding::repeated) {
    for (size_t i = 8; i < line.size(); ++i)
      if (line[i] != line[i % 8]) return false;
    return true;
  }
  const unsigned k = bdi::base_bytes(e), d = bdi::delta_bytes(e);
  const unsigned shift = 64 - 8 * k;
  auto as_signed = [&](uint64_t x) {  // x modulo 2^(8k), as a signed k-byte number
    return static_cast<int64_t>(x << shift) >> shift;
  };
  auto value = [&](size_t i) {  // signed k-byte value i
    uint64_t v = 0;
    std::memcpy(&v, line.data() + i * k, k);
    return as_signed(v);
  };
  auto in_range = [&](int64_t x) {
    x = as_signed(static_cast<uint64_t>(x));
    return x >= -(int64_t{1} << (8 * d - 1)) && x < (int64_t{1} << (8 * d - 1));
  };
  bool have_base = false;
  int64_t base = 0;
  for (size_t i = 0; i < line.size() / k; ++i) {
    if (in_range(value(i))) continue;
    if (!have_base) base = value(i), have_base = true;
    if (!in_range(static_cast<int64_t>(static_cast<uint64_t>(value(i)) - static_cast<uint64_t>(base)))) return false;
  }
  return true;
}

// The smallest stored image among the encodings that fit, earliest on a tie.
Encoding best_independently(const Line& line) {
  Encoding best = Encoding::uncompressed;
  for (Encoding e : kAll)
    if (fits_independently(e, line) && bdi::stored_bytes(e, line.size()) < bdi::stored_bytes(best, line.size()))
      best = e;
  return best;
}

void check_round_trip(const Line& line) {
  const bdi::Compressed c = bdi::compress(line);
  INFO("encoding " << bdi::name(c.encoding) << ", line of " << line.size() << " bytes");
  REQUIRE(c.image.size() == bdi::stored_bytes(c.encoding, line.size()));
  REQUIRE(bdi::decompress(c.image, line.size()) == line);
  REQUIRE(c.encoding == best_independently(line));
  REQUIRE(bdi::fits(c.encoding, line.data(), line.size()));
}

}  // namespace

TEST_CASE("BDI: data sizes of a 64-byte line are the paper's, images add the encoding byte and base mask", "[bdi]") {
  // Pekhimenko et al., PACT 2012, Table 2 (64-byte lines).
  CHECK(bdi::data_bytes(Encoding::zeros, 64) == 1);
  CHECK(bdi::data_bytes(Encoding::repeated, 64) == 8);
  CHECK(bdi::data_bytes(Encoding::base8_delta1, 64) == 16);
  CHECK(bdi::data_bytes(Encoding::base8_delta2, 64) == 24);
  CHECK(bdi::data_bytes(Encoding::base8_delta4, 64) == 40);
  CHECK(bdi::data_bytes(Encoding::base4_delta1, 64) == 20);
  CHECK(bdi::data_bytes(Encoding::base4_delta2, 64) == 36);
  CHECK(bdi::data_bytes(Encoding::base2_delta1, 64) == 34);
  CHECK(bdi::data_bytes(Encoding::uncompressed, 64) == 64);
  // CABA's 128-byte lines, stored in 1 to 4 bursts of 32 bytes.
  const std::pair<Encoding, std::pair<size_t, unsigned>> stored_128[] = {
      {Encoding::zeros, {1, 1}},        {Encoding::repeated, {9, 1}},      {Encoding::base8_delta1, {27, 1}},
      {Encoding::base8_delta2, {43, 2}}, {Encoding::base8_delta4, {75, 3}}, {Encoding::base4_delta1, {41, 2}},
      {Encoding::base4_delta2, {73, 3}}, {Encoding::base2_delta1, {75, 3}}, {Encoding::uncompressed, {128, 4}}};
  for (const auto& [e, want] : stored_128) {
    INFO(bdi::name(e));
    CHECK(bdi::stored_bytes(e, 128) == want.first);
    CHECK(bdi::bursts(bdi::stored_bytes(e, 128)) == want.second);
  }
}

TEST_CASE("BDI: each kind of structured line gets the encoding the paper gives it", "[bdi]") {
  struct Case {
    const char* what;
    Line line;
    Encoding want;
  };
  const Case cases[] = {
      {"zeros", Line(128, 0), Encoding::zeros},
      {"one 8-byte value repeated", line_from<uint64_t>(128, [](size_t) { return uint64_t{0xdeadbeefcafef00d}; }),
       Encoding::repeated},
      {"pointers 8 bytes apart", line_from<uint64_t>(128, [](size_t i) { return uint64_t{0x7f0000001000} + 8 * i; }),
       Encoding::base8_delta1},
      {"pointers mixed with small numbers (two bases)",
       line_from<uint64_t>(128, [](size_t i) { return i % 2 ? uint64_t{i} : uint64_t{0x8001d000} + i; }),
       Encoding::base8_delta1},
      {"8-byte values within 30000", line_from<uint64_t>(128, [](size_t i) { return uint64_t{1} << 40 | i * 2000; }),
       Encoding::base8_delta2},
      {"8-byte values within 2^31", line_from<uint64_t>(128, [](size_t i) { return (uint64_t{1} << 40) + i * 100000000; }),
       Encoding::base8_delta4},
      {"small 4-byte integers", line_from<uint32_t>(128, [](size_t i) { return static_cast<uint32_t>(i * 3); }),
       Encoding::base4_delta1},
      {"4-byte integers near a million", line_from<uint32_t>(128, [](size_t i) { return static_cast<uint32_t>(1000000 + i); }),
       Encoding::base4_delta1},
      {"4-byte integers within 30000", line_from<uint32_t>(128, [](size_t i) { return static_cast<uint32_t>(1000000 + 900 * i); }),
       Encoding::base4_delta2},
      {"small 2-byte integers", line_from<uint16_t>(128, [](size_t i) { return static_cast<uint16_t>(i + 1); }),
       Encoding::base2_delta1},
      {"negative 4-byte integers", line_from<int32_t>(128, [](size_t i) { return -static_cast<int32_t>(i) - 1; }),
       Encoding::base4_delta1},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const bdi::Compressed got = bdi::compress(c.line);
    CHECK(std::string(bdi::name(got.encoding)) == bdi::name(c.want));
    CHECK(bdi::decompress(got.image, c.line.size()) == c.line);
  }
  std::mt19937_64 rng(11);
  Line noise(128);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  const bdi::Compressed got = bdi::compress(noise);
  CHECK(got.encoding == Encoding::uncompressed);
  CHECK(got.image == noise);
  CHECK(got.bursts() == 4);
}

TEST_CASE("BDI: the image of a two-base line is laid out byte for byte as documented", "[bdi]") {
  // The paper's Figure 6 line: 8-byte pointers near 0x8001D000 between small numbers.
  const Line line = line_of<uint64_t>({0x8001d000, 0x0, 0x8001d008, 0x10, 0x8001d010, 0x20, 0x8001d018, 0x30});
  const bdi::Compressed c = bdi::compress(line);
  REQUIRE(c.encoding == Encoding::base8_delta1);
  const Line want = {static_cast<uint8_t>(Encoding::base8_delta1),
                     0x55,                                            // values 0, 2, 4, 6 use the base
                     0x00, 0xd0, 0x01, 0x80, 0x00, 0x00, 0x00, 0x00,  // the base
                     0x00, 0x00, 0x08, 0x10, 0x10, 0x20, 0x18, 0x30};  // deltas
  CHECK(c.image == want);
  CHECK(bdi::data_bytes(c.encoding, 64) == 16);  // the paper's 17 bytes with its 1-byte metadata
}

TEST_CASE("BDI: decompress(compress(x)) == x on random lines of every kind and size", "[bdi]") {
  std::mt19937_64 rng(2026);
  const size_t sizes[] = {8, 16, 32, 64, 128, 256};
  const unsigned widths[] = {2, 4, 8};
  unsigned per_encoding[bdi::kEncodingCount] = {};
  for (int round = 0; round < 20000; ++round) {
    const size_t n = sizes[rng() % 6];
    const unsigned k = widths[rng() % 3];
    // Values near a random base, some small numbers among them, deltas of a
    // random width, sometimes a stray value: lines at every encoding's edge.
    const unsigned spread_bits = 1 + rng() % 40;
    const uint64_t base = rng() >> (rng() % 64);
    const unsigned small_pct = rng() % 100;
    Line line(n);
    for (size_t i = 0; i < n / k; ++i) {
      const int64_t delta = static_cast<int64_t>(rng() % (uint64_t{1} << spread_bits)) - (int64_t{1} << (spread_bits - 1));
      uint64_t v = rng() % 100 < small_pct ? static_cast<uint64_t>(delta) : base + static_cast<uint64_t>(delta);
      if (rng() % 200 == 0) v = rng();
      for (unsigned b = 0; b < k; ++b) line[i * k + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    if (rng() % 20 == 0) std::fill(line.begin(), line.end(), 0);
    if (rng() % 20 == 0)
      for (size_t i = 8; i < n; ++i) line[i] = line[i % 8];
    check_round_trip(line);
    ++per_encoding[static_cast<unsigned>(bdi::compress(line).encoding)];
  }
  // The generator reaches every encoding, so each was round-tripped.
  for (Encoding e : kAll) {
    INFO(bdi::name(e));
    CHECK(per_encoding[static_cast<unsigned>(e)] > 20);
  }
}

TEST_CASE("BDI: lines at the edge of a delta's range", "[bdi]") {
  // 4-byte values base + 127 fit a 1-byte delta, base + 128 does not.
  for (int32_t edge : {127, 128, -128, -129, 32767, 32768}) {
    INFO("edge " << edge);
    std::vector<uint32_t> v(32, 5000000);
    v[7] = static_cast<uint32_t>(5000000 + edge);
    check_round_trip(line_of(v));
  }
  // Wrap-around in k-byte arithmetic: 0xffffffff is -1, an immediate.
  check_round_trip(line_of(std::vector<uint32_t>(32, 0xffffffffu)));
  check_round_trip(line_of(std::vector<uint64_t>{~uint64_t{0}, 1, 0x7fffffffffffffff, 0x8000000000000000}));
}

TEST_CASE("BDI: bad line sizes and malformed images are refused with a message", "[bdi]") {
  const Line line(128, 1);
  CHECK_THROWS_WITH(bdi::compress(line.data(), 100), Catch::Contains("multiple of 8"));
  CHECK_THROWS_WITH(bdi::compress(line.data(), 0), Catch::Contains("multiple of 8"));
  CHECK_THROWS_WITH(bdi::decompress(Line{42, 0, 0}, 128), Catch::Contains("unknown encoding byte 42"));
  CHECK_THROWS_WITH(bdi::decompress(Line{static_cast<uint8_t>(Encoding::repeated), 1, 2}, 128),
                    Catch::Contains("9 bytes, not 3"));
  CHECK_THROWS_WITH(bdi::decompress(Line{}, 128), Catch::Contains("empty"));
}
