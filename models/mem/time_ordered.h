// TimeOrdered: items sorted by the simulated time they become ready, first in,
// first out among items of the same time, as a std::multimap keyed by sc_time
// would keep them, but in a std::deque: no allocation per item, and the usual
// case (an item later than or as late as every other) is an append. A block
// walks it from the front and takes the items whose time has come.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>

#include <systemc>

namespace tessera {

template <class Item>
class TimeOrdered {
 public:
  struct Entry {
    uint64_t when;  // sc_time value
    Item item;
    sc_core::sc_time time() const { return sc_core::sc_time::from_value(when); }
  };
  using iterator = typename std::deque<Entry>::iterator;

  void insert(const sc_core::sc_time& when, const Item& item) {
    const uint64_t w = when.value();
    if (entries_.empty() || entries_.back().when <= w) {
      entries_.push_back(Entry{w, item});
      return;
    }
    auto at = std::upper_bound(entries_.begin(), entries_.end(), w,
                               [](uint64_t t, const Entry& e) { return t < e.when; });
    entries_.insert(at, Entry{w, item});
  }

  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }
  Entry& front() { return entries_.front(); }
  void pop_front() { entries_.pop_front(); }
  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  iterator erase(iterator it) { return entries_.erase(it); }

 private:
  std::deque<Entry> entries_;
};

}  // namespace tessera
