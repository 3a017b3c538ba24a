#include "models/cu/issue_policy.h"

#include "models/cu/wave_slot.h"

namespace tessera {

const char* priority_class_name(PriorityClass c) {
  switch (c) {
    case PriorityClass::High: return "high";
    case PriorityClass::Normal: return "normal";
    case PriorityClass::Low: return "low";
  }
  return "?";
}

bool IssuePolicy::before(const WaveSlot& a, const WaveSlot& b) {
  if (a.priority != b.priority) return a.priority < b.priority;
  if (a.user_priority != b.user_priority) return a.user_priority > b.user_priority;
  return a.age < b.age;
}

// The order is sorted by `before`; a new wave is the youngest, so without
// s_setprio it goes after every wave of its class and the classes before it.
size_t IssuePolicy::insert_position(const std::vector<WaveSlot*>& order, const WaveSlot& w) const {
  size_t pos = order.size();
  while (pos > 0 && before(w, *order[pos - 1])) --pos;
  return pos;
}

}  // namespace tessera
