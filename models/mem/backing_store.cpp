#include "models/mem/backing_store.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

namespace {
void check_span(uint64_t addr, uint64_t len) {
  if (len != 0 && addr + (len - 1) < addr)
    throw UserError("backing store access at " + hex(addr) + " of " + std::to_string(len) +
                    " bytes wraps around the 64-bit address space");
}
}  // namespace

BackingStore::BackingStore(uint64_t page_size) : page_size_(page_size), page_shift_(0) {
  if (page_size < 64 || (page_size & (page_size - 1)) != 0)
    throw UserError("backing store page size " + std::to_string(page_size) +
                    " is invalid; expected a power of two of at least 64 bytes");
  page_shift_ = log2_of(page_size);
}

uint8_t* BackingStore::find_page(uint64_t number) const {
  if (number == cached_number_) return cached_page_;
  auto it = pages_.find(number);
  if (it == pages_.end()) return nullptr;  // not cached: it may be allocated later
  cached_number_ = number;
  cached_page_ = it->second.get();
  return cached_page_;
}

uint8_t* BackingStore::get_or_allocate(uint64_t number) {
  if (uint8_t* p = find_page(number)) return p;
  auto& slot = pages_[number];
  slot.reset(new uint8_t[page_size_]());
  cached_number_ = number;
  cached_page_ = slot.get();
  return cached_page_;
}

void BackingStore::read(uint64_t addr, uint8_t* dst, uint64_t len) const {
  check_span(addr, len);
  while (len > 0) {
    uint64_t offset = addr & (page_size_ - 1);
    uint64_t chunk = std::min(len, page_size_ - offset);
    if (const uint8_t* p = find_page(addr >> page_shift_))
      std::memcpy(dst, p + offset, chunk);
    else
      std::memset(dst, 0, chunk);
    dst += chunk;
    addr += chunk;
    len -= chunk;
  }
}

void BackingStore::write(uint64_t addr, const uint8_t* src, uint64_t len) {
  check_span(addr, len);
  while (len > 0) {
    uint64_t offset = addr & (page_size_ - 1);
    uint64_t chunk = std::min(len, page_size_ - offset);
    std::memcpy(get_or_allocate(addr >> page_shift_) + offset, src, chunk);
    src += chunk;
    addr += chunk;
    len -= chunk;
  }
}

void BackingStore::fill(uint64_t addr, uint8_t value, uint64_t len) {
  check_span(addr, len);
  while (len > 0) {
    uint64_t offset = addr & (page_size_ - 1);
    uint64_t chunk = std::min(len, page_size_ - offset);
    // Zero-filling an untouched page would allocate it for nothing.
    if (value != 0 || find_page(addr >> page_shift_))
      std::memset(get_or_allocate(addr >> page_shift_) + offset, value, chunk);
    addr += chunk;
    len -= chunk;
  }
}

BackingStore::PageSpan BackingStore::page(uint64_t addr) {
  uint64_t number = addr >> page_shift_;
  uint64_t start = number << page_shift_;
  return PageSpan{get_or_allocate(number), start, start + (page_size_ - 1)};
}

void BackingStore::clear() {
  pages_.clear();
  cached_number_ = ~uint64_t{0};
  cached_page_ = nullptr;
}

}  // namespace tessera
