// The netlist's "reference" section: published figures with their citations,
// validated like the rest of the netlist (unknown figures, bad values and
// units, missing sources are errors naming the JSON path).
#include <catch2/catch.hpp>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_json.h"
#include "tests/platform/test_blocks.h"

using namespace tessera;

namespace {

// A valid netlist without its closing brace.
const char* kTwoBlocks =
    R"({"components": {"src": {"type": "test_source"}, "sink": {"type": "test_sink"}}, "bindings": ["src.mem -> sink.in"])";

Netlist netlist_with_reference(const std::string& reference) {
  testing::register_test_blocks();
  const std::string text = std::string(kTwoBlocks) + R"(, "reference": )" + reference + "}";
  return load_netlist(parse_netlist_json(text, "test netlist"));
}

std::string reference_error_of(const std::string& reference) {
  try {
    netlist_with_reference(reference);
  } catch (const NetlistError& e) {
    return e.where() + "|" + e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("netlist reference: figures with units and their sources", "[netlist][reference]") {
  const Netlist n = netlist_with_reference(R"({"source": "a paper, Table 2", "dram_latency": "146 cycles",
      "l1_latency": "60 cycles", "dram_bandwidth": {"value": "256 GB/s", "source": "a datasheet"},
      "issue_rate": "0.25 per cycle", "lds_bandwidth": "128 B/cycle"})");
  REQUIRE(n.references.size() == 5);
  // In the order calibrate prints them, not the file's.
  CHECK(n.references[0].name == "l1_latency");
  CHECK(n.references[0].value == 60);
  CHECK(n.references[0].unit == ReferenceUnit::Cycles);
  CHECK(n.references[0].source == "a paper, Table 2");
  CHECK(n.references[1].name == "dram_latency");
  CHECK(n.references[2].name == "dram_bandwidth");
  CHECK(n.references[2].value == 256e9);
  CHECK(n.references[2].source == "a datasheet");
  CHECK(n.references[3].name == "lds_bandwidth");
  CHECK(n.references[3].value == 128);
  CHECK(n.references[4].name == "issue_rate");
  CHECK(n.references[4].value == 0.25);
}

TEST_CASE("netlist reference: a netlist without one has none", "[netlist][reference]") {
  testing::register_test_blocks();
  const Netlist n = load_netlist(parse_netlist_json(std::string(kTwoBlocks) + "}", "t"));
  CHECK(n.references.empty());
}

TEST_CASE("netlist reference: bad sections are errors naming the JSON path", "[netlist][reference]") {
  CHECK_THAT(reference_error_of(R"({"source": "s", "l4_latency": "9 cycles"})"),
             Catch::StartsWith("/reference/l4_latency|") && Catch::Contains("unknown reference figure \"l4_latency\""));
  CHECK_THAT(reference_error_of(R"({"source": "s", "l1_latency": "60"})"),
             Catch::StartsWith("/reference/l1_latency|") && Catch::Contains("expected a number of cycles"));
  CHECK_THAT(reference_error_of(R"({"source": "s", "l1_latency": "60 ns"})"), Catch::Contains("expected a number of cycles"));
  CHECK_THAT(reference_error_of(R"({"source": "s", "l1_latency": 60})"), Catch::Contains("expected a string"));
  CHECK_THAT(reference_error_of(R"({"source": "s", "l1_latency": "-5 cycles"})"),
             Catch::StartsWith("/reference/l1_latency|"));
  CHECK_THAT(reference_error_of(R"({"source": "s", "l1_latency": "0 cycles"})"), Catch::Contains("must be positive"));
  CHECK_THAT(reference_error_of(R"({"source": "s", "dram_bandwidth": "256 cycles"})"),
             Catch::StartsWith("/reference/dram_bandwidth|"));
  CHECK_THAT(reference_error_of(R"({"l1_latency": "60 cycles"})"), Catch::Contains("needs a source"));
  CHECK_THAT(reference_error_of(R"({"source": "", "l1_latency": "60 cycles"})"),
             Catch::StartsWith("/reference/source|") && Catch::Contains("citation"));
  CHECK_THAT(reference_error_of(R"({"l1_latency": {"value": "60 cycles", "cite": "x"}})"),
             Catch::StartsWith("/reference/l1_latency/cite|") && Catch::Contains("unknown key"));
  CHECK_THAT(reference_error_of(R"({"l1_latency": {"source": "x"}})"), Catch::Contains("needs \"value\""));
  CHECK_THAT(reference_error_of(R"(["60 cycles"])"), Catch::StartsWith("/reference|") && Catch::Contains("expected an object"));
}

TEST_CASE("netlist reference: every reference netlist's section is valid", "[netlist][reference]") {
  for (const char* name : {"r9_nano", "cpelide_4chiplet", "mi200_2chiplet"}) {
    INFO(name);
    const Netlist n = load_netlist_file(std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + name + ".json");
    CHECK(n.references.size() >= 4);
  }
}
