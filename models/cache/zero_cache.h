// The zero cache of LazyGPU: a mask array carved out of a data cache, one bit
// per aligned 4-byte word telling whether the word is zero. docs/CACHES.md,
// "Zero cache", has the model.
//
// A mask line has the data cache's line size (its transaction), so a line of
// B bytes covers 32 * B bytes of data: a 32 B mask line covers 1 KiB. Data
// interleaved over P memory partitions in chunks of I bytes is covered per
// partition (LazyGPU, section 4.2): a mask line holds the words of one
// partition only, so that the level that homes the data (an L2 slice) homes
// its mask line and one query never asks two partitions.
//
// The array keeps tags, valid and dirty bits and LRU order (a CacheArray of
// its own); it keeps no mask values. The backing store keeps plain bytes, so
// whether a word is zero is read from the data itself; the mask array models
// where masks are held and what fetching and writing them costs.
//
// Mask lines are named by a key in an address space of their own
// (key_of()), which also serves as their MSHR line: keys have bit 63 set,
// which no data line address has.
#pragma once
#include <cstdint>

#include "models/cache/cache_array.h"
#include "models/cache/cache_config.h"
#include "models/mem/gpu_access.h"
#include "platform/stats.h"

namespace tessera {

class ZeroCache {
 public:
  static constexpr uint64_t kKeyBit = uint64_t{1} << 63;
  static bool is_key(uint64_t line) { return (line & kKeyBit) != 0; }

  // The zero cache of `cfg` (cfg.zero_bytes > 0); its counters go in `stats`.
  ZeroCache(const CacheConfig& cfg, StatGroup& stats);

  // The key of the mask line covering the data byte at `addr`.
  uint64_t key_of(uint64_t addr) const;
  // The first data byte the mask line `key` covers: where a query for it goes.
  uint64_t first_address(uint64_t key) const;
  // Bytes of data one mask line covers (32 per mask byte).
  uint64_t coverage() const { return coverage_; }
  unsigned line_size() const { return array_.line_size(); }

  // The index of mask line `key` in the array, or -1.
  int find(uint64_t key) const { return array_.find(array_index(key)); }
  void touch(int idx) { array_.touch(idx); }
  void mark_dirty(int idx) { array_.mark_dirty(idx, 0, array_.line_size(), nullptr, 0); }
  // Installs mask line `key`; returns its index and, if the line it replaced
  // was dirty, that line's key in `dirty_victim` (else 0).
  int install(uint64_t key, uint64_t& dirty_victim);

  // Maintenance, as on data lines: calls `line(key, dirty)` for each line
  // `op` touches (valid lines; dirty ones for Writeback), then cleans it and
  // (Invalidate, WritebackInvalidate) drops it. The caller writes back what
  // it must; dirty lines an Invalidate drops are counted here.
  template <class F>
  void maintain(CacheOp op, F line);
  uint64_t valid_lines() const { return array_.valid_lines(); }
  uint64_t dirty_lines() const { return array_.dirty_lines(); }

  // Counters (docs/CACHES.md, "Zero cache").
  Counter &hits, &misses, &fills, &evictions, &writebacks, &zero_stores, &bytes_saved, &lines_dropped_dirty;
  Scalar& hit_rate;
  void update_hit_rate();

 private:
  // The array's line address for `key` (the key without its marker bit).
  uint64_t array_index(uint64_t key) const { return key & ~kKeyBit; }

  uint64_t coverage_;      // data bytes per mask line
  uint64_t interleave_;    // bytes per partition chunk, 0: contiguous coverage
  uint64_t partitions_;
  CacheArray array_;
};

template <class F>
void ZeroCache::maintain(CacheOp op, F line) {
  for (int idx = 0; idx < array_.capacity(); ++idx) {
    const bool dirty = array_.dirty(idx);
    if (!array_.valid(idx) || (op == CacheOp::Writeback && !dirty)) continue;
    if (dirty && op == CacheOp::Invalidate) ++lines_dropped_dirty;
    line(array_.address(idx) | kKeyBit, dirty);
    array_.clean(idx);
    if (op != CacheOp::Writeback) array_.invalidate(idx);
  }
}

}  // namespace tessera
