// Ring: the short FIFO queues of the crossbar's ports, the DRAM banks and the
// compute unit's ports, checked against std::deque.
#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "common/ring.h"

using tessera::Ring;

TEST_CASE("Ring: pushes, pops and erases keep the order a std::deque keeps", "[ring]") {
  Ring<int> ring;
  std::deque<int> ref;
  std::mt19937 rng(7);
  int next = 0;
  // Random operations, with the queue's length wandering over several
  // doublings of its array, so that the ring wraps and grows while wrapped.
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 10;
    if (op < 5 || ref.empty()) {
      ring.push_back(next);
      ref.push_back(next++);
    } else if (op < 8) {
      REQUIRE(ring.front() == ref.front());
      ring.pop_front();
      ref.pop_front();
    } else {
      const size_t i = rng() % ref.size();
      ring.erase(i);
      ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(i));
    }
    REQUIRE(ring.size() == ref.size());
    REQUIRE(ring.empty() == ref.empty());
    if (!ref.empty()) {
      REQUIRE(ring.front() == ref.front());
      REQUIRE(ring.back() == ref.back());
    }
  }
  for (size_t i = 0; i < ref.size(); ++i) REQUIRE(ring[i] == ref[i]);
  ring.clear();
  CHECK(ring.empty());
  ring.push_back(42);
  CHECK(ring.front() == 42);
  CHECK(ring.back() == 42);
  CHECK(ring.size() == 1);
}

TEST_CASE("Ring: erasing near either end moves the shorter side and keeps the rest", "[ring]") {
  Ring<int> ring;
  for (int v = 0; v < 10; ++v) ring.push_back(v);
  ring.pop_front();
  ring.pop_front();  // the front is away from the array's start: erasing wraps
  ring.push_back(10);
  ring.push_back(11);
  ring.erase(1);  // 3, near the front
  ring.erase(7);  // 10, near the back
  const int expect[] = {2, 4, 5, 6, 7, 8, 9, 11};
  REQUIRE(ring.size() == 8);
  for (size_t i = 0; i < 8; ++i) CHECK(ring[i] == expect[i]);
}
