// The order in which the issue stage considers a CU's resident waves.
//
// Waves are kept in one priority order. Each wave has a priority class
// (High, then Normal, then Low): a new wave goes after every wave of its
// class and of the classes before it, so within a class the oldest comes
// first. Every wave a dispatcher sends is Normal; injected routines may be
// High (a routine the parent wave waits for) or Low (background work in idle
// issue slots). With `scheduler: round_robin` the pass starts one position
// later each cycle, over the whole order.
//
// s_setprio is recorded on the wave (WaveSlot::user_priority) but does not
// reorder waves: no reference workload's code uses it, and reordering within
// a class on it is left for when one does.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/cu/cu_config.h"

namespace tessera {

enum class PriorityClass : uint8_t { High, Normal, Low };

struct WaveSlot;

const char* priority_class_name(PriorityClass c);

class IssuePolicy {
 public:
  explicit IssuePolicy(CuScheduler scheduler) : scheduler_(scheduler) {}
  // Where a wave of class `cls` goes in the priority order `order`.
  size_t insert_position(const std::vector<WaveSlot*>& order, PriorityClass cls) const;
  // The position this cycle's pass over `n` waves starts from.
  size_t start(size_t n) { return scheduler_ == CuScheduler::RoundRobin ? rr_++ % n : 0; }

 private:
  CuScheduler scheduler_;
  unsigned rr_ = 0;
};

}  // namespace tessera
