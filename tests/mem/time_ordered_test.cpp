// TimeOrdered and PooledMap: the containers the memory-side blocks keep their
// pending work in.
#include <catch2/catch.hpp>

#include <string>

#include "models/mem/pooled_map.h"
#include "models/mem/time_ordered.h"

using sc_core::SC_NS;
using sc_core::sc_time;
using tessera::PooledMap;
using tessera::TimeOrdered;

TEST_CASE("TimeOrdered: items come out by time, first in first out among equal times", "[time_ordered]") {
  TimeOrdered<std::string> q;
  q.insert(sc_time(5, SC_NS), "e1");
  q.insert(sc_time(2, SC_NS), "b1");
  q.insert(sc_time(5, SC_NS), "e2");
  q.insert(sc_time(2, SC_NS), "b2");
  q.insert(sc_time(9, SC_NS), "i");
  q.insert(sc_time(1, SC_NS), "a");
  std::string order;
  for (const auto& e : q) order += e.item + "@" + std::to_string(static_cast<int>(e.time().to_seconds() * 1e9)) + " ";
  CHECK(order == "a@1 b1@2 b2@2 e1@5 e2@5 i@9 ");
  REQUIRE(q.size() == 6);
  q.pop_front();
  CHECK(q.front().item == "b1");
  auto it = q.begin();
  ++it;  // b2
  it = q.erase(it);
  CHECK(it->item == "e1");
  q.insert(sc_time(5, SC_NS), "e3");
  order.clear();
  for (const auto& e : q) order += e.item + " ";
  CHECK(order == "b1 e1 e2 e3 i ");
}

TEST_CASE("PooledMap: entries are found, replaced and erased like a std::unordered_map's", "[time_ordered]") {
  PooledMap<uint64_t, int> m;
  for (int round = 0; round < 3; ++round) {  // nodes freed in one round are reused in the next
    for (uint64_t k = 0; k < 1000; ++k) m[k * 128] = static_cast<int>(k) + round;
    REQUIRE(m.size() == 1000);
    CHECK(m.at(128 * 777) == 777 + round);
    CHECK(m.count(129) == 0);
    for (uint64_t k = 0; k < 1000; k += 2) m.erase(k * 128);
    CHECK(m.size() == 500);
    CHECK(m.count(128 * 4) == 0);
    CHECK(m.at(128 * 5) == 5 + round);
    m.clear();
  }
  CHECK(m.empty());
}
