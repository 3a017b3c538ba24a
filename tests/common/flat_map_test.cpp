// FlatMap: the hash map the memory-side blocks keep their pending work in.
#include <catch2/catch.hpp>

#include <random>
#include <unordered_map>
#include <vector>

#include "common/flat_map.h"

using tessera::FlatMap;

TEST_CASE("FlatMap: entries are found, replaced and erased like a std::unordered_map's", "[flat_map]") {
  FlatMap<uint64_t, int> m;
  for (int round = 0; round < 3; ++round) {  // slots freed in one round are reused in the next
    for (uint64_t k = 0; k < 1000; ++k) m[k * 128] = static_cast<int>(k) + round;
    REQUIRE(m.size() == 1000);
    CHECK(m.at(128 * 777) == 777 + round);
    CHECK(m.count(129) == 0);
    CHECK(m.find(129) == m.end());
    for (uint64_t k = 0; k < 1000; k += 2) m.erase(k * 128);
    CHECK(m.size() == 500);
    CHECK(m.count(128 * 4) == 0);
    CHECK(m.at(128 * 5) == 5 + round);
    auto it = m.find(128 * 7);
    REQUIRE(it != m.end());
    CHECK(it->first == 128 * 7);
    m.erase(it);
    CHECK(m.count(128 * 7) == 0);
    CHECK_THROWS_AS(m.at(128 * 7), std::out_of_range);
    m.clear();
  }
  CHECK(m.empty());
  CHECK(m[0] == 0);  // a new key's value is value-initialised; 0 is a key like any other
  CHECK(m.size() == 1);
}

TEST_CASE("FlatMap: random inserts and erases of crowded keys agree with std::unordered_map", "[flat_map]") {
  // Few distinct keys, spaced like cache lines and payload pointers, so that
  // runs of occupied slots form and erasures must shift entries back.
  FlatMap<uint64_t, uint64_t> lines;
  std::unordered_map<uint64_t, uint64_t> lines_ref;
  std::vector<int> payloads(64);
  FlatMap<int*, int> routes;
  std::unordered_map<int*, int> routes_ref;
  std::mt19937_64 rng(7);
  for (int step = 0; step < 200000; ++step) {
    const uint64_t line = (rng() % 300) * 64;
    int* p = &payloads[rng() % payloads.size()];
    switch (rng() % 3) {
      case 0:
        lines[line] += step;
        lines_ref[line] += step;
        routes[p] = step;
        routes_ref[p] = step;
        break;
      case 1:
        REQUIRE(lines.erase(line) == lines_ref.erase(line));
        REQUIRE(routes.erase(p) == routes_ref.erase(p));
        break;
      default:
        REQUIRE(lines.count(line) == lines_ref.count(line));
        if (lines_ref.count(line)) REQUIRE(lines.at(line) == lines_ref.at(line));
        REQUIRE(routes.count(p) == routes_ref.count(p));
        if (routes_ref.count(p)) REQUIRE(routes.at(p) == routes_ref.at(p));
    }
    REQUIRE(lines.size() == lines_ref.size());
    REQUIRE(routes.size() == routes_ref.size());
  }
  for (const auto& [k, v] : lines_ref) REQUIRE(lines.at(k) == v);
  for (const auto& [k, v] : routes_ref) REQUIRE(routes.at(k) == v);
}
