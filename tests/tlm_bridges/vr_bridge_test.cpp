// The valid/ready memory bridges and checker: TLM initiators -> TlmToVr ->
// pins -> VrToTlm -> a `memory` block, every read checked, checker silent;
// errors mapped; and a script on the pins that makes each checker rule fire.
#include <catch2/catch.hpp>

#include <functional>

#include "models/mem/memory.h"
#include "tests/mem/mem_test_support.h"
#include "tests/tlm_bridges/traffic.h"
#include "tlm_bridges/tlm_to_vr.h"
#include "tlm_bridges/vr_checker.h"
#include "tlm_bridges/vr_to_tlm.h"

using namespace tessera;
using namespace tessera::vr;
using namespace sc_core;
using tessera::test::Traffic;

namespace {

void run_random_traffic(TlmToVr::Config mgr_cfg, VrToTlm::Config sub_cfg) {
  test::MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem", test::memory_params({{"latency", "10 ns"}}));
  sc_clock clk("clk", 1, SC_NS);
  Pins pins("vr");
  TlmToVr mgr("mgr", pins, mgr_cfg);
  VrToTlm sub("sub", pins, sub_cfg);
  VrChecker checker("checker", pins, {});
  mgr.clk(clk), sub.clk(clk), checker.clk(clk);
  sub.out.bind(*mem.target_socket("in", -1));
  Traffic traffic("traffic", 6, 100, 16384);
  traffic.out.bind(mgr.in);
  sc_start(10, SC_MS);
  CHECK(traffic.done == 6);
  CHECK(traffic.reads + traffic.writes == 6 * 100);
  CHECK(traffic.reads > 200);
  CHECK(traffic.mismatches == 0);
  CHECK(traffic.errors == 0);
  for (const Violation& v : checker.violations()) INFO(v.rule << " on " << v.signal << ": " << v.detail);
  CHECK(checker.violations().empty());
  CHECK(mgr.outstanding() == 0);
  CHECK(sub.outstanding() == 0);
}

// The checker on pins a script drives (both sides), timeouts at 10 cycles.
struct PinBench {
  PinBench() { checker.clk(clk); }
  void run(const std::function<void()>& script) {
    sc_spawn([&] {
      script();
      for (int i = 0; i < 30; ++i) edge();
      sc_stop();
    });
    sc_start(10, SC_US);
  }
  void edge() {
    wait(clk.posedge_event());
    wait(SC_ZERO_TIME);
  }
  void req(bool write, uint64_t addr) {
    pins.req_valid = true, pins.req_write = write, pins.req_addr = addr, pins.req_wdata = 7, pins.req_wstrb = 0xff;
  }
  void handshake(sc_signal<bool>& valid, sc_signal<bool>& ready) {
    ready = true;
    edge();
    valid = false;
    ready = false;
  }
  void resp() {
    pins.resp_valid = true, pins.resp_rdata = 0, pins.resp_error = false;
    handshake(pins.resp_valid, pins.resp_ready);
  }
  sc_clock clk{"clk", 1, SC_NS};
  Pins pins{"vr"};
  VrChecker checker{"checker", pins, {10}};
};

}  // namespace

TEST_CASE("vr bridges: random concurrent traffic reads back what was written and the checker stays silent",
          "[vr]") {
  run_random_traffic({4, 1}, {4, 1});
}

TEST_CASE("vr bridges: the subordinate carries out 16 requests at once and answers in order", "[vr]") {
  run_random_traffic({16, 1}, {16, 1, 16});
}

TEST_CASE("vr bridges: back-pressure both ways with one request outstanding", "[vr]") {
  run_random_traffic({1, 3}, {1, 4});
}

TEST_CASE("vr bridges: an address error from memory comes back as a TLM error", "[vr]") {
  test::MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem", test::memory_params({{"size", "4 KiB"}}));
  sc_clock clk("clk", 1, SC_NS);
  Pins pins("vr");
  TlmToVr mgr("mgr", pins, {});
  VrToTlm sub("sub", pins, {});
  VrChecker checker("checker", pins, {});
  mgr.clk(clk), sub.clk(clk), checker.clk(clk);
  sub.out.bind(*mem.target_socket("in", -1));
  struct Initiator : sc_module {
    explicit Initiator(sc_module_name n) : sc_module(n), out("out") {}
    tlm_utils::simple_initiator_socket<Initiator> out;
  } init("init");
  init.out.bind(mgr.in);
  tlm::tlm_response_status inside = tlm::TLM_INCOMPLETE_RESPONSE, across = inside;
  sc_spawn([&] {
    uint8_t data[16] = {};
    tlm::tlm_generic_payload t;
    t.set_command(tlm::TLM_READ_COMMAND);
    t.set_data_ptr(data);
    t.set_data_length(16);
    t.set_streaming_width(16);
    sc_time d = SC_ZERO_TIME;
    t.set_address(0x10);
    init.out->b_transport(t, d);
    inside = t.get_response_status();
    t.set_address(0xff8);  // the second word is past the memory's end
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    init.out->b_transport(t, d);
    across = t.get_response_status();
    sc_stop();
  });
  sc_start(1, SC_US);
  CHECK(inside == tlm::TLM_OK_RESPONSE);
  CHECK(across == tlm::TLM_GENERIC_ERROR_RESPONSE);
  CHECK(checker.violations().empty());
}

TEST_CASE("vr checker: a legal script with waits breaks no rule", "[vr][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.req(true, 0x100);
    t.edge(), t.edge();
    t.handshake(t.pins.req_valid, t.pins.req_ready);
    t.req(false, 0x108);
    t.handshake(t.pins.req_valid, t.pins.req_ready);
    t.resp();
    t.resp();
  });
  CHECK(t.checker.violations().empty());
}

TEST_CASE("vr checker: valid_held and payload_stable fire", "[vr][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.req(true, 0x100);
    t.edge();
    t.pins.req_wdata = 8;  // changes while waiting
    t.edge();
    t.pins.req_valid = false;  // falls before READY
  });
  CHECK(t.checker.count("payload_stable") == 1);
  CHECK(t.checker.count("valid_held") == 1);
  CHECK(t.checker.violations().size() == 2);
  CHECK(t.checker.violations().at(0).signal == "REQ_WDATA");
  CHECK(t.checker.violations().at(1).signal == "REQ_VALID");
}

TEST_CASE("vr checker: unaligned fires for a request at an odd address", "[vr][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.req(false, 0x104);
    t.handshake(t.pins.req_valid, t.pins.req_ready);
    t.resp();
  });
  CHECK(t.checker.count("unaligned") == 1);
  CHECK(t.checker.violations().size() == 1);
}

TEST_CASE("vr checker: response_without_request fires", "[vr][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.resp();
  });
  CHECK(t.checker.count("response_without_request") == 1);
  CHECK(t.checker.violations().size() == 1);
}

TEST_CASE("vr checker: handshake_timeout and response_timeout fire after 10 cycles", "[vr][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.req(false, 0x100);
    for (int i = 0; i < 12; ++i) t.edge();
    t.handshake(t.pins.req_valid, t.pins.req_ready);
  });
  CHECK(t.checker.count("handshake_timeout") == 1);
  CHECK(t.checker.count("response_timeout") == 1);
  CHECK(t.checker.violations().size() == 2);
}
