// The netlist loader: expansion of ranges, templates and pattern bindings,
// overrides, parameter conversion, address maps, and errors that name the JSON
// path. All in-process: validation needs no SystemC elaboration.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_json.h"
#include "platform/netlist_names.h"
#include "tests/platform/test_blocks.h"

using namespace tessera;

namespace {

Netlist netlist_from_text(const std::string& text, const std::vector<std::string>& sets = {}) {
  testing::register_test_blocks();
  std::vector<Override> overrides;
  for (const auto& s : sets) overrides.push_back(parse_override(s));
  return load_netlist(parse_netlist_json(text, "test netlist"), overrides);
}

// The NetlistError a netlist produces, as "path|message".
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    netlist_from_text(text, sets);
  } catch (const NetlistError& e) {
    return e.where() + "|" + e.what();
  }
  return "no error";
}

std::vector<std::string> paths(const Netlist& n) {
  std::vector<std::string> out;
  for (const auto& i : n.instances) out.push_back(i.path);
  return out;
}

std::vector<std::string> bindings(const Netlist& n) {
  std::vector<std::string> out;
  for (const auto& b : n.bindings) out.push_back(b.initiator.text() + " -> " + b.target.text());
  return out;
}

const char* kChiplets = R"({
  "clocks": {"core": "1.5 GHz", "mem": "2 GHz"},
  "defaults": {"test_sink": {"latency": "20 ns"}},
  "templates": {
    "chiplet": {
      "components": {
        "src[0..3]": {"type": "test_source"},
        "xbar": {"type": "test_router"},
        "l2": {"type": "test_sink", "size": "1 MiB"}
      },
      "bindings": ["src[i].mem -> xbar.in[i]", "xbar.out[0] -> l2.in"],
      "address_map": [{"router": "xbar", "to": "out[0]", "base": "0x0", "size": "1 MiB"}]
    }
  },
  "components": {
    "chiplet[0..1]": {"template": "chiplet", "set": {"l2.ways": 8}},
    "dram": {"type": "test_sink", "clock": "mem"},
    "host": {"type": "test_source"}
  },
  "bindings": ["host.mem -> dram.in"]
})";

}  // namespace

TEST_CASE("netlist: template ranges create hierarchical instances in netlist order", "[netlist]") {
  const Netlist n = netlist_from_text(kChiplets);
  const std::vector<std::string> expect = {
      "chiplet[0].src[0]", "chiplet[0].src[1]", "chiplet[0].src[2]", "chiplet[0].src[3]", "chiplet[0].xbar",
      "chiplet[0].l2",     "chiplet[1].src[0]", "chiplet[1].src[1]", "chiplet[1].src[2]", "chiplet[1].src[3]",
      "chiplet[1].xbar",   "chiplet[1].l2", "dram", "host"};
  CHECK(paths(n) == expect);
  // Template bindings resolve inside each instance.
  REQUIRE(n.bindings.size() == 11);
  CHECK(bindings(n)[5] == "chiplet[1].src[0].mem -> chiplet[1].xbar.in[0]");
  CHECK(n.find("chiplet[1].xbar")->socket_counts.at("in") == 4);
  CHECK(n.find("chiplet[1].xbar")->socket_counts.at("out") == 1);
  CHECK(n.address_ranges == 2);
}

TEST_CASE("netlist: parameter precedence is type default < netlist defaults < value < template set < override", "[netlist]") {
  const Netlist n = netlist_from_text(kChiplets, {"chiplet[1].l2.latency=5 ns", "dram.size=2 MiB"});
  const auto& l2a = n.find("chiplet[0].l2")->params;
  const auto& l2b = n.find("chiplet[1].l2")->params;
  CHECK(l2a.at("size") == 1048576u);       // written in the template
  CHECK(l2a.at("ways") == 8);              // template set
  CHECK(l2a.at("latency").get<double>() == Approx(20e-9));  // netlist defaults
  CHECK(l2b.at("latency").get<double>() == Approx(5e-9));   // --set
  CHECK(l2a.at("policy") == "lru");        // the type's default
  CHECK(n.find("dram")->params.at("size") == 2097152u);
  CHECK(n.find("dram")->clock == "mem");
  CHECK(n.find("dram")->clock_hz == Approx(2e9));
  CHECK(n.find("chiplet[0].l2")->clock == "core");  // the first clock is the default
  CHECK(n.default_clock == "core");
}

