// DeviceMemory's memory-side access: ranges that span allocations and the
// unmapped gaps between them, as a DRAM controller sees them.
#include "common/device_memory.h"

#include <catch2/catch.hpp>
#include <numeric>
#include <vector>

using tessera::isa::DeviceMemory;

namespace {
uint8_t pattern(uint64_t i) { return static_cast<uint8_t>(i * 7 + 3); }
}  // namespace

TEST_CASE("device memory: read_any reads zeros outside allocations and the real bytes inside", "[mem][device_memory]") {
  DeviceMemory mem;
  const uint64_t a = mem.alloc(100);
  const uint64_t b = mem.alloc(64);
  // alloc() leaves the rest of a's 64 KiB granule and one guard granule unmapped.
  REQUIRE(b == a + 2 * DeviceMemory::kGranule);
  std::vector<uint8_t> fill_a(100), fill_b(64);
  for (size_t i = 0; i < fill_a.size(); ++i) fill_a[i] = pattern(i);
  for (size_t i = 0; i < fill_b.size(); ++i) fill_b[i] = pattern(i + 1000);
  mem.write(a, fill_a.data(), fill_a.size());
  mem.write(b, fill_b.data(), fill_b.size());

  std::vector<uint8_t> got(16, 0xEE);
  mem.read_any(a + 10, got.data(), got.size());  // wholly inside
  for (size_t i = 0; i < 16; ++i) REQUIRE(got[i] == pattern(10 + i));

  got.assign(32, 0xEE);
  mem.read_any(a + 90, got.data(), got.size());  // runs 22 bytes past a's end
  for (size_t i = 0; i < 10; ++i) REQUIRE(got[i] == pattern(90 + i));
  for (size_t i = 10; i < 32; ++i) REQUIRE(got[i] == 0);

  got.assign(16, 0xEE);
  mem.read_any(a - 8, got.data(), got.size());  // starts 8 bytes below a
  for (size_t i = 0; i < 8; ++i) REQUIRE(got[i] == 0);
  for (size_t i = 8; i < 16; ++i) REQUIRE(got[i] == pattern(i - 8));

  // One range from inside a, across the whole gap, into b.
  const uint64_t span = b + 8 - (a + 96);
  got.assign(span, 0xEE);
  mem.read_any(a + 96, got.data(), span);
  for (size_t i = 0; i < 4; ++i) REQUIRE(got[i] == pattern(96 + i));
  for (size_t i = 4; i < span - 8; ++i) REQUIRE(got[i] == 0);
  for (size_t i = 0; i < 8; ++i) REQUIRE(got[span - 8 + i] == pattern(1000 + i));

  got.assign(8, 0xEE);
  mem.read_any(0x100, got.data(), 8);  // below every allocation
  REQUIRE(got == std::vector<uint8_t>(8, 0));
  mem.read_any(~uint64_t{0} - 3, got.data(), 4);  // the very top of the address space
  REQUIRE(got[0] == 0);
}

TEST_CASE("device memory: write_masked honours byte enables and drops bytes outside allocations",
          "[mem][device_memory]") {
  DeviceMemory mem;
  const uint64_t a = mem.alloc(64);
  const uint64_t b = mem.alloc(64);
  const size_t before = mem.allocation_count();

  std::vector<uint8_t> src(16);
  std::iota(src.begin(), src.end(), 1);
  std::vector<uint8_t> be(16, 0);
  for (size_t i = 0; i < 16; i += 2) be[i] = 0xff;  // every even byte
  mem.write_masked(a + 8, src.data(), 16, be.data());
  std::vector<uint8_t> got(32);
  mem.read(got.data(), a, 32);
  for (size_t i = 0; i < 32; ++i) {
    INFO("byte " << i);
    const bool written = i >= 8 && i < 24 && (i - 8) % 2 == 0;
    REQUIRE(got[i] == (written ? src[i - 8] : 0));
  }

  // Unmasked, straddling a's end: the 8 bytes inside land, the rest vanish.
  mem.write_masked(a + 56, src.data(), 16, nullptr);
  mem.read(got.data(), a + 48, 16);
  for (size_t i = 0; i < 8; ++i) REQUIRE(got[i] == 0);
  for (size_t i = 8; i < 16; ++i) REQUIRE(got[i] == src[i - 8]);
  std::vector<uint8_t> gap(16, 0xEE);
  mem.read_any(a + 64, gap.data(), 16);
  REQUIRE(gap == std::vector<uint8_t>(16, 0));

  // Across the gap into b, masked: only b's enabled bytes change.
  const uint64_t span = b + 4 - (a + 62);
  std::vector<uint8_t> big(span, 0x5A), big_be(span, 0xff);
  big_be[1] = 0;                // a+63 stays
  big_be[span - 2] = 0;         // b+2 stays
  mem.write_masked(a + 62, big.data(), span, big_be.data());
  uint8_t tail[2], head[4];
  mem.read(tail, a + 62, 2);
  mem.read(head, b, 4);
  REQUIRE(tail[0] == 0x5A);
  REQUIRE(tail[1] == src[7]);  // written by the previous step, masked off here
  REQUIRE(head[0] == 0x5A);
  REQUIRE(head[1] == 0x5A);
  REQUIRE(head[2] == 0);
  REQUIRE(head[3] == 0x5A);

  mem.write_masked(0x40, src.data(), 16, nullptr);  // nowhere: dropped, nothing allocated
  REQUIRE(mem.allocation_count() == before);
  REQUIRE(mem.bytes_allocated() == 128);
}
