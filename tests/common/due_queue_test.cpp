// DueQueue: the blocks' pending answers and sends, ordered by due time,
// first in first out among equal times.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "common/due_queue.h"

using tessera::DueQueue;

TEST_CASE("DueQueue: items come out by due time, first in first out among equal times", "[due_queue]") {
  DueQueue<int> q;
  q.insert(5, 51);
  q.insert(2, 21);
  q.insert(5, 52);
  q.insert(2, 22);
  q.insert(9, 90);
  q.insert(1, 10);
  std::vector<int> order;
  for (auto it = q.begin(); it != q.end(); ++it) order.push_back(it->item);
  CHECK(order == std::vector<int>{10, 21, 22, 51, 52, 90});
  REQUIRE(q.size() == 6);
  q.pop_front();
  CHECK(q.front().item == 21);
  auto it = q.begin() + 1;  // 22
  it = q.erase(it);
  CHECK(it->item == 51);
  it = q.erase(q.begin());  // the front: taken by moving the front on
  CHECK(it->item == 51);
  q.insert(5, 53);
  order.clear();
  for (auto& e : q) order.push_back(e.item);
  CHECK(order == std::vector<int>{51, 52, 53, 90});
}

TEST_CASE("DueQueue: a long run of inserts and pops matches a stable sort", "[due_queue]") {
  DueQueue<int> q;
  std::vector<std::pair<uint64_t, int>> ref;  // (time, item) in insertion order among equal times
  std::mt19937 rng(3);
  uint64_t now = 0;
  int next = 0;
  // Mostly in time order, sometimes earlier than the last (a hit answered
  // after a fill), with pops often enough that the front moves far and the
  // taken entries are dropped.
  for (int step = 0; step < 5000; ++step) {
    if (rng() % 3 != 0 || ref.empty()) {
      const uint64_t when = now + (rng() % 4 == 0 ? rng() % 3 : 5 + rng() % 20);
      q.insert(when, next);
      auto at = std::upper_bound(ref.begin(), ref.end(), when,
                                 [](uint64_t t, const std::pair<uint64_t, int>& e) { return t < e.first; });
      ref.insert(at, {when, next++});
    } else {
      REQUIRE(q.front().when == ref.front().first);
      REQUIRE(q.front().item == ref.front().second);
      now = q.front().when;
      q.pop_front();
      ref.erase(ref.begin());
    }
    REQUIRE(q.size() == ref.size());
  }
  size_t i = 0;
  for (auto& e : q) {
    CHECK(e.when == ref[i].first);
    CHECK(e.item == ref[i].second);
    ++i;
  }
  CHECK(i == ref.size());
}
