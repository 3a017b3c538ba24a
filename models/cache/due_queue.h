// DueQueue: items sorted by the time they become due (an sc_time value),
// first in, first out among items of the same time, as TimeOrdered
// (models/mem/time_ordered.h) keeps them, but in a vector with a moving front
// instead of a std::deque. A cache's queues are short and an item is most
// often due later than or as late as every other, but not always (a hit is
// answered hit_latency cycles on, a fill at once): appending and taking the
// front (an index step) cost a handful of host instructions, and inserting
// before the end a binary search and a move of the later entries, a fraction
// of what a deque's insertion costs.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "platform/scheduler.h"

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

// Items handed to an Activity when they become due, in time order (first in,
// first out among items due together): TimedQueue (models/mem/timed_queue.h)
// over a DueQueue instead of a binary heap. What a cache queues arrives
// mostly in time order, which a DueQueue appends and takes from its front for
// a fraction of a heap's push and pop.
template <class Item>
class TimedDueQueue {
 public:
  // `activity` takes the items; the queue has a trigger of its own on it.
  explicit TimedDueQueue(Activity& activity) : trigger_(activity) {}

  // `item` becomes due at `due`, an absolute time as an sc_time value.
  void push_at(const Item& item, uint64_t due) {
    queue_.insert(due, item);
    trigger_.notify_at(due);
  }

  // The earliest item that is due now, if any. When none is due but some are
  // pending, the trigger is notified for the earliest of them.
  bool pop(Item& out) {
    if (queue_.empty()) return false;
    const uint64_t due = queue_.front().when;
    if (due > sim_now().value()) {
      trigger_.notify_at(due);
      return false;
    }
    out = queue_.front().item;
    queue_.pop_front();
    return true;
  }

  bool empty() const { return queue_.empty(); }
  size_t size() const { return queue_.size(); }

 private:
  DueQueue<Item> queue_;
  Trigger trigger_;
};

}  // namespace tessera
