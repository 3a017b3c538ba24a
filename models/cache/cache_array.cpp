#include "models/cache/cache_array.h"

#include <algorithm>
#include <cstring>

#include <tlm>

namespace tessera {

XorFold::XorFold(unsigned bits) {
  if (bits == 0) return;  // mask 0: the fold is 0
  if (bits >= 64) {       // one field: the value itself
    mask_ = ~uint64_t{0};
    return;
  }
  bits_ = bits;
  top_shift_ = (1u << (31 - __builtin_clz(63 / bits))) * bits;  // S * bits
  mask_ = (uint64_t{1} << bits) - 1;
}

CacheArray::CacheArray(uint64_t sets, unsigned ways, unsigned line_size, bool xor_index)
    : sets_(sets),
      ways_(ways),
      line_size_(line_size),
      line_shift_(log2_of(line_size)),
      xor_index_(xor_index),
      sets_pow2_(is_power_of_two(sets)),
      set_fold_(log2_of(sets)),
      tags_(sets * ways, 0),
      lines_(sets * ways),
      data_(sets * ways * line_size, 0),
      dirty_(sets * ways * line_size, 0) {}

uint64_t CacheArray::set_of(uint64_t line_addr) const {
  const uint64_t n = line_addr >> line_shift_;
  // A zero cache carved out of a power-of-two array may leave a data array
  // whose sets are not a power of two: the fold over log2 of the next power
  // of two, then modulo (unchanged for a power of two).
  if (xor_index_) return sets_pow2_ ? set_fold_(n) : set_fold_(n) % sets_;
  return index_mod(n, sets_);
}

int CacheArray::find(uint64_t line_addr) const {
  const int first = static_cast<int>(set_of(line_addr) * ways_);
  const int end = first + static_cast<int>(ways_);
  const uint64_t tag = line_addr + 1;
  const uint64_t* tags = tags_.data();
  // Every lookup runs this, and a miss compares every way: four ways a loop
  // turn when the associativity allows (it usually is a power of two).
  if (ways_ % 4 == 0) {
    for (int i = first; i < end; i += 4) {
      if (tags[i] == tag) return i;
      if (tags[i + 1] == tag) return i + 1;
      if (tags[i + 2] == tag) return i + 2;
      if (tags[i + 3] == tag) return i + 3;
    }
    return -1;
  }
  for (int i = first; i < end; ++i)
    if (tags[i] == tag) return i;
  return -1;
}

int CacheArray::victim(uint64_t line_addr) const {
  const int first = static_cast<int>(set_of(line_addr) * ways_);
  int best = first;
  uint64_t best_use = lines_[first].last_use;  // held here, not read again every way
  for (int i = first; i < first + static_cast<int>(ways_); ++i) {
    if (!tags_[i]) return i;
    if (lines_[i].last_use < best_use) {
      best = i;
      best_use = lines_[i].last_use;
    }
  }
  return best;
}

void CacheArray::install(int index, uint64_t line_addr) {
  tags_[index] = line_addr + 1;
  clean(index);
  touch(index);
}

void CacheArray::mark_dirty(int index, uint64_t offset, uint64_t length, const uint8_t* enables,
                            unsigned enable_length) {
  uint8_t* d = dirty_.data() + static_cast<uint64_t>(index) * line_size_ + offset;
  if (!enables || !enable_length) {
    std::fill_n(d, length, uint8_t{1});
    lines_[index].dirty = true;
    return;
  }
  for (uint64_t i = 0; i < length; ++i)
    if (enables[i % enable_length] == TLM_BYTE_ENABLED) d[i] = 1;
  lines_[index].dirty = true;
}

void CacheArray::clean(int index) {
  if (!lines_[index].dirty) return;
  std::fill_n(dirty_.begin() + static_cast<int64_t>(index) * line_size_, line_size_, uint8_t{0});
  lines_[index].dirty = false;
}

std::vector<uint8_t> CacheArray::writeback_enables(int index) const {
  const uint8_t* d = dirty_.data() + static_cast<uint64_t>(index) * line_size_;
  if (!std::memchr(d, 0, line_size_)) return {};  // every byte dirty (memchr looks at many bytes a step)
  std::vector<uint8_t> enables(line_size_);
  for (unsigned i = 0; i < line_size_; ++i) enables[i] = d[i] ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  return enables;
}

bool CacheArray::dirty_in(int index, uint64_t offset, uint64_t length) const {
  if (!lines_[index].dirty) return false;
  const uint8_t* d = dirty_.data() + static_cast<uint64_t>(index) * line_size_ + offset;
  return std::any_of(d, d + length, [](uint8_t b) { return b != 0; });
}

uint64_t CacheArray::valid_lines() const {
  uint64_t n = 0;
  for (const uint64_t tag : tags_) n += tag != 0;
  return n;
}

uint64_t CacheArray::dirty_lines() const {
  uint64_t n = 0;
  for (size_t i = 0; i < lines_.size(); ++i) n += tags_[i] != 0 && lines_[i].dirty;
  return n;
}

}  // namespace tessera
