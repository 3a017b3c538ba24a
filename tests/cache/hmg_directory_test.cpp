// The HMG directory alone: regions, sharers, LRU eviction of entries, shapes refused.
#include <catch2/catch.hpp>

#include "models/cache/hmg_directory.h"
#include "platform/errors.h"

using namespace tessera;

namespace {
HmgDirectoryShape shape(unsigned entries, unsigned ways, unsigned lines = 4, unsigned line_size = 128) {
  HmgDirectoryShape s;
  s.entries = entries;
  s.ways = ways;
  s.lines_per_entry = lines;
  s.line_size = line_size;
  return s;
}
}  // namespace

TEST_CASE("hmg directory: an entry covers lines_per_entry lines and collects its sharers", "[cache][hmg]") {
  HmgDirectory d(shape(8, 2), "dir");
  REQUIRE(d.region_bytes() == 512);
  REQUIRE(d.sharers_of(0x1000) == 0);  // nothing tracked yet: a miss
  REQUIRE(d.misses == 1);
  REQUIRE_FALSE(d.add_sharer(0x1000, 1).happened);  // allocates the region 0x1000..0x11ff
  REQUIRE(d.misses == 2);
  REQUIRE_FALSE(d.add_sharer(0x1180, 3).happened);  // the region's last line: the same entry
  REQUIRE(d.hits == 1);
  REQUIRE(d.sharers_of(0x1080) == 0b1010);
  REQUIRE(d.sharers_of(0x1200) == 0);  // the next region is another entry
  REQUIRE(d.valid_entries() == 1);
  REQUIRE(d.evictions == 0);
}

TEST_CASE("hmg directory: a full set evicts its least recently used entry with its sharers", "[cache][hmg]") {
  HmgDirectory d(shape(4, 2), "dir");  // 2 sets of 2 ways; regions of 512 B alternate sets
  // Regions 0x0, 0x400 and 0x800 all map to set 0.
  d.add_sharer(0x000, 0);
  d.add_sharer(0x400, 1);
  d.add_sharer(0x040, 2);  // region 0x0 used again: 0x400 is now the LRU entry
  REQUIRE(d.sharers_of(0x000) == 0b101);
  const HmgDirectory::Eviction ev = d.add_sharer(0x800, 0);
  REQUIRE(ev.happened);
  REQUIRE(ev.region == 0x400);
  REQUIRE(ev.sharers == 0b10);
  REQUIRE(d.evictions == 1);
  REQUIRE(d.sharers_of(0x400) == 0);
  REQUIRE(d.sharers_of(0x800) == 0b1);
  REQUIRE(d.sharers_of(0x000) == 0b101);
  // The other set is untouched: room there without an eviction.
  REQUIRE_FALSE(d.add_sharer(0x200, 5).happened);
  REQUIRE(d.valid_entries() == 3);
}

TEST_CASE("hmg directory: the paper's 12K entries of 4 lines track 6 MiB of 128-byte lines", "[cache][hmg]") {
  HmgDirectory d(HmgDirectoryShape{}, "dir");
  REQUIRE(d.region_bytes() == 512);
  // Every region of 6 MiB fits (each set's regions are spread evenly), the next one evicts.
  const uint64_t regions = 12288;
  for (uint64_t r = 0; r < regions; ++r) REQUIRE_FALSE(d.add_sharer(r * 512, 0).happened);
  REQUIRE(d.valid_entries() == regions);
  const HmgDirectory::Eviction ev = d.add_sharer(regions * 512, 1);
  REQUIRE(ev.happened);
  REQUIRE(ev.region == 0);  // set 0's least recently used entry
}

TEST_CASE("hmg directory: impossible shapes are refused with the owner named", "[cache][hmg]") {
  REQUIRE_THROWS_WITH(HmgDirectory(shape(10, 4), "chiplet[0].l2[0]"),
                      Catch::Contains("chiplet[0].l2[0]") && Catch::Contains("hmg_directory_entries 10"));
  REQUIRE_THROWS_WITH(HmgDirectory(shape(0, 1), "x"), Catch::Contains("non-zero multiple"));
  REQUIRE_THROWS_WITH(HmgDirectory(shape(8, 2, 3), "x"), Catch::Contains("hmg_lines_per_entry 3"));
  REQUIRE_THROWS_WITH(HmgDirectory(shape(8, 2, 4, 96), "x"), Catch::Contains("96 bytes"));
}
