// AXI4 bridges: TLM initiators -> TlmToAxi -> pins -> AxiToTlm -> a `memory`
// block, with the protocol checker on the pins; every read is checked against
// what was written. Each test case is its own process (SystemC elaborates once).
#include <catch2/catch.hpp>

#include <functional>
#include <memory>
#include <random>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/mem/memory.h"
#include "tests/tlm_bridges/traffic.h"
#include "tests/mem/mem_test_support.h"
#include "tlm_bridges/axi_checker.h"
#include "tlm_bridges/axi_to_tlm.h"
#include "tlm_bridges/rtl_axi_memory.h"
#include "tlm_bridges/tlm_to_axi.h"

using namespace tessera;
using namespace tessera::axi;
using namespace sc_core;
using tessera::test::Traffic;

namespace {

struct Bench {
  explicit Bench(TlmToAxi::Config mgr_cfg, AxiToTlm::Config sub_cfg)
      : mem(pf.create<Memory>("memory", "mem", test::memory_params({{"latency", "10 ns"}}))),
        mgr("mgr", pins, mgr_cfg), sub("sub", pins, sub_cfg), checker("checker", pins, {}) {
    mgr.clk(clk);
    sub.clk(clk);
    checker.clk(clk);
    sub.out.bind(*mem.target_socket("in", -1));
  }
  test::MiniPlatform pf;
  Memory& mem;
  sc_clock clk{"clk", 1, SC_NS};
  Pins pins{"axi"};
  TlmToAxi mgr;
  AxiToTlm sub;
  AxiChecker checker;
};

void run_random_traffic(TlmToAxi::Config mgr_cfg, AxiToTlm::Config sub_cfg) {
  Bench bench(mgr_cfg, sub_cfg);
  Traffic traffic("traffic", 6, 150, 16384);
  traffic.out.bind(bench.mgr.in);
  sc_start(10, SC_MS);
  CHECK(traffic.done == 6);
  CHECK(traffic.reads + traffic.writes == 6 * 150);
  CHECK(traffic.reads > 300);
  CHECK(traffic.mismatches == 0);
  CHECK(traffic.errors == 0);
  CHECK(bench.checker.violations().empty());
  CHECK(bench.mgr.outstanding() == 0);
  CHECK(bench.sub.outstanding() == 0);
}

// A target that answers every access with one status: a subordinate's error.
struct ErrorTarget : sc_module {
  explicit ErrorTarget(sc_module_name n, tlm::tlm_response_status s) : sc_module(n), in("in"), status(s) {
    in.register_b_transport(this, &ErrorTarget::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& t, sc_time&) { t.set_response_status(status); }
  tlm_utils::simple_target_socket<ErrorTarget> in;
  tlm::tlm_response_status status;
};


}  // namespace

TEST_CASE("axi bridges: random concurrent traffic reads back what was written and the checker stays silent", "[axi]") {
  run_random_traffic({4, 1}, {8, 1});
}

TEST_CASE("axi bridges: back-pressure on every channel both ways with one ID and two outstanding", "[axi]") {
  run_random_traffic({1, 3}, {2, 4});
}

TEST_CASE("axi bridges: the subordinate carries out 8 bursts at once, in order per address and per ID", "[axi]") {
  run_random_traffic({8, 1}, {8, 1, 8});
}

TEST_CASE("axi bridges: DECERR and SLVERR come back as TLM address and generic errors", "[axi]") {
  sc_clock clk("clk", 1, SC_NS);
  Pins pins("axi");
  TlmToAxi mgr("mgr", pins, {});
  AxiToTlm sub("sub", pins, {});
  AxiChecker checker("checker", pins, {});
  ErrorTarget target("target", tlm::TLM_GENERIC_ERROR_RESPONSE);
  mgr.clk(clk), sub.clk(clk), checker.clk(clk);
  sub.out.bind(target.in);
  tlm::tlm_response_status got_slverr = tlm::TLM_INCOMPLETE_RESPONSE, got_decerr = tlm::TLM_INCOMPLETE_RESPONSE;
  struct Initiator : sc_module {
    explicit Initiator(sc_module_name n) : sc_module(n), out("out") {}
    tlm_utils::simple_initiator_socket<Initiator> out;
  } init("init");
  init.out.bind(mgr.in);
  sc_spawn([&] {
    uint8_t data[16] = {};
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_address(0x40);
    t.set_data_ptr(data);
    t.set_data_length(16);
    t.set_streaming_width(16);
    sc_time d = SC_ZERO_TIME;
    init.out->b_transport(t, d);
    got_slverr = t.get_response_status();
    target.status = tlm::TLM_ADDRESS_ERROR_RESPONSE;
    t.set_command(tlm::TLM_WRITE_COMMAND);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    init.out->b_transport(t, d);
    got_decerr = t.get_response_status();
    sc_stop();
  });
  sc_start(1, SC_US);
  CHECK(got_slverr == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(got_decerr == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(checker.violations().empty());
}

TEST_CASE("rtl_axi_memory: random concurrent traffic through the RTL reads back what was written", "[axi][rtl]") {
  test::MiniPlatform pf;
  auto& mem = pf.create<RtlAxiMemory>("rtl_axi_memory", "mem", {{"size", "1 MiB"}, {"latency", "20 ns"}});
  Traffic traffic("traffic", 6, 150, 16384);
  traffic.out.bind(*mem.target_socket("in", -1));
  sc_start(10, SC_MS);
  CHECK(traffic.done == 6);
  CHECK(traffic.mismatches == 0);
  CHECK(traffic.errors == 0);
  REQUIRE(mem.checker());
  for (const Violation& v : mem.checker()->violations()) INFO(v.rule << " on " << v.signal << ": " << v.detail);
  CHECK(mem.checker()->violations().empty());
}