TEST_CASE("netlist: overrides accept wildcards and ranges and JSON values and clocks", "[netlist]") {
  const Netlist n = netlist_from_text(kChiplets, {"chiplet[*].src[0..1].count=9", "chiplet[*].l2.label=hello",
                                     "chiplet[1].src[3].clock=mem", "chiplet[0].l2.enabled=false"});
  CHECK(n.find("chiplet[0].src[1]")->params.at("count") == 9);
  CHECK(n.find("chiplet[1].src[0]")->params.at("count") == 9);
  CHECK(n.find("chiplet[1].src[2]")->params.at("count") == 4);
  CHECK(n.find("chiplet[1].src[3]")->clock == "mem");
  CHECK(n.find("chiplet[0].l2")->params.at("enabled") == false);
  CHECK(n.find("chiplet[1].l2")->params.at("label") == "hello");  // not JSON: taken as a string
  // "[1,2]" parses as JSON, and a string parameter rejects an array.
  CHECK(error_of(kChiplets, {"chiplet[1].l2.label=[1,2]"}) ==
        "/components/chiplet[1]/l2/label|/components/chiplet[1]/l2/label: expected a string, got array [1,2] "
        "(value from --set chiplet[1].l2.label)");
  CHECK(error_of(kChiplets, {"chiplet[*].l3.size=1 MiB"}) ==
        "--set chiplet[*].l3.size|--set chiplet[*].l3.size: \"chiplet[*].l3\" matches no instance");
  CHECK(error_of(kChiplets, {"dram.sise=1 MiB"}).find("instance dram (type test_sink) has no parameter \"sise\"") !=
        std::string::npos);
  CHECK_THROWS_WITH(parse_override("dram"), Catch::Contains("expected PATH=VALUE"));
  CHECK_THROWS_WITH(parse_override("size=4"), Catch::Contains("expected INSTANCE.PARAMETER"));
  CHECK_THROWS_WITH(parse_override("cu[3..1].x=4"), Catch::Contains("first index is greater"));
}

TEST_CASE("netlist: pattern bindings evaluate i arithmetic over existing indices", "[netlist]") {
  const Netlist n = netlist_from_text(R"({
    "components": {
      "cu[0..7]": {"type": "test_source"},
      "l1[0..1]": {"type": "test_router"},
      "bank[0..1]": {"type": "test_sink"},
      "tail[1..3]": {"type": "test_sink"},
      "extra[0..2]": {"type": "test_source"},
      "wide": {"type": "test_router"},
      "w[0..3]": {"type": "test_sink"}
    },
    "bindings": [
      "cu[i].mem -> l1[i/4].in[i%4]",
      "l1[0..1].out[0] -> bank[0..1].in",
      "extra[i].mem -> wide.in[i]",
      "wide.out[0..2] -> tail[1..3].in",
      "l1[i].out[1] -> w[i*2+1].in",
      "l1[i].out[2] -> w[i*2].in"
    ],
    "address_map": [
      {"router": "l1[0]", "to": "out[0..2]", "base": "0x1000", "size": "12 KiB", "interleave": "4 KiB"},
      {"router": "l1[1]", "to": "out[0]", "base": "0", "size": "4 KiB"},
      {"router": "l1[1]", "to": "out[1]", "base": "0x1000", "size": "4 KiB"},
      {"router": "wide", "to": "out[0..2]", "base": "0", "size": "1 GiB"}
    ]
  })");
  const auto b = bindings(n);
  CHECK(b[0] == "cu[0].mem -> l1[0].in[0]");
  CHECK(b[5] == "cu[5].mem -> l1[1].in[1]");
  CHECK(b[7] == "cu[7].mem -> l1[1].in[3]");
  CHECK(b[9] == "l1[1].out[0] -> bank[1].in");
  CHECK(b[13] == "wide.out[0] -> tail[1].in");
  CHECK(b[16] == "l1[0].out[1] -> w[1].in");
  CHECK(b[17] == "l1[1].out[1] -> w[3].in");
  CHECK(b[19] == "l1[1].out[2] -> w[2].in");
  CHECK(n.find("l1[1]")->socket_counts.at("in") == 4);
  CHECK(n.find("l1[1]")->socket_counts.at("out") == 3);
  // Address maps become the router's parameter, in bytes.
  const json& map = n.find("l1[0]")->params.at("address_map");
  CHECK(map == json::parse(R"([{"base": 4096, "size": 12288, "ports": [0, 1, 2], "interleave": 4096}])"));
  CHECK(n.find("l1[1]")->params.at("address_map").size() == 2);
  CHECK(n.find("l1[1]")->params.at("address_map")[1]["ports"] == json::parse("[1]"));
}

