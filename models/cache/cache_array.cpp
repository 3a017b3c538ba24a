#include "models/cache/cache_array.h"

namespace tessera {

namespace {
unsigned log2_of(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < v) ++n;
  return n;
}
}  // namespace

uint64_t xor_fold(uint64_t value, unsigned bits) {
  if (bits == 0) return 0;
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  uint64_t r = 0;
  while (value) {
    r ^= value & mask;
    value = bits >= 64 ? 0 : value >> bits;
  }
  return r;
}

CacheArray::CacheArray(uint64_t sets, unsigned ways, unsigned line_size, bool xor_index)
    : sets_(sets),
      ways_(ways),
      line_size_(line_size),
      line_shift_(log2_of(line_size)),
      xor_index_(xor_index),
      set_bits_(log2_of(sets)),
      lines_(sets * ways),
      data_(sets * ways * line_size, 0) {}

uint64_t CacheArray::set_of(uint64_t line_addr) const {
  const uint64_t n = line_addr >> line_shift_;
  return xor_index_ ? xor_fold(n, set_bits_) : n % sets_;
}

int CacheArray::find(uint64_t line_addr) const {
  const int first = static_cast<int>(set_of(line_addr) * ways_);
  for (int i = first; i < first + static_cast<int>(ways_); ++i)
    if (lines_[i].valid && lines_[i].addr == line_addr) return i;
  return -1;
}

int CacheArray::victim(uint64_t line_addr) const {
  const int first = static_cast<int>(set_of(line_addr) * ways_);
  int best = first;
  for (int i = first; i < first + static_cast<int>(ways_); ++i) {
    if (!lines_[i].valid) return i;
    if (lines_[i].last_use < lines_[best].last_use) best = i;
  }
  return best;
}

void CacheArray::install(int index, uint64_t line_addr) {
  Line& l = lines_[index];
  l.addr = line_addr;
  l.valid = true;
  l.dirty = false;
  touch(index);
}

uint64_t CacheArray::valid_lines() const {
  uint64_t n = 0;
  for (const Line& l : lines_) n += l.valid;
  return n;
}

uint64_t CacheArray::dirty_lines() const {
  uint64_t n = 0;
  for (const Line& l : lines_) n += l.valid && l.dirty;
  return n;
}

}  // namespace tessera
