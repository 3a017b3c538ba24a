// The issue policy on its own: where a wave of each priority class goes in
// the CU's priority order, and the round-robin start.
#include <catch2/catch.hpp>

#include "models/cu/issue_policy.h"
#include "models/cu/wave_slot.h"

using namespace tessera;

TEST_CASE("issue policy: a wave goes after every wave of its class and the classes before it", "[cu]") {
  IssuePolicy policy(CuScheduler::Oldest);
  std::vector<WaveSlot> slots(5);
  std::vector<WaveSlot*> order;
  auto add = [&](size_t i, PriorityClass c) {
    slots[i].priority = c;
    slots[i].age = i;
    const size_t at = policy.insert_position(order, slots[i]);
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(at), &slots[i]);
    return at;
  };
  CHECK(add(0, PriorityClass::Normal) == 0);
  CHECK(add(1, PriorityClass::Normal) == 1);  // oldest first within a class
  CHECK(add(2, PriorityClass::Low) == 2);
  CHECK(add(3, PriorityClass::High) == 0);    // before every Normal wave
  CHECK(add(4, PriorityClass::Normal) == 3);  // after the Normal ones, before the Low one
  std::vector<WaveSlot*> want = {&slots[3], &slots[0], &slots[1], &slots[4], &slots[2]};
  CHECK(order == want);
  CHECK(policy.start(5) == 0);
  CHECK(policy.start(5) == 0);
}

// s_setprio: within a class, a higher user priority first, then the oldest.
TEST_CASE("issue policy: s_setprio orders the waves of a class, oldest first within a user priority", "[cu]") {
  IssuePolicy policy(CuScheduler::Oldest);
  std::vector<WaveSlot> slots(5);
  std::vector<WaveSlot*> order;
  auto add = [&](size_t i, PriorityClass c, uint8_t user) {
    slots[i].priority = c;
    slots[i].user_priority = user;
    slots[i].age = i;
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(policy.insert_position(order, slots[i])), &slots[i]);
  };
  add(0, PriorityClass::Normal, 0);
  add(1, PriorityClass::Normal, 2);
  add(2, PriorityClass::Normal, 2);
  add(3, PriorityClass::High, 0);   // a class before any user priority
  add(4, PriorityClass::Normal, 3);
  std::vector<WaveSlot*> want = {&slots[3], &slots[4], &slots[1], &slots[2], &slots[0]};
  CHECK(order == want);
  CHECK(IssuePolicy::before(slots[1], slots[2]));  // same user priority: the older
  CHECK_FALSE(IssuePolicy::before(slots[0], slots[1]));
}

TEST_CASE("issue policy: round robin starts one position later each cycle", "[cu]") {
  IssuePolicy policy(CuScheduler::RoundRobin);
  CHECK(policy.start(3) == 0);
  CHECK(policy.start(3) == 1);
  CHECK(policy.start(3) == 2);
  CHECK(policy.start(3) == 0);
}
