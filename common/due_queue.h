// DueQueue: items sorted by the time they become due (an sc_time value),
// first in, first out among items of the same time, as a std::multimap keyed
// by time would keep them, but in a vector with a moving front. The blocks'
// queues are short and an item is most often due later than or as late as
// every other, but not always (a cache answers a hit hit_latency cycles on, a
// fill at once): appending and taking the front (an index step) cost a
// handful of host instructions, and inserting before the end a binary search
// and a move of the later entries, a fraction of what a std::deque's
// insertion costs. A block walks it from the front and takes the items whose
// time has come.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera {

template <class Item>
class DueQueue {
 public:
  struct Entry {
    uint64_t when;  // sc_time value
    Item item;
  };
  using iterator = typename std::vector<Entry>::iterator;

  // After every item due at `when` or earlier.
  void insert(uint64_t when, const Item& item) {
    if (empty() || entries_.back().when <= when) {
      entries_.push_back(Entry{when, item});
      return;
    }
    auto at = std::upper_bound(begin(), end(), when, [](uint64_t t, const Entry& e) { return t < e.when; });
    entries_.insert(at, Entry{when, item});
  }

  bool empty() const { return head_ == entries_.size(); }
  size_t size() const { return entries_.size() - head_; }
  Entry& front() { return entries_[head_]; }
  void pop_front() {
    if (++head_ == entries_.size()) {
      entries_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= entries_.size()) {  // the taken ones would only grow
      entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  iterator begin() { return entries_.begin() + static_cast<std::ptrdiff_t>(head_); }
  iterator end() { return entries_.end(); }
  // The item after `it`.
  iterator erase(iterator it) {
    if (it == begin()) {
      pop_front();
      return begin();
    }
    return entries_.erase(it);
  }

 private:
  static constexpr size_t kCompactAt = 64;
  std::vector<Entry> entries_;
  size_t head_ = 0;  // entries before it are taken
};

}  // namespace tessera
