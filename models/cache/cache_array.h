// The tag and data arrays of a set-associative cache, as plain C++: which
// lines are present, their bytes, their dirty bits and LRU order. It knows
// nothing of time or TLM; models/cache/cache.h drives it.
#pragma once
#include <cstdint>
#include <vector>

#include "platform/units.h"

namespace tessera {

// xor_fold for one field width, with its constants worked out once: every
// lookup folds (set and bank index).
//
// It folds by halving rather than field by field (a bank index of 2 bits has
// some 15 fields to go through): after value ^= value >> (s * bits) for
// s = S, S/2, ..., 1, with S the largest power of two such that S * bits < 64,
// the lowest field holds the XOR of the first 2S fields, and 2S fields cover
// all 64 bits.
class XorFold {
 public:
  explicit XorFold(unsigned bits);
  uint64_t operator()(uint64_t value) const {
    for (unsigned shift = top_shift_; shift >= bits_; shift >>= 1) value ^= value >> shift;
    return value & mask_;
  }

 private:
  unsigned bits_ = 1, top_shift_ = 0;  // S * bits; 0: no halving (bits 0, or 64 and more)
  uint64_t mask_ = 0;
};

// XOR of the consecutive `bits`-wide fields of `value` (0 if bits is 0).
inline uint64_t xor_fold(uint64_t value, unsigned bits) { return XorFold(bits)(value); }

class CacheArray {
 public:
  // `xor_index`: set = XOR fold of the line number over log2(sets)-bit fields
  // (for sets not a power of two: over the next power of two's, then modulo
  // sets); otherwise line number modulo sets.
  CacheArray(uint64_t sets, unsigned ways, unsigned line_size, bool xor_index);

  unsigned line_size() const { return line_size_; }
  uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }
  uint64_t line_of(uint64_t addr) const { return addr & ~uint64_t{line_size_ - 1}; }
  uint64_t set_of(uint64_t line_addr) const;

  // Index of the line holding `line_addr`, or -1.
  int find(uint64_t line_addr) const;
  // The index a fill of `line_addr` goes to: an invalid way of its set, else
  // the least recently used one (the caller evicts what is there).
  int victim(uint64_t line_addr) const;
  // Marks `index` as holding `line_addr`, clean and most recently used.
  void install(int index, uint64_t line_addr);
  void touch(int index) { lines_[index].last_use = ++clock_; }
  void invalidate(int index) {
    tags_[index] = 0;
    clean(index);
  }
  // Dirty bytes: a write-back cache writes back only the bytes written since
  // the line was filled, so that two caches holding one line (one L2 per
  // chiplet) and writing different bytes of it do not undo each other.
  void mark_dirty(int index, uint64_t offset, uint64_t length, const uint8_t* enables, unsigned enable_length);
  void clean(int index);
  // TLM byte enables of the dirty bytes for a writeback; empty when every byte is dirty.
  std::vector<uint8_t> writeback_enables(int index) const;
  // Whether any of `length` bytes from `offset` in the line is dirty.
  bool dirty_in(int index, uint64_t offset, uint64_t length) const;

  bool valid(int index) const { return tags_[index] != 0; }
  bool dirty(int index) const { return lines_[index].dirty; }
  // The address of the line at `index` (the first byte); meaningful when valid.
  uint64_t address(int index) const { return tags_[index] - 1; }
  uint8_t* data(int index) { return data_.data() + static_cast<uint64_t>(index) * line_size_; }
  const uint8_t* data(int index) const { return data_.data() + static_cast<uint64_t>(index) * line_size_; }
  int capacity() const { return static_cast<int>(lines_.size()); }
  uint64_t valid_lines() const;
  uint64_t dirty_lines() const;

 private:
  uint64_t sets_;
  unsigned ways_, line_size_, line_shift_;
  bool xor_index_;
  bool sets_pow2_;
  XorFold set_fold_;  // xor_index: log2(sets)-bit fields
  struct Line {
    uint64_t last_use = 0;  // LRU stamp, larger = more recent
    bool dirty = false;
  };
  // Per line, set-major (index = set * ways + way): its address + 1 when
  // valid (line addresses are aligned, so the +1 sets bit 0), else 0. A
  // lookup compares these alone: a set's tags share one or two host cache
  // lines.
  std::vector<uint64_t> tags_;
  std::vector<Line> lines_;    // the rest of each line's state, same order
  std::vector<uint8_t> data_;  // line_size bytes per line, same order
  std::vector<uint8_t> dirty_;  // 1 per dirty byte, same layout as data_
  uint64_t clock_ = 0;
};

// value % m, as a mask for the usual power-of-two m (no division on every lookup).
inline uint64_t index_mod(uint64_t value, uint64_t m) { return (m & (m - 1)) == 0 ? value & (m - 1) : value % m; }

}  // namespace tessera
