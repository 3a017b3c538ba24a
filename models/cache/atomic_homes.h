// AtomicHomes: which cache last applied atomics on each line, over one
// platform (a SharedObjects entry). A write-back cache that applies atomics in
// its own copy (atomics: here) must be the only one doing so for an address:
// two caches that each hold a line and update it see neither the other's
// updates nor its dirty bytes, and one of the updates is lost when both write
// back. The caches record the lines they apply atomics on here; a cache that
// takes a line over from another asks that one whether it still holds the
// bytes dirty (Cache::holds_dirty), which is the conflict. Lines are keyed by
// their first byte in the recording cache's line size: caches of different
// line sizes do not see each other here (no false reports, some missed).
#pragma once
#include <cstdint>

#include "common/flat_map.h"

namespace tessera {

class Cache;

class AtomicHomes {
 public:
  // Makes `cache` the line's home; returns the previous one (nullptr if none).
  const Cache* take(uint64_t line, const Cache* cache) {
    const Cache*& home = homes_[line];
    const Cache* previous = home;
    home = cache;
    return previous;
  }
  // True the first time only: the platform says it once, the statistics count every one.
  bool first_conflict() {
    const bool first = !conflict_seen_;
    conflict_seen_ = true;
    return first;
  }

 private:
  FlatMap<uint64_t, const Cache*> homes_;
  bool conflict_seen_ = false;
};

}  // namespace tessera
