// ParamTable: one declaration gives both the schema and the reading of the
// checked values into a config struct (platform/param_table.h).
#include "platform/param_table.h"

#include <catch2/catch.hpp>

#include "platform/errors.h"

using namespace tessera;

namespace {

struct ExampleConfig {
  uint64_t size = 0;
  unsigned depth = 0;
  sc_core::sc_time latency;
  double bandwidth = 0;
  bool write_back = false;
  bool trace = false;
  std::string name;
};

const ParamTable<ExampleConfig>& example_table() {
  using C = ExampleConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::size, size_param("size", "16 KiB", "bytes", 1.0))
          .add(&C::depth, int_param("depth", 4, "entries", 1.0, 64.0, "entries"))
          .add(&C::latency, time_param("latency", "40 ns", "a latency"))
          .add(&C::bandwidth, bandwidth_param("bandwidth", "1 GB/s", "a bandwidth"))
          .add_flag(&C::write_back, enum_param("policy", "write_through", {"write_through", "write_back"}, "policy"),
                    "write_back")
          .add(&C::trace, bool_param("trace", false, "trace"))
          .add(&C::name, required(string_param("name", "", "a required name")))
          .add(enum_param("replacement", "lru", {"lru"}, "accepted, stored nowhere"));
  return table;
}

// What the netlist loader does: every spec's value (given or default), checked and converted.
Params param_table_checked(const std::vector<ParamSpec>& specs, const json& given) {
  std::map<std::string, json> values;
  for (const ParamSpec& s : specs) values[s.name] = convert_param(s, given.contains(s.name) ? given[s.name] : s.default_value);
  return Params(std::move(values));
}

}  // namespace

TEST_CASE("param table: the schema lists every declaration in order, with its range, unit and doc", "[params]") {
  const std::vector<ParamSpec> specs = example_table().specs();
  std::vector<std::string> names;
  for (const ParamSpec& s : specs) names.push_back(s.name);
  REQUIRE(names == std::vector<std::string>{"size", "depth", "latency", "bandwidth", "policy", "trace", "name",
                                            "replacement"});
  REQUIRE(specs[1].kind == ParamKind::Int);
  REQUIRE(specs[1].min == 1.0);
  REQUIRE(specs[1].max == 64.0);
  REQUIRE(specs[1].unit == "entries");
  REQUIRE(specs[1].default_value == 4);
  REQUIRE(specs[6].required());
  REQUIRE_FALSE(specs[0].required());
}

TEST_CASE("param table: read fills every field from the checked values, in base units", "[params]") {
  const auto specs = example_table().specs();
  const ExampleConfig c = example_table().read(
      param_table_checked(specs, {{"size", "2 KiB"}, {"latency", "5 ns"}, {"policy", "write_back"}, {"name", "x"}}));
  REQUIRE(c.size == 2048);
  REQUIRE(c.depth == 4);
  REQUIRE(c.latency == sc_core::sc_time(5, sc_core::SC_NS));
  REQUIRE(c.bandwidth == Approx(1e9));
  REQUIRE(c.write_back);
  REQUIRE_FALSE(c.trace);
  REQUIRE(c.name == "x");
  // A value out of its declared range is refused where it is checked, with the range.
  REQUIRE_THROWS_WITH(param_table_checked(specs, {{"depth", 65}, {"name", "x"}}), Catch::Contains("expected [1, 64]"));
}

TEST_CASE("param table: a block type's own defaults replace the declared ones, and must be valid", "[params]") {
  const auto specs = example_table().specs({{"depth", 32}, {"policy", "write_back"}});
  REQUIRE(specs[1].default_value == 32);
  REQUIRE(specs[4].default_value == "write_back");
  const ExampleConfig c = example_table().read(param_table_checked(specs, {{"name", "y"}}));
  REQUIRE(c.depth == 32);
  REQUIRE(c.write_back);
  REQUIRE_THROWS_AS(example_table().specs({{"no_such", 1}}), std::logic_error);
  REQUIRE_THROWS_AS(example_table().specs({{"depth", 65}}), UserError);
}

namespace {

// A block that extends another block's parameters (as chiplet_network extends crossbar's).
struct ExtendedConfig : ExampleConfig {
  unsigned links = 0;
};

const ParamTable<ExtendedConfig>& extended_table() {
  static const ParamTable<ExtendedConfig> table = ParamTable<ExtendedConfig>().include(example_table()).add(
      &ExtendedConfig::links, int_param("links", 2, "links", 1.0, 8.0));
  return table;
}

}  // namespace

TEST_CASE("param table: an included table's parameters come first and are read into the base part", "[params]") {
  const std::vector<ParamSpec> specs = extended_table().specs();
  REQUIRE(specs.size() == example_table().specs().size() + 1);
  REQUIRE(specs.front().name == "size");
  REQUIRE(specs.back().name == "links");
  const ExtendedConfig c =
      extended_table().read(param_table_checked(specs, {{"name", "x"}, {"depth", 7}, {"links", 5}}));
  REQUIRE(c.depth == 7);
  REQUIRE(c.name == "x");
  REQUIRE(c.size == 16 * 1024);
  REQUIRE(c.links == 5);
  REQUIRE_THROWS_AS(extended_table().specs({{"links", 9}}), UserError);
}
