#include "models/cache/zero_cache.h"

#include "platform/errors.h"

namespace tessera {

namespace {
constexpr unsigned kPartitionShift = 40;  // key bits below hold a partition's mask line number
}

ZeroCache::ZeroCache(const CacheConfig& cfg, StatGroup& stats, SharedObjects* shared, const std::string& group)
    : hits(stats.counter("zero_hits",
                         "zero-mask queries, zero-only stores and mask writebacks from above that found their mask "
                         "line")),
      misses(stats.counter("zero_misses",
                           "zero-mask queries, zero-only stores and mask writebacks from above that did not find their "
                           "mask line (merged misses included)")),
      fills(stats.counter("zero_fills", "mask lines fetched from below")),
      evictions(stats.counter("zero_evictions", "valid mask lines replaced by a fill")),
      writebacks(stats.counter("zero_writebacks", "dirty mask lines written below (evictions and maintenance)")),
      zero_stores(stats.counter("zero_stores", "stores of zeros to whole words that updated only the zero cache")),
      bytes_saved(stats.counter("zero_bytes_saved", "data bytes of those stores that the data array and the level "
                                "below never received")),
      lines_dropped_dirty(stats.counter("zero_dirty_lines_dropped", "dirty mask lines an Invalidate discarded")),
      hit_rate(stats.scalar("zero_hit_rate", "zero_hits / (zero_hits + zero_misses), at the end of the run")),
      coverage_(uint64_t{cfg.line_size} * 8 * 4),
      interleave_(cfg.zero_partitions > 1 ? cfg.zero_interleave : 0),
      partitions_(cfg.zero_partitions) {
  if (cfg.zero_shared && shared) {
    group_ = &shared->get<Group>(group);
  } else {
    own_ = std::make_unique<Group>();
    group_ = own_.get();
  }
  join(*group_, cfg, group);
}

void ZeroCache::join(Group& g, const CacheConfig& cfg, const std::string& group) {
  if (g.lines && (g.ways != cfg.ways || g.line_size != cfg.line_size || g.interleave != cfg.zero_interleave ||
                  g.partitions != cfg.zero_partitions))
    throw UserError(group + ": caches sharing a zero cache (zero_shared) must have the same ways, line_size, "
                    "zero_interleave and zero_partitions");
  g.bytes += cfg.zero_bytes;
  g.ways = cfg.ways;
  g.line_size = cfg.line_size;
  g.interleave = cfg.zero_interleave;
  g.partitions = cfg.zero_partitions;
  const uint64_t sets = g.bytes / (uint64_t{g.ways} * g.line_size);
  g.lines = std::make_unique<CacheArray>(sets, g.ways, g.line_size, is_power_of_two(sets));
}

void ZeroCache::fetch_done(uint64_t key, const sc_core::sc_time& now, tlm::tlm_response_status status) {
  group_->fetching.erase(key);
  const auto it = group_->waiters.find(key);
  if (it == group_->waiters.end()) return;
  std::vector<Answer> answers = std::move(it->second);
  group_->waiters.erase(it);
  for (Answer& a : answers) a(now, status);
}

// Within one partition, data bytes are numbered densely (the partition's
// "local" address): chunk k of the partition holds local bytes [k*I, (k+1)*I).
// Mask line n of the partition covers local bytes [n*C, (n+1)*C).
uint64_t ZeroCache::key_of(uint64_t addr) const {
  uint64_t partition = 0, local = addr;
  if (interleave_) {
    const uint64_t chunk = addr / interleave_;
    partition = chunk % partitions_;
    local = chunk / partitions_ * interleave_ + addr % interleave_;
  }
  const uint64_t number = partition << kPartitionShift | local / coverage_;
  return (number * line_size()) | kKeyBit;
}

uint64_t ZeroCache::first_address(uint64_t key) const {
  const uint64_t number = (key & ~kKeyBit) / line_size();
  const uint64_t partition = number >> kPartitionShift;
  const uint64_t local = (number & ((uint64_t{1} << kPartitionShift) - 1)) * coverage_;
  if (!interleave_) return local;
  return (local / interleave_ * partitions_ + partition) * interleave_ + local % interleave_;
}

int ZeroCache::install(uint64_t key, uint64_t& dirty_victim) {
  dirty_victim = 0;
  if (const int present = find(key); present >= 0) {
    touch(present);
    return present;
  }
  CacheArray& a = array();
  const uint64_t line = array_index(key);
  const int idx = a.victim(line);
  if (a.valid(idx)) {
    ++evictions;
    if (a.dirty(idx)) dirty_victim = a.address(idx) | kKeyBit;
  }
  a.install(idx, line);
  ++fills;
  return idx;
}

void ZeroCache::update_hit_rate() {
  const uint64_t lookups = hits.value + misses.value;
  hit_rate.value = lookups ? static_cast<double>(hits.value) / static_cast<double>(lookups) : 0.0;
}

}  // namespace tessera
