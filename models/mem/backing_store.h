// Sparse, page-based storage of a byte-addressed space.
//
// Pages are allocated (zero-filled) on first write or when a direct pointer is
// handed out; reads of pages never written return zeros without allocating.
// Memories reach one store through SharedObjects by name, so several memory
// controllers (and the GPU's functional path) see the same bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace tessera {

class BackingStore {
 public:
  static constexpr uint64_t kDefaultPageSize = 64 * 1024;

  // page_size must be a power of two of at least 64 bytes (throws UserError otherwise).
  explicit BackingStore(uint64_t page_size = kDefaultPageSize);
  BackingStore(const BackingStore&) = delete;
  BackingStore& operator=(const BackingStore&) = delete;

  // Any length, any alignment, across page boundaries. addr + len may not wrap.
  void read(uint64_t addr, uint8_t* dst, uint64_t len) const;
  void write(uint64_t addr, const uint8_t* src, uint64_t len);
  void fill(uint64_t addr, uint8_t value, uint64_t len);

  // The page holding `addr`, allocated if needed: a direct pointer to its first
  // byte and the page's address range [start, end] (inclusive). Valid for the
  // store's lifetime; writes through it are seen by read() and vice versa.
  struct PageSpan {
    uint8_t* data;
    uint64_t start;
    uint64_t end;
  };
  PageSpan page(uint64_t addr);

  uint64_t page_size() const { return page_size_; }
  size_t pages_allocated() const { return pages_.size(); }
  // Drops every page: the whole space reads as zeros again.
  void clear();

 private:
  // nullptr for a page never allocated. One page-table lookup, cached for
  // the common case of consecutive accesses to the same page.
  uint8_t* find_page(uint64_t page_number) const;
  uint8_t* get_or_allocate(uint64_t page_number);

  uint64_t page_size_;
  unsigned page_shift_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
  mutable uint64_t cached_number_ = ~uint64_t{0};
  mutable uint8_t* cached_page_ = nullptr;
};

}  // namespace tessera
