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
//
// Shared (`zero_shared`): the caches of one array of blocks (sa[3].l1v[0..3])
// look up one mask array, of the sum of their zero caches' sizes (LazyGPU's
// Table 2: one 8 KiB L1 zero cache per shader array of 4 CUs). Each cache
// keeps its own counters, answers its own requesters with its own latency
// and fills a mask line it misses through its own `out`; a miss on a line
// another cache of the group is fetching waits for that fill (wait_for())
// instead of fetching it again.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/cache/cache_array.h"
#include "models/cache/cache_config.h"
#include "models/mem/gpu_access.h"
#include "platform/block.h"
#include "platform/stats.h"

namespace tessera {

class ZeroCache {
 public:
  static constexpr uint64_t kKeyBit = uint64_t{1} << 63;
  static bool is_key(uint64_t line) { return (line & kKeyBit) != 0; }

  // The zero cache of `cfg` (cfg.zero_bytes > 0); its counters go in
  // `stats`. With cfg.zero_shared, its mask array is the one of `group` in
  // `shared` (grown by this cache's share).
  ZeroCache(const CacheConfig& cfg, StatGroup& stats, SharedObjects* shared = nullptr, const std::string& group = "");

  // The key of the mask line covering the data byte at `addr`.
  uint64_t key_of(uint64_t addr) const;
  // The first data byte the mask line `key` covers: where a query for it goes.
  uint64_t first_address(uint64_t key) const;
  // Bytes of data one mask line covers (32 per mask byte).
  uint64_t coverage() const { return coverage_; }
  unsigned line_size() const { return array().line_size(); }

  // The index of mask line `key` in the array, or -1.
  int find(uint64_t key) const { return array().find(array_index(key)); }
  void touch(int idx) { array().touch(idx); }
  void mark_dirty(int idx) { array().mark_dirty(idx, 0, array().line_size(), nullptr, 0); }
  // Installs mask line `key` (a line already present, installed by another
  // cache of a shared group, is only touched); returns its index and, if the
  // line it replaced was dirty, that line's key in `dirty_victim` (else 0).
  int install(uint64_t key, uint64_t& dirty_victim);

  // Fills in flight, seen by every cache of a shared group. `answer(when,
  // status)` answers a request that waits for another cache's fill.
  using Answer = std::function<void(const sc_core::sc_time&, tlm::tlm_response_status)>;
  bool fetching(uint64_t key) const { return group_->fetching.count(key) != 0; }
  void fetch_started(uint64_t key) { group_->fetching.insert(key); }
  void wait_for(uint64_t key, Answer answer) { group_->waiters[key].push_back(std::move(answer)); }
  // The fill of `key` is back (or failed): the requests waiting for it are answered.
  void fetch_done(uint64_t key, const sc_core::sc_time& now, tlm::tlm_response_status status);

  // Maintenance, as on data lines: calls `line(key, dirty)` for each line
  // `op` touches (valid lines; dirty ones for Writeback), then cleans it and
  // (Invalidate, WritebackInvalidate) drops it. The caller writes back what
  // it must; dirty lines an Invalidate drops are counted here.
  template <class F>
  void maintain(CacheOp op, F line);
  uint64_t valid_lines() const { return array().valid_lines(); }
  uint64_t dirty_lines() const { return array().dirty_lines(); }
  // Bytes of mask lines this cache looks up (a shared group's, all of them).
  uint64_t capacity_bytes() const { return array().capacity() * uint64_t{array().line_size()}; }

  // Counters (docs/CACHES.md, "Zero cache").
  Counter &hits, &misses, &fills, &evictions, &writebacks, &zero_stores, &bytes_saved, &lines_dropped_dirty;
  Scalar& hit_rate;
  void update_hit_rate();

 private:
  // The array's line address for `key` (the key without its marker bit).
  uint64_t array_index(uint64_t key) const { return key & ~kKeyBit; }

  // The mask array and the fills in flight, of one cache or of a shared group.
  struct Group {
    std::unique_ptr<CacheArray> lines;
    uint64_t bytes = 0;
    unsigned ways = 0, line_size = 0;
    uint64_t interleave = 0, partitions = 0;
    std::set<uint64_t> fetching;
    std::map<uint64_t, std::vector<Answer>> waiters;
  };
  // Adds this cache's share of `cfg` to `g` (its array rebuilt, still empty: before the simulation).
  static void join(Group& g, const CacheConfig& cfg, const std::string& group);
  CacheArray& array() { return *group_->lines; }
  const CacheArray& array() const { return *group_->lines; }

  uint64_t coverage_;      // data bytes per mask line
  uint64_t interleave_;    // bytes per partition chunk, 0: contiguous coverage
  uint64_t partitions_;
  std::unique_ptr<Group> own_;  // not shared: this cache's own
  Group* group_;
};

template <class F>
void ZeroCache::maintain(CacheOp op, F line) {
  CacheArray& a = array();
  for (int idx = 0; idx < a.capacity(); ++idx) {
    const bool dirty = a.dirty(idx);
    if (!a.valid(idx) || (op == CacheOp::Writeback && !dirty)) continue;
    if (dirty && op == CacheOp::Invalidate) ++lines_dropped_dirty;
    line(a.address(idx) | kKeyBit, dirty);
    a.clean(idx);
    if (op != CacheOp::Writeback) a.invalidate(idx);
  }
}

}  // namespace tessera
