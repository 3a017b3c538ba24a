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
// Within a class, s_setprio orders the waves as GCN/CDNA's arbiter does
// (the wave's priority is its user priority, 0 to 3, then its age): a wave
// of a higher user priority comes before every wave of a lower one, and
// waves of one user priority oldest first. A wave's s_setprio moves it at
// the end of the cycle it issues in (ComputeUnit::apply_priorities).
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
  // Where wave `w` (not in it) goes in the priority order `order`.
  size_t insert_position(const std::vector<WaveSlot*>& order, const WaveSlot& w) const;
  // Whether wave `a` comes before wave `b` in the priority order.
  static bool before(const WaveSlot& a, const WaveSlot& b);
  // The position this cycle's pass over `n` waves starts from.
  size_t start(size_t n) { return scheduler_ == CuScheduler::RoundRobin ? rr_++ % n : 0; }

 private:
  CuScheduler scheduler_;
  unsigned rr_ = 0;
};

}  // namespace tessera
