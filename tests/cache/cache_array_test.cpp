// The tag/data array alone: set indexing, LRU victims, dirty counts.
#include <catch2/catch.hpp>

#include <set>

#include "models/cache/cache_array.h"

using namespace tessera;

TEST_CASE("cache array: XOR indexing spreads slice-interleaved lines over every set", "[cache][array]") {
  // An L2 slice of 16 that sees every 16th 128-byte line (128 B interleave):
  // with modulo indexing over 128 sets, those lines use only 128/16 = 8 sets.
  CacheArray modulo(128, 16, 128, false), folded(128, 16, 128, true);
  std::set<uint64_t> modulo_sets, folded_sets;
  for (uint64_t i = 0; i < 4096; ++i) {
    const uint64_t line = (i * 16 + 3) * 128;  // slice 3's lines
    modulo_sets.insert(modulo.set_of(line));
    folded_sets.insert(folded.set_of(line));
  }
  REQUIRE(modulo_sets.size() == 8);
  REQUIRE(folded_sets.size() == 128);
  REQUIRE(xor_fold(0b1011'0110, 4) == (0b1011 ^ 0b0110));
  REQUIRE(xor_fold(12345, 0) == 0);
}

TEST_CASE("cache array: fills take invalid ways first, then the least recently used", "[cache][array]") {
  CacheArray a(2, 2, 64, false);  // lines 0x000, 0x080, 0x100 share set 0
  const int w0 = a.victim(0x000);
  a.install(w0, 0x000);
  const int w1 = a.victim(0x080);
  REQUIRE(w1 != w0);  // the invalid way
  a.install(w1, 0x080);
  a.touch(w0);  // 0x000 used again: 0x080 is now the LRU line
  REQUIRE(a.victim(0x100) == w1);
  a.mark_dirty(w0, 0, 64, nullptr, 0);
  REQUIRE(a.find(0x000) == w0);
  REQUIRE(a.find(0x100) == -1);
  REQUIRE(a.valid_lines() == 2);
  REQUIRE(a.dirty_lines() == 1);
  a.invalidate(w0);
  REQUIRE(a.find(0x000) == -1);
  REQUIRE(a.dirty_lines() == 0);
}