TEST_CASE("netlist: index expressions", "[netlist]") {
  CHECK(eval_index_expr("i", 5) == 5);
  CHECK(eval_index_expr("i/4", 7) == 1);
  CHECK(eval_index_expr("i%4", 7) == 3);
  CHECK(eval_index_expr("i*2+1", 3) == 7);
  CHECK(eval_index_expr("(i+1)%8", 7) == 0);
  CHECK(eval_index_expr("2*(i-1)", 3) == 4);
  CHECK_THROWS_WITH(eval_index_expr("i-1", 0), Catch::Contains("gives -1 for i=0"));
  CHECK_THROWS_WITH(eval_index_expr("i/(i-1)", 1), Catch::Contains("division by zero"));
  CHECK_THROWS_WITH(eval_index_expr("i+", 1), Catch::Contains("ends too early"));
  CHECK_THROWS_WITH(eval_index_expr("j", 1), Catch::Contains("unexpected 'j'"));
  CHECK_THROWS_WITH(eval_index_expr("99999999999*i", 1), Catch::Contains("number too large"));
  CHECK_THROWS_WITH(eval_index_expr(std::string(40, '(') + "i" + std::string(40, ')'), 1),
                    Catch::Contains("nest too deeply"));
}

TEST_CASE("netlist: the clock named default is the default and may alias another clock", "[netlist]") {
  const std::string body =
      R"(, "components": {"s": {"type": "test_source"}, "k": {"type": "test_sink", "clock": "default"}},
            "bindings": ["s.mem -> k.in"]})";
  Netlist n = netlist_from_text(R"({"clocks": {"core": "1 GHz", "mem": "1.6 GHz", "default": "mem"})" + body);
  CHECK(n.default_clock == "default");
  CHECK(n.find("s")->clock_hz == Approx(1.6e9));
  CHECK(n.find("k")->clock_hz == Approx(1.6e9));
  n = netlist_from_text(
      R"({"components": {"s": {"type": "test_source"}, "k": {"type": "test_sink"}}, "bindings": ["s.mem -> k.in"]})");
  CHECK(n.default_clock == "default");
  CHECK(n.default_clock_hz() == Approx(1e9));
  CHECK(error_of(R"({"clocks": {"core": 1000}, "components": {}})") ==
        "/clocks/core|/clocks/core: expected a frequency such as \"1.8 GHz\", got number 1000");
}

TEST_CASE("netlist: type-specific errors name the path and what was expected", "[netlist]") {
  auto sink = [](const std::string& params) {
    return R"({"components": {"s": {"type": "test_sink", )" + params + R"(}}})";
  };
  CHECK(error_of(sink(R"("ways": 17)")) == "/components/s/ways|/components/s/ways: value 17 is out of range; expected [1, 16]");
  CHECK(error_of(sink(R"("ratio": "half")")) == "/components/s/ratio|/components/s/ratio: expected a number, got string \"half\"");
  CHECK(error_of(sink(R"("enabled": 1)")) == "/components/s/enabled|/components/s/enabled: expected true or false, got number 1");
  CHECK(error_of(sink(R"("rate": "5 GHz")")).find("unknown unit \"GHz\"") != std::string::npos);
  CHECK(error_of(sink(R"("size": "1.5 B")")).find("whole number of bytes") != std::string::npos);
  CHECK(error_of(sink(R"("freq": "0 Hz")")).find("out of range") != std::string::npos);
  // A required parameter, and a socket of another protocol.
  CHECK(error_of(R"({"components": {"o": {"type": "test_other"}}})") ==
        "/components/o|/components/o: missing required parameter \"depth\" of type test_other (int: entries)");
  CHECK(error_of(R"({"components": {"o": {"type": "test_other", "depth": 2}, "s": {"type": "test_sink"}},
                     "bindings": ["o.irq -> s.in"]})") ==
        "/bindings/0|/bindings/0: cannot bind initiator socket o.irq to target socket s.in: protocols differ (irq vs mem)");
  // An optional socket may stay unbound; a required one may not.
  CHECK(error_of(R"({"components": {"o": {"type": "test_other", "depth": 2}}})") ==
        "/components/o|/components/o: socket o.irq (initiator, irq) is not bound; bind it in \"bindings\"");
}

