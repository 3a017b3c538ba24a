// TimedQueue: items that become due at a simulated time, handed out in time
// order (first in, first out among items due at the same time), waking an Activity
// (platform/scheduler.h) when the earliest one is due.
//
// It behaves as tlm_utils::peq_with_get does, but keeps its items in a binary
// heap in one vector instead of a std::multimap: no allocation per item once the
// vector has grown, which matters because every request crosses several of
// these queues on its way through the hierarchy. Items are values, so a block
// can queue a payload together with what it must remember about it (the port
// it came in on, say).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include <systemc>

#include "platform/scheduler.h"

namespace tessera {

template <class Item>
class TimedQueue {
 public:
  // `activity` takes the items; the queue has a trigger of its own on it.
  explicit TimedQueue(Activity& activity) : trigger_(activity) {}

  // `item` becomes due `delay` from now.
  void push(const Item& item, const sc_core::sc_time& delay) {
    const uint64_t due = sim_now().value() + delay.value();
    heap_.push_back(Entry{due, next_seq_++, item});
    std::push_heap(heap_.begin(), heap_.end(), &Entry::later);
    trigger_.notify_at(due);
  }

  // The earliest item that is due now, if any. When none is due but some are
  // pending, the event is notified for the earliest of them.
  bool pop(Item& out) {
    if (heap_.empty()) return false;
    const uint64_t due = heap_.front().due;
    if (due > sim_now().value()) {
      trigger_.notify_at(due);
      return false;
    }
    std::pop_heap(heap_.begin(), heap_.end(), &Entry::later);
    out = heap_.back().item;
    heap_.pop_back();
    return true;
  }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

 private:
  struct Entry {
    uint64_t due;  // sc_time value
    uint64_t seq;  // arrival order, to keep items due together first in, first out
    Item item;
    static bool later(const Entry& a, const Entry& b) { return a.due != b.due ? a.due > b.due : a.seq > b.seq; }
  };
  std::vector<Entry> heap_;
  uint64_t next_seq_ = 0;
  Trigger trigger_;
};

}  // namespace tessera
