// The CU's LDS as a pipeline: DS requests enter a queue in front of the bank
// model (lds_bank_model.h); the banks serve them one at a time in order,
// each for its bank cycles, and a request is done `latency` cycles after its
// last bank cycle (when the CU decrements lgkmcnt).
//
// `waiting` is how many requests may wait in the queue for the banks. With
// 0 (the compute unit's setting today) a request enters only when the banks
// are free, so DS issue stalls while an earlier request holds them. A
// mechanism that holds a read back for its partner (a multicast of one LDS
// read to two waves) needs room to wait here.
#pragma once
#include <cstdint>

#include "models/lds/lds_bank_model.h"
#include "common/ring.h"

namespace tessera::lds {

class LdsPipeline {
 public:
  LdsPipeline(unsigned banks, unsigned latency, unsigned waiting = 0) : banks_(banks), latency_(latency), waiting_(waiting) {}

  // The first cycle a new request can enter the queue.
  uint64_t accepts_at() const { return accepts_at(waiting_); }
  // The same for a request that may use `waiting` places of waiting room (a
  // multicast read, which has a request queue of its own).
  uint64_t accepts_at(unsigned waiting) const {
    if (!waiting) return banks_free_;
    return queue_.size() >= waiting ? queue_[queue_.size() - waiting].start : 0;
  }
  // Who sent a request and what it was, given back when it is done.
  struct Tag {
    const void* owner = nullptr;
    const void* what = nullptr;
  };
  // A DS request entering at cycle c.
  LdsCost submit(const LdsRequest& r, uint64_t c, Tag tag) { return enter(banks_.cost(r), c, tag); }
  // One access that serves two requests (a multicast read for two waves):
  // the banks' cycles once, both done at the same cycle. It holds two places
  // in the queue, one per request.
  LdsCost submit_shared(const LdsRequest& r, uint64_t c, Tag first, Tag second) {
    const LdsCost cost = enter(banks_.cost(r), c, first);
    Entry twin = queue_.back();  // a copy: push_back may move the ring
    twin.tag = second;
    queue_.push_back(twin);
    return cost;
  }
  // A request that crosses the lanes through the LDS crossbar without the
  // banks (ds_swizzle, ds_permute): `cycles` on the pipeline, no conflicts.
  LdsCost submit_crossbar(unsigned cycles, uint64_t c, Tag tag) {
    LdsCost cost;
    cost.cycles = cycles;
    return enter(cost, c, tag);
  }
  // The cycle the oldest request is done; kNone when none is in flight.
  static constexpr uint64_t kNone = ~uint64_t{0};
  uint64_t next_done() const { return queue_.empty() ? kNone : queue_.front().done; }
  // The cycle the newest request is done; kNone when none is in flight.
  uint64_t last_done() const { return queue_.empty() ? kNone : queue_[queue_.size() - 1].done; }
  // The oldest request, if done by cycle c: true and its tag.
  bool pop_done(uint64_t c, Tag& tag) {
    if (queue_.empty() || queue_.front().done > c) return false;
    tag = queue_.front().tag;
    queue_.pop_front();
    return true;
  }
  unsigned banks() const { return banks_.banks(); }

 private:
  struct Entry {
    uint64_t start;  // first bank cycle
    uint64_t done;   // lgkmcnt decrement
    Tag tag;
  };
  LdsCost enter(const LdsCost& cost, uint64_t c, Tag tag);
  LdsBankModel banks_;
  unsigned latency_, waiting_;
  uint64_t banks_free_ = 0;  // the first cycle the banks are free again
  Ring<Entry> queue_;        // in order: waiting, on the banks, then in the latency
};

}  // namespace tessera::lds
