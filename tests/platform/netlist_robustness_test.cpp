// Inputs that are not netlists at all: random bytes, truncated files, deep
// nesting, mutated netlists. Each must end in a UserError (a message), never in
// a crash or another kind of exception.
#include <catch2/catch.hpp>

#include <random>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_json.h"
#include "tests/platform/test_blocks.h"

using namespace tessera;

namespace {

const std::string kValid = R"({
  "clocks": {"core": "1 GHz"},
  "templates": {"pair": {"components": {"s": {"type": "test_source", "count": 3}, "k": {"type": "test_sink"}},
                         "bindings": ["s.mem -> k.in"]}},
  "components": {
    "p[0..2]": {"template": "pair", "set": {"k.latency": "5 ns"}},
    "src[0..1]": {"type": "test_source"},
    "r": {"type": "test_router"},
    "m[0..1]": {"type": "test_sink", "size": "1 MiB"}
  },
  "bindings": ["src[i].mem -> r.in[i]", "r.out[0..1] -> m[0..1].in"],
  "address_map": [{"router": "r", "to": "out[0..1]", "base": "0x0", "size": "2 MiB", "interleave": "256 B"}]
})";

// Loads text; returns "ok", "error" (a UserError) or the unexpected exception's text.
std::string outcome(const std::string& text) {
  try {
    load_netlist(parse_netlist_json(text, "input"));
    return "ok";
  } catch (const UserError&) {
    return "error";
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
}

}  // namespace

TEST_CASE("robustness: the reference text is valid", "[netlist][robustness]") {
  testing::register_test_blocks();
  CHECK(outcome(kValid) == "ok");
}

TEST_CASE("robustness: every truncation of a valid netlist is a clear error", "[netlist][robustness]") {
  testing::register_test_blocks();
  for (size_t n = 0; n < kValid.size() - 1; ++n) {
    INFO("prefix of " << n << " bytes");
    REQUIRE(outcome(kValid.substr(0, n)) == "error");
  }
}

TEST_CASE("robustness: random bytes and mutated netlists never crash", "[netlist][robustness]") {
  testing::register_test_blocks();
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 300, '\0');
    for (char& c : text) c = static_cast<char>(rng());
    INFO("random round " << round);
    REQUIRE(outcome(text) == "error");
  }
  // Mutations keep most of the structure, so they reach the deeper checks.
  const std::string alphabet = "{}[]\":,.-> 0123456789abcdefghijklmnopqrstuvwxyz*%/+i";
  size_t accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = kValid;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) text[rng() % text.size()] = alphabet[rng() % alphabet.size()];
    const std::string result = outcome(text);
    INFO("mutation round " << round << ":\n" << text);
    REQUIRE((result == "ok" || result == "error"));
    accepted += result == "ok";
  }
  CHECK(accepted < 3000);  // most mutations break something
}

TEST_CASE("robustness: deep nesting and empty input and non-objects are rejected", "[netlist][robustness]") {
  testing::register_test_blocks();
  const std::string deep_array = std::string(100000, '[') + std::string(100000, ']');
  CHECK_THROWS_WITH(parse_netlist_json(deep_array, "deep"), Catch::Contains("nested deeper than 64 levels"));
  std::string deep_object;
  for (int i = 0; i < 5000; ++i) deep_object += "{\"a\":";
  deep_object += "1" + std::string(5000, '}');
  CHECK_THROWS_WITH(parse_netlist_json(deep_object, "deep"), Catch::Contains("nested deeper"));
  CHECK_THROWS_WITH(parse_netlist_json("", "empty.json"), Catch::Contains("empty.json is empty"));
  CHECK_THROWS_WITH(parse_netlist_json(" \n\t", "blank.json"), Catch::Contains("is empty"));
  CHECK(outcome("null") == "error");
  CHECK(outcome("\"components\"") == "error");
  CHECK(outcome("{\"components\": []}") == "error");
  CHECK(outcome("{\"components\": {\"x\": {\"type\": \"test_sink\"}}, \"bindings\": \"x.in\"}") == "error");
  CHECK(outcome(std::string("{\"components\": {\"\xff\xfe\": 1}}")) == "error");
  CHECK(outcome("{\"components\": {\"cu[0..99999999]\": {\"type\": \"test_sink\"}}}") == "error");
}
