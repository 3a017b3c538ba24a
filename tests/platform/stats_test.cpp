#include <catch2/catch.hpp>

#include "platform/stats.h"

using namespace tessera;

TEST_CASE("stats: groups nest by path in JSON", "[stats]") {
  StatRegistry reg;
  auto& hits = reg.group("chiplet[2].l2").counter("hits", "cache hits");
  hits += 3;
  ++hits;
  auto& lat = reg.group("chiplet[2].l2").histogram("latency", "cycles", 10, 4);
  lat.sample(5);
  lat.sample(100);
  auto j = reg.to_json();
  CHECK(j["chiplet[2]"]["l2"]["hits"] == 4);
  CHECK(j["chiplet[2]"]["l2"]["latency"]["count"] == 2);
  CHECK(j["chiplet[2]"]["l2"]["latency"]["buckets"][3] == 1);  // overflow lands in the last bucket
  CHECK_THROWS(reg.group("chiplet[2].l2").counter("hits", "again"));
}

TEST_CASE("stats: split_path keeps dots inside brackets", "[stats]") {
  auto p = split_path("chiplet[2].cu[17].waves");
  REQUIRE(p.size() == 3);
  CHECK(p[1] == "cu[17]");
}
