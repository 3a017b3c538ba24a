// Elaboration and the simulation driver on the platform's test blocks. SystemC
// elaborates once per process: CTest runs each test case in its own process,
// and each case here builds at most one platform.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_json.h"
#include "platform/platform.h"
#include "platform/simulation.h"
#include "tests/platform/test_blocks.h"

using namespace tessera;

namespace {

// Two sources -> a router interleaving 16-byte chunks over two sinks.
const char* kNetlist = R"({
  "clocks": {"core": "2 GHz"},
  "components": {
    "src[0]": {"type": "test_source", "count": 8, "base": "0x0"},
    "src[1]": {"type": "test_source", "count": 8, "base": "0x1000"},
    "split": {"type": "test_router"},
    "sink[0..1]": {"type": "test_sink", "latency": "10 ns"}
  },
  "bindings": ["src[i].mem -> split.in[i]", "split.out[0..1] -> sink[0..1].in"],
  "address_map": [{"router": "split", "to": "out[0..1]", "base": "0x0", "size": "64 KiB", "interleave": "16 B"}]
})";

Netlist load(const std::string& text) {
  testing::register_test_blocks();
  return load_netlist(parse_netlist_json(text, "test netlist"));
}

}  // namespace

TEST_CASE("elaborate: blocks are built in netlist order then bound and simulated and counted", "[elaborate]") {
  Platform platform(load(kNetlist));
  REQUIRE(platform.blocks().size() == 5);
  CHECK(platform.blocks()[2]->path() == "split");
  CHECK(std::string(platform.blocks()[2]->name()) == "split");
  auto* router = dynamic_cast<testing::TestRouter*>(platform.find("split"));
  REQUIRE(router);
  CHECK(router->counts.at("in") == 2);  // socket counts reach the factory
  CHECK(router->counts.at("out") == 2);
  CHECK(router->map[0]["interleave"] == 16);

  const RunResult r = simulate(platform, RunOptions{});
  CHECK(r.ok());
  // Each source does 8 writes then 8 reads, one at a time, 10 ns each.
  CHECK(r.simulated == sc_core::sc_time(160, sc_core::SC_NS));
  CHECK(r.simulated_cycles() == Approx(320));
  CHECK_FALSE(r.stopped_at_limit);
  // Words at 0x0..0x1f and 0x1000..0x101f: 16-byte chunks alternate, so each
  // sink serves half of the 32 transactions.
  const json stats = stats_json(platform, r);
  CHECK(stats["sink[0]"]["accesses"] == 16);
  CHECK(stats["sink[1]"]["accesses"] == 16);
  CHECK(stats["src[1]"]["transfers"] == 16);
  CHECK(stats["src[1]"]["mismatches"] == 0);
  CHECK(stats["simulation"]["ok"] == true);
  CHECK(stats["simulation"]["simulated_time_s"].get<double>() == Approx(160e-9));
  CHECK(stats["simulation"]["default_clock"] == "core");
  CHECK(stats["simulation"]["summaries"]["src[0]"] == "16 transfers");

  std::ostringstream summary;
  print_summary(summary, platform, r, false);
  CHECK_THAT(summary.str(), Catch::Contains("simulated 160 ns"));
  CHECK_THAT(summary.str(), Catch::Contains("src[0]: 16 transfers"));
  CHECK_THAT(summary.str(), Catch::Contains("result: ok"));
}

TEST_CASE("elaborate: --max-time stops early and says so", "[elaborate]") {
  Platform platform(load(kNetlist));
  const RunResult r = simulate(platform, RunOptions{sc_core::sc_time(55, sc_core::SC_NS)});
  CHECK(r.simulated == sc_core::sc_time(55, sc_core::SC_NS));
  CHECK(r.stopped_at_limit);
  CHECK_FALSE(r.ok());  // the sources did not finish
  CHECK(r.failed_blocks == std::vector<std::string>{"src[0]", "src[1]"});
}

TEST_CASE("elaborate: a block that rejects its parameters names the instance", "[elaborate]") {
  const std::string text = R"({"components": {"s": {"type": "test_source"}, "k": {"type": "test_sink", "size": "1022 B"}},
                               "bindings": ["s.mem -> k.in"]})";
  try {
    Platform platform(load(text));
    FAIL("no error");
  } catch (const NetlistError& e) {
    CHECK(e.where() == "/components/k");
    CHECK_THAT(e.what(), Catch::Contains("size must be a multiple of 4 bytes"));
  }
}

TEST_CASE("elaborate: the statistics file is not overwritten without --force", "[elaborate]") {
  const std::string file = std::string(TESSERA_BINARY_DIR) + "/elaborate_test_stats.json";
  std::remove(file.c_str());
  write_stats_file(file, json{{"a", 1}}, false);
  CHECK_THROWS_WITH(write_stats_file(file, json{{"a", 2}}, false), Catch::Contains("pass --force"));
  write_stats_file(file, json{{"a", 3}}, true);
  std::ifstream in(file);
  CHECK(json::parse(in)["a"] == 3);
  std::remove(file.c_str());
}
