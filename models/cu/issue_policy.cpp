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

size_t IssuePolicy::insert_position(const std::vector<WaveSlot*>& order, PriorityClass cls) const {
  size_t pos = order.size();
  while (pos > 0 && order[pos - 1]->priority > cls) --pos;  // the order is sorted by class
  return pos;
}

}  // namespace tessera
