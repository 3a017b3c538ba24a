// Impossible cache configurations are refused with an error that names the
// instance, the parameter and what was expected.
#include <catch2/catch.hpp>

#include "cache_test_support.h"

using namespace tessera;
using namespace tessera::test;

namespace {
std::string error_of(const char* type, const json& params) {
  MiniPlatform pf;
  try {
    pf.create<Cache>(type, "chip.l2", params, {{"in", 1}});
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("cache parameters: impossible configurations are clear errors", "[cache][config]") {
  using Catch::Matchers::Contains;
  REQUIRE_THAT(error_of("l2_cache", {{"line_size", "96 B"}}), Contains("chip.l2") && Contains("line_size 96") &&
                                                                  Contains("power of two"));
  REQUIRE_THAT(error_of("l2_cache", {{"size", "1000 B"}}),
               Contains("size 1000") && Contains("multiple of ways * line_size = 16 * 128 = 2048"));
  // Ranges in the schema are checked by the netlist loader, which prefixes the JSON path.
  REQUIRE_THAT(error_of("l1v_cache", {{"ways", 0}}), Contains("value 0 is out of range; expected [1, 65536]"));
  REQUIRE_THAT(error_of("l1v_cache", {{"mshrs", 0}}), Contains("out of range"));
  REQUIRE_THAT(error_of("l2_cache", {{"size", "36 KiB"}, {"ways", 3}, {"line_size", "128 B"}}),
               Contains("power-of-two number of sets"));
  REQUIRE_THAT(error_of("l1v_cache", {{"size", "256 B"}, {"ways", 2}, {"banks", 4}}), Contains("4 banks but only 2 sets"));
  REQUIRE_THAT(error_of("scalar_cache", {{"write_policy", "write_back"}}), Contains("read_only"));
  REQUIRE_THAT(error_of("l1v_cache", {{"write_policy", "write_around"}}), Contains("write_through"));
  REQUIRE(error_of("l2_cache", json::object()).empty());
  REQUIRE(error_of("l1v_cache", json::object()).empty());
  REQUIRE(error_of("instruction_cache", json::object()).empty());
}

TEST_CASE("cache parameters: the four types carry their documented defaults", "[cache][config]") {
  MiniPlatform pf;
  const CacheConfig l1 = pf.create<Cache>("l1v_cache", "l1v", json::object(), {{"in", 1}}).config();
  const CacheConfig l2 = pf.create<Cache>("l2_cache", "l2", json::object(), {{"in", 1}}).config();
  const CacheConfig sc = pf.create<Cache>("scalar_cache", "sc", json::object(), {{"in", 1}}).config();
  const CacheConfig ic = pf.create<Cache>("instruction_cache", "ic", json::object(), {{"in", 1}}).config();
  REQUIRE(l1.size == 16384);
  REQUIRE(l1.line_size == 64);
  REQUIRE(l1.ways == 4);
  REQUIRE_FALSE(l1.write_back);
  REQUIRE_FALSE(l1.write_allocate);
  REQUIRE(l2.size == 256 * 1024);
  REQUIRE(l2.line_size == 128);
  REQUIRE(l2.ways == 16);
  REQUIRE(l2.write_back);
  REQUIRE(l2.write_allocate);
  REQUIRE(l2.xor_index);
  REQUIRE(sc.read_only);
  REQUIRE(ic.read_only);
  REQUIRE(ic.size == 32768);
}
