// The Assist Warp Store's routines, run through the CU's decoder and executor
// (AssistWarpStore::decompress runs the gfx90a code of sw/assist/), against
// the BDI reference model on structured and random lines of every encoding
// and of the line sizes a vector L1 uses.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "models/cu/assist_warp_store.h"

using namespace tessera;
namespace bdi = tessera::bdi;
using bdi::Encoding;
using Line = std::vector<uint8_t>;

namespace {

// A line whose k-byte values are base + small deltas, some of them small
// numbers (the zero base), as a generator that reaches every encoding.
Line random_line(std::mt19937_64& rng, size_t bytes) {
  const unsigned widths[] = {2, 4, 8};
  const unsigned k = widths[rng() % 3];
  const unsigned spread_bits = 1 + rng() % 34;
  const uint64_t base = rng() >> (rng() % 64);
  const unsigned small_pct = rng() % 100;
  Line line(bytes);
  for (size_t i = 0; i < bytes / k; ++i) {
    const int64_t delta = static_cast<int64_t>(rng() % (uint64_t{1} << spread_bits)) - (int64_t{1} << (spread_bits - 1));
    uint64_t v = rng() % 100 < small_pct ? static_cast<uint64_t>(delta) : base + static_cast<uint64_t>(delta);
    if (rng() % 300 == 0) v = rng();
    for (unsigned b = 0; b < k; ++b) line[i * k + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  if (rng() % 20 == 0) std::fill(line.begin(), line.end(), 0);
  if (rng() % 20 == 0)
    for (size_t i = 8; i < bytes; ++i) line[i] = line[i % 8];
  return line;
}

template <class T, class F>
Line line_of(size_t bytes, F value) {
  Line line(bytes);
  for (size_t i = 0; i < bytes / sizeof(T); ++i) {
    const T v = static_cast<T>(value(i));
    std::memcpy(line.data() + i * sizeof(T), &v, sizeof(T));
  }
  return line;
}

}  // namespace

TEST_CASE("assist warps: the decompression routine rebuilds structured lines of every encoding", "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  struct Case {
    Encoding expected;
    Line line;
  };
  const std::vector<Case> cases = {
      {Encoding::zeros, Line(64, 0)},
      {Encoding::repeated, line_of<uint64_t>(64, [](size_t) { return uint64_t{0x0123456789abcdef}; })},
      {Encoding::base8_delta1, line_of<uint64_t>(64, [](size_t i) { return 0x7000000000ull + i * 3 - 9; })},
      {Encoding::base8_delta2, line_of<uint64_t>(64, [](size_t i) { return 0x7000000000ull + i * 1000; })},
      {Encoding::base8_delta4, line_of<uint64_t>(64, [](size_t i) { return 0x7000000000ull - i * 100000000; })},
      {Encoding::base4_delta1, line_of<uint32_t>(64, [](size_t i) { return uint32_t(i % 3 ? 0x40000000 + i : i); })},
      {Encoding::base4_delta2, line_of<uint32_t>(64, [](size_t i) { return uint32_t(0x40000000 - 300 * i); })},
      {Encoding::base2_delta1, line_of<uint16_t>(64, [](size_t i) { return uint16_t(i % 2 ? 0x5000 - i : i); })},
      {Encoding::base2_delta1, line_of<uint16_t>(128, [](size_t i) { return uint16_t(0x9000 + i); })},
      {Encoding::base8_delta1, line_of<uint64_t>(128, [](size_t i) { return i % 5 ? ~uint64_t{0} - i : i; })},
      {Encoding::base2_delta1, line_of<uint16_t>(256, [](size_t i) { return uint16_t(i % 3 ? 0xa000 + i : 100 - i); })},
      {Encoding::base4_delta1, line_of<uint32_t>(256, [](size_t i) { return uint32_t(i % 4 ? 0x80000000 - i : i); })},
  };
  for (const Case& c : cases) {
    const bdi::Compressed img = bdi::compress(c.line);
    INFO("encoding " << bdi::name(img.encoding) << ", line of " << c.line.size() << " bytes");
    REQUIRE(img.encoding == c.expected);
    uint64_t n = 0;
    CHECK(store.decompress(img.image, c.line.size(), &n) == c.line);
    CHECK(bdi::decompress(img.image, c.line.size()) == c.line);
    // It ran the encoding's routine: a masked add of the loaded base and
    // deltas (Algorithm 1), a few instructions.
    CHECK(n >= 2);
    CHECK(n <= 6);
  }
}

TEST_CASE("assist warps: the decompression routine equals bdi::decompress on random lines", "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  std::mt19937_64 rng(45);
  unsigned per_encoding[bdi::kEncodingCount] = {};
  const size_t sizes[] = {32, 64, 128, 256};
  for (int round = 0; round < 3000; ++round) {
    const Line line = random_line(rng, sizes[rng() % 3]);
    const bdi::Compressed img = bdi::compress(line);
    ++per_encoding[size_t(img.encoding)];
    if (img.encoding == Encoding::uncompressed) continue;  // nothing to decompress
    INFO("encoding " << bdi::name(img.encoding) << ", line of " << line.size() << " bytes, round " << round);
    REQUIRE(store.decompress(img.image, line.size()) == bdi::decompress(img.image, line.size()));
  }
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    INFO(bdi::name(Encoding(e)));
    CHECK(per_encoding[e] > 10);
  }
}

