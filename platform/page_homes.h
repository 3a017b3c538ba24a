// First-touch page placement shared by every block that routes by it (the
// chiplet network with placement first_touch, and chiplets' crossbars with
// first_touch_page): a page's home is the chiplet whose request reached any
// of them first, so that a crossbar that keeps its own chiplet's lines and a
// network that delivers the others agree on every page. One per platform
// (SharedObjects kPageHomesName).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

#include "platform/errors.h"

namespace tessera {

constexpr const char* kPageHomesName = "first_touch_pages";

class PageHomes {
 public:
  explicit PageHomes(uint64_t page_size) : page_size_(page_size) {}

  uint64_t page_size() const { return page_size_; }
  // Every block sharing the table must place pages of the same size.
  void check_page_size(uint64_t page_size, const std::string& who) const {
    if (page_size != page_size_)
      throw UserError(who + ": first-touch page size " + std::to_string(page_size) + " B differs from the " +
                      std::to_string(page_size_) + " B of another block placing pages by first touch (they share "
                      "one page table)");
  }
  // The home of addr's page; a page no request has touched becomes `toucher`'s.
  unsigned touch(uint64_t addr, unsigned toucher) { return homes_.emplace(addr / page_size_, toucher).first->second; }
  // Places addr's page on `home` before any request touches it, as an
  // allocator that binds pages to a chiplet's memory would; false if the page
  // is already placed on another chiplet (it stays there).
  bool place(uint64_t addr, unsigned home) { return touch(addr, home) == home; }
  // The home of addr's page, or `otherwise` if no request has touched it (a
  // debug access does not place a page).
  unsigned home_or(uint64_t addr, unsigned otherwise) const {
    const auto it = homes_.find(addr / page_size_);
    return it == homes_.end() ? otherwise : it->second;
  }

 private:
  uint64_t page_size_;
  std::unordered_map<uint64_t, unsigned> homes_;  // page number -> chiplet
};

}  // namespace tessera