TEST_CASE("netlist: bad netlists in tests/netlists/bad give their expected path and message", "[netlist]") {
  testing::register_test_blocks();
  const std::string dir = std::string(TESSERA_SOURCE_DIR) + "/tests/netlists/bad";
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 30);
  for (const auto& file : files) {
    const std::string expect_file = file.substr(0, file.size() - 5) + ".expect";
    std::ifstream in(expect_file);
    REQUIRE(in.good());
    std::string path_line, message_line;
    std::getline(in, path_line);
    std::getline(in, message_line);
    REQUIRE(path_line.rfind("path: ", 0) == 0);
    REQUIRE(message_line.rfind("message: ", 0) == 0);
    INFO(file);
    bool threw = false;
    try {
      load_netlist_file(file);
    } catch (const NetlistError& e) {
      threw = true;
      CHECK(e.where() == path_line.substr(6));
      CHECK_THAT(e.what(), Catch::Contains(message_line.substr(9)));
    }
    CHECK(threw);
  }
}

TEST_CASE("netlist: line and column of a byte offset", "[netlist]") {
  const std::string text = "{\n  \"a\": 1,\n  x\n}";
  CHECK(line_and_column(text, 1) == std::make_pair<size_t, size_t>(1, 1));
  CHECK(line_and_column(text, 3) == std::make_pair<size_t, size_t>(2, 1));
  CHECK(line_and_column(text, 15) == std::make_pair<size_t, size_t>(3, 3));
  CHECK_THROWS_WITH(parse_netlist_json(text, "x.json"), Catch::Contains("x.json at line 3, column 3"));
}

TEST_CASE("netlist: nested templates and an outer set wins over an inner one", "[netlist]") {
  const Netlist n = netlist_from_text(R"({
    "templates": {
      "pair": {"components": {"s": {"type": "test_source"}, "k": {"type": "test_sink", "ways": 2}},
               "bindings": ["s.mem -> k.in"]},
      "quad": {"components": {"p[0..1]": {"template": "pair", "set": {"k.ways": 3, "s.count": 7}}}}
    },
    "components": {"q[0..1]": {"template": "quad", "set": {"p[1].k.ways": 9}}}
  })");
  CHECK(n.instances.size() == 8);
  CHECK(n.find("q[1].p[0].k")->params.at("ways") == 3);
  CHECK(n.find("q[1].p[1].k")->params.at("ways") == 9);
  CHECK(n.find("q[0].p[1].s")->params.at("count") == 7);
  CHECK(bindings(n).back() == "q[1].p[1].s.mem -> q[1].p[1].k.in");
  // A template instance is not a block: binding to it names what to do.
  CHECK(error_of(R"({"templates": {"pair": {"components": {"s": {"type": "test_source"}, "k": {"type": "test_sink"}},
                                            "bindings": ["s.mem -> k.in"]}},
                     "components": {"p": {"template": "pair"}, "x": {"type": "test_source"}},
                     "bindings": ["x.mem -> p.in"]})") ==
        "/bindings/0|/bindings/0: no instance named \"p\" (it is a template instance; name a block inside it)");
}

TEST_CASE("netlist: instances share their type's converted defaults and keep their own values", "[netlist]") {
  // Two instances take the netlist default, one sets its own value.
  const Netlist n = netlist_from_text(R"({"defaults": {"test_sink": {"ways": 4}},
      "components": {"a": {"type": "test_sink"}, "b": {"type": "test_sink", "ways": 2}, "c": {"type": "test_sink"},
                     "src[0..2]": {"type": "test_source"}},
      "bindings": ["src[0].mem -> a.in", "src[1].mem -> b.in", "src[2].mem -> c.in"]})");
  CHECK(n.find("a")->params.at("ways") == 4);
  CHECK(n.find("b")->params.at("ways") == 2);
  CHECK(n.find("c")->params.at("ways") == 4);
  // A bad netlist default is reported where it is written, used or not.
  CHECK(error_of(R"({"defaults": {"test_sink": {"ways": 17}}, "components": {"a": {"type": "test_sink", "ways": 2}}})") ==
        "/defaults/test_sink/ways|/defaults/test_sink/ways: value 17 is out of range; expected [1, 16]");
  // A required parameter set to null is missing, not its default.
  CHECK(error_of(R"({"components": {"o": {"type": "test_other", "depth": null}}})") ==
        "/components/o|/components/o: missing required parameter \"depth\" of type test_other (int: entries)");
}