TEST_CASE("assist warps: a wrong image gives a wrong line (the comparison can fail)", "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  const Line line = line_of<uint32_t>(64, [](size_t i) { return uint32_t(0x40000000 + i); });
  bdi::Compressed img = bdi::compress(line);
  REQUIRE(img.encoding == Encoding::base4_delta1);
  img.image.back() ^= 1;
  CHECK(store.decompress(img.image, line.size()) != line);
  bdi::Compressed masked = bdi::compress(line);  // a value moved to the zero base
  masked.image[1] ^= 2;
  CHECK(store.decompress(masked.image, line.size()) != line);
  bdi::Compressed wide = bdi::compress(line_of<uint64_t>(64, [](size_t i) { return 0x7000000000ull + i; }));
  REQUIRE(wide.encoding == Encoding::base8_delta1);
  wide.image[3] ^= 0x10;  // the base
  CHECK(store.decompress(wide.image, 64) != line_of<uint64_t>(64, [](size_t i) { return 0x7000000000ull + i; }));
  CHECK_THROWS_AS(store.decompress(Line(img.image.begin(), img.image.end() - 1), line.size()), std::invalid_argument);
  CHECK_THROWS_AS(store.decompress(line, line.size()), std::invalid_argument);  // uncompressed: no routine
}

TEST_CASE("assist warps: the compression routine chooses bdi::compress's encoding on random lines", "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  std::mt19937_64 rng(4545);
  unsigned per_encoding[bdi::kEncodingCount] = {};
  const size_t sizes[] = {32, 64, 128, 256};
  for (int round = 0; round < 3000; ++round) {
    const Line line = random_line(rng, sizes[rng() % 4]);
    const Encoding expected = bdi::compress(line).encoding;
    ++per_encoding[size_t(expected)];
    INFO("encoding " << bdi::name(expected) << ", line of " << line.size() << " bytes, round " << round);
    uint64_t n = 0;
    REQUIRE(bdi::name(store.compress(line, Encoding::uncompressed, &n)) == std::string(bdi::name(expected)));
    REQUIRE(n > 10);
  }
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    INFO(bdi::name(Encoding(e)));
    CHECK(per_encoding[e] > 10);
  }
}

TEST_CASE("assist warps: testing the encoding chosen last first keeps it when it fits, else the full test",
          "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  std::mt19937_64 rng(454545);
  unsigned kept = 0, full = 0;
  const size_t sizes[] = {32, 64, 128, 256};
  for (int round = 0; round < 3000; ++round) {
    const Line line = random_line(rng, sizes[rng() % 4]);
    const Encoding first = Encoding(rng() % bdi::kEncodingCount);
    const Encoding expected = AssistWarpStore::expected_choice(line, first);
    const bool fits = first != Encoding::uncompressed && bdi::stored_bytes(first, line.size()) < line.size() &&
                      bdi::fits(first, line.data(), line.size());
    REQUIRE(expected == (fits ? first : bdi::compress(line).encoding));
    ++(fits ? kept : full);
    INFO("first " << bdi::name(first) << ", expected " << bdi::name(expected) << ", line of " << line.size()
                  << " bytes, round " << round);
    uint64_t n = 0, n_full = 0;
    REQUIRE(bdi::name(store.compress(line, first, &n)) == std::string(bdi::name(expected)));
    store.compress(line, Encoding::uncompressed, &n_full);
    if (fits) CHECK(n < n_full);   // one encoding tested, not all
    else if (first != Encoding::uncompressed) CHECK(n > n_full);  // the one tested, then all
    else CHECK(n == n_full);
  }
  CHECK(kept > 300);
  CHECK(full > 300);
}

TEST_CASE("assist warps: instructions per routine, by encoding", "[assist]") {
  AssistWarpStore store{CuConfig::defaults()};
  const Line narrow = line_of<uint32_t>(64, [](size_t i) { return uint32_t(0x40000000 + i); });
  const bdi::Compressed img = bdi::compress(narrow);
  uint64_t d = 0, full = 0, first = 0;
  REQUIRE(store.decompress(img.image, 64, &d) == narrow);
  REQUIRE(store.compress(narrow, Encoding::uncompressed, &full) == Encoding::base4_delta1);
  REQUIRE(store.compress(narrow, Encoding::base4_delta1, &first) == Encoding::base4_delta1);
  CHECK(d == 3);
  CHECK(first < full / 3);
  CHECK(full > 100);
}
