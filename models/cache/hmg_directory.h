// The coherence directory of one home chiplet under HMG (Ren et al., HPCA
// 2020), as plain C++: which chiplets' L2s may hold lines of a region homed
// on this chiplet. An entry covers `lines_per_entry` consecutive lines (a
// region) and holds one sharer bit per chiplet; entries are kept in a
// set-associative array with LRU replacement. It knows nothing of time or of
// the caches: the L2s (models/cache/cache_hmg.cpp) ask it whom to invalidate
// and act on the answer. docs/CPELIDE.md ("HMG") has the model.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

struct HmgDirectoryShape {
  unsigned entries = 12288;       // the paper's 12K entries per chiplet
  unsigned ways = 8;              // entries per set
  unsigned lines_per_entry = 4;   // lines one entry covers (the paper's 4)
  unsigned line_size = 128;       // bytes per line, a power of two
};

class HmgDirectory {
 public:
  // Throws UserError naming `who` for a shape that cannot be built: no entry,
  // entries not a multiple of ways, lines per entry or line size not a power
  // of two.
  HmgDirectory(const HmgDirectoryShape& shape, const std::string& who);

  // An entry replaced to make room: its region's first byte and its sharers,
  // whose copies of the region's lines must go.
  struct Eviction {
    bool happened = false;
    uint64_t region = 0;
    uint64_t sharers = 0;  // bit c: chiplet c
  };
  // Records that `chiplet`'s L2 fetches the line holding `addr`. Allocates the
  // region's entry if absent (hit or miss counted), evicting the set's least
  // recently used entry when the set is full.
  Eviction add_sharer(uint64_t addr, unsigned chiplet);
  // The chiplets that may hold the line of `addr`, for a write to it (hit or
  // miss counted); 0 when no entry covers the region.
  uint64_t sharers_of(uint64_t addr);

  uint64_t region_of(uint64_t addr) const { return addr & ~(region_bytes_ - 1); }
  uint64_t region_bytes() const { return region_bytes_; }
  unsigned line_size() const { return shape_.line_size; }
  unsigned lines_per_entry() const { return shape_.lines_per_entry; }
  uint64_t valid_entries() const;

  uint64_t hits = 0, misses = 0, evictions = 0;

 private:
  struct Entry {
    uint64_t region = 0;
    uint64_t sharers = 0;  // 0: the entry is free
    uint64_t last_use = 0;
  };
  // The way holding `region` in its set, or -1.
  int find(uint64_t region) const;
  uint64_t set_of(uint64_t region) const { return (region / region_bytes_) % sets_; }

  HmgDirectoryShape shape_;
  uint64_t region_bytes_, sets_;
  std::vector<Entry> entries_;  // set-major: set * ways + way
  uint64_t clock_ = 0;
};

}  // namespace tessera
