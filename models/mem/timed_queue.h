// TimedQueue: items that become due at a simulated time, handed out in time
// order (first in, first out among items due at the same time), waking an Activity
// (platform/scheduler.h) when the earliest one is due.
//
// It behaves as tlm_utils::peq_with_get does, but keeps its items in a
// DueQueue (common/due_queue.h) instead of a std::multimap: no allocation
// per item once the vector has grown, and what a block queues arrives mostly
// in time order, which a DueQueue appends and takes from its front for a few
// host instructions; every request crosses several of these queues on its
// way through the hierarchy. Items are values, so a block can queue a payload
// together with what it must remember about it (the port it came in on, say).
#pragma once
#include <cstdint>

#include <systemc>

#include "common/due_queue.h"
#include "platform/scheduler.h"

namespace tessera {

template <class Item>
class TimedQueue {
 public:
  // `activity` takes the items; the queue has a trigger of its own on it.
  explicit TimedQueue(Activity& activity) : trigger_(activity) {}

  // `item` becomes due `delay` from now.
  void push(const Item& item, const sc_core::sc_time& delay) { push_at(item, sim_now().value() + delay.value()); }
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
