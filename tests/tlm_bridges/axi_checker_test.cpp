// The AXI4 protocol checker: a script drives the pins edge by edge and each
// rule is made to fire, once, with the time, signal and rule reported; a legal
// script with back-pressure fires nothing. Also FIXED and WRAP and narrow bursts
// from a pin-level manager through AxiToTlm to a `memory` block.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>

#include "models/mem/memory.h"
#include "tests/mem/mem_test_support.h"
#include "tlm_bridges/axi_checker.h"
#include "tlm_bridges/axi_to_tlm.h"

using namespace tessera;
using namespace tessera::axi;
using namespace sc_core;

namespace {

// The checker on pins the script drives (both sides in the checker's tests),
// timeouts at 10 cycles unless told.
struct PinBench {
  explicit PinBench(uint64_t timeout_cycles = 10) : checker("checker", pins, {timeout_cycles}) { checker.clk(clk); }
  // Runs `script` in a thread, then 30 more cycles.
  void run(const std::function<void()>& script) {
    sc_spawn([&] {
      script();
      for (int i = 0; i < 30; ++i) edge();
      sc_stop();
    });
    sc_start(10, SC_US);
  }
  // To just after the next rising edge, once the edge's writes are visible.
  void edge() {
    wait(clk.posedge_event());
    wait(SC_ZERO_TIME);
  }
  void aw(uint32_t id, uint64_t addr, uint32_t len, uint32_t burst = kIncr, uint32_t size = kBusSize) {
    pins.awvalid = true, pins.awid = id, pins.awaddr = addr, pins.awlen = len, pins.awsize = size;
    pins.awburst = burst;
  }
  void ar(uint32_t id, uint64_t addr, uint32_t len, uint32_t burst = kIncr, uint32_t size = kBusSize) {
    pins.arvalid = true, pins.arid = id, pins.araddr = addr, pins.arlen = len, pins.arsize = size;
    pins.arburst = burst;
  }
  // Holds the current values for one edge with READY up, then drops VALID.
  void handshake(sc_signal<bool>& valid, sc_signal<bool>& ready) {
    ready = true;
    edge();
    valid = false;
    ready = false;
  }
  void w_beat(uint64_t data, bool last) {
    pins.wvalid = true, pins.wdata = data, pins.wstrb = 0xff, pins.wlast = last;
    handshake(pins.wvalid, pins.wready);
  }
  void r_beat(uint32_t id, bool last) {
    pins.rvalid = true, pins.rid = id, pins.rdata = 0, pins.rresp = kOkay, pins.rlast = last;
    handshake(pins.rvalid, pins.rready);
  }
  void b(uint32_t id) {
    pins.bvalid = true, pins.bid = id, pins.bresp = kOkay;
    handshake(pins.bvalid, pins.bready);
  }

  sc_clock clk{"clk", 1, SC_NS};
  Pins pins{"axi"};
  AxiChecker checker;
};

// The only violations are `n` of `rule`.
void expect_only(const AxiChecker& c, const std::string& rule, size_t n = 1) {
  for (const Violation& v : c.violations()) INFO(v.rule << " on " << v.signal << ": " << v.detail);
  CHECK(c.count(rule) == n);
  CHECK(c.violations().size() == n);
}

}  // namespace

TEST_CASE("axi checker: a legal script with waits on every channel breaks no rule", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.aw(1, 0x1000, 1);
    t.edge(), t.edge();  // AWVALID waits two cycles with a stable payload
    t.handshake(t.pins.awvalid, t.pins.awready);
    t.w_beat(1, false);
    t.w_beat(2, true);
    t.b(1);
    t.ar(2, 0x2ff0, 3, kWrap);  // 4 beats of 8 bytes, aligned: legal WRAP
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.ar(3, 0x3000, 0, kFixed);
    t.handshake(t.pins.arvalid, t.pins.arready);
    for (int i = 0; i < 4; ++i) t.r_beat(2, i == 3);
    t.r_beat(3, true);
    t.w_beat(7, true);  // write data ahead of its address
    t.aw(4, 0x40, 0);
    t.handshake(t.pins.awvalid, t.pins.awready);
    t.b(4);
  });
  for (const Violation& v : t.checker.violations()) INFO(v.rule << " on " << v.signal << ": " << v.detail);
  CHECK(t.checker.violations().empty());
}

TEST_CASE("axi checker: valid_held fires when AWVALID falls before AWREADY", "[axi][checker]") {
  PinBench t;
  sc_time dropped;
  t.run([&] {
    t.edge();
    t.aw(0, 0x100, 0);
    t.edge();
    t.pins.awvalid = false;
    dropped = sc_time_stamp();
  });
  expect_only(t.checker, "valid_held");
  const Violation& v = t.checker.violations().at(0);
  CHECK(v.signal == "AWVALID");
  CHECK(v.time == dropped + sc_time(1, SC_NS));  // seen at the next edge
}

TEST_CASE("axi checker: payload_stable fires when ARADDR changes while ARVALID waits", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.ar(0, 0x100, 0);
    t.edge();
    t.pins.araddr = 0x200;
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.r_beat(0, true);
  });
  expect_only(t.checker, "payload_stable");
  CHECK(t.checker.violations().at(0).signal == "ARADDR");
}

TEST_CASE("axi checker: 4k_boundary fires for an INCR burst across 4 KiB", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.ar(0, 0xff8, 1);
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.r_beat(0, false);
    t.r_beat(0, true);
  });
  expect_only(t.checker, "4k_boundary");
}

TEST_CASE("axi checker: wrap_burst and burst_type and fixed_length and burst_size fire for bad bursts",
          "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.ar(0, 0x100, 2, kWrap);  // 3 beats
    t.handshake(t.pins.arvalid, t.pins.arready);
    for (int i = 0; i < 3; ++i) t.r_beat(0, i == 2);
    t.ar(1, 0x100, 0, 3);
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.r_beat(1, true);
    t.ar(2, 0x100, 16, kFixed);
    t.handshake(t.pins.arvalid, t.pins.arready);
    for (int i = 0; i < 17; ++i) t.r_beat(2, i == 16);
    t.ar(3, 0x100, 0, kIncr, 4);  // 16-byte beats on an 8-byte bus
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.r_beat(3, true);
  });
  CHECK(t.checker.count("wrap_burst") == 1);
  CHECK(t.checker.count("burst_type") == 1);
  CHECK(t.checker.count("fixed_length") == 1);
  CHECK(t.checker.count("burst_size") == 1);
  CHECK(t.checker.violations().size() == 4);
}

TEST_CASE("axi checker: wlast fires for WLAST on the first of two beats", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.aw(3, 0x100, 1);
    t.handshake(t.pins.awvalid, t.pins.awready);
    t.w_beat(1, true);
    t.b(3);
  });
  expect_only(t.checker, "wlast");
  CHECK(t.checker.violations().at(0).signal == "WLAST");
}

TEST_CASE("axi checker: rlast fires for a missing RLAST", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.ar(5, 0x100, 1);
    t.handshake(t.pins.arvalid, t.pins.arready);
    t.r_beat(5, false);
    t.r_beat(5, false);
  });
  expect_only(t.checker, "rlast");
}

TEST_CASE("axi checker: response_without_request fires for B and R out of nowhere", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.b(6);
    t.r_beat(2, true);
  });
  expect_only(t.checker, "response_without_request", 2);
  CHECK(t.checker.violations().at(0).signal == "BVALID");
  CHECK(t.checker.violations().at(1).signal == "RVALID");
}

TEST_CASE("axi checker: response_order fires for a write response before the last W beat", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.aw(1, 0x100, 1);
    t.handshake(t.pins.awvalid, t.pins.awready);
    t.w_beat(1, false);
    t.b(1);
    t.w_beat(2, true);
  });
  CHECK(t.checker.count("response_order") == 1);
  // The burst's B never comes after that: its response times out too.
  CHECK(t.checker.count("response_timeout") == 1);
  CHECK(t.checker.violations().size() == 2);
}

TEST_CASE("axi checker: handshake_timeout and response_timeout fire after 10 cycles", "[axi][checker]") {
  PinBench t;
  t.run([&] {
    t.edge();
    t.ar(0, 0x100, 0);
    for (int i = 0; i < 12; ++i) t.edge();  // ARREADY never comes in time
    t.handshake(t.pins.arvalid, t.pins.arready);
  });
  CHECK(t.checker.count("handshake_timeout") == 1);
  CHECK(t.checker.count("response_timeout") == 1);  // and no R follows
  CHECK(t.checker.violations().size() == 2);
}

TEST_CASE("axi to tlm: FIXED and WRAP and narrow bursts from pins reach memory at the right addresses",
          "[axi]") {
  test::MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem", test::memory_params());
  PinBench t(1000);  // the memory's 40 ns latency is longer than 10 cycles
  AxiToTlm sub("sub", t.pins, {});
  sub.clk(t.clk);
  sub.out.bind(*mem.target_socket("in", -1));
  std::vector<uint64_t> wrap_read;
  uint32_t bresp = 9;
  auto wait_for = [&](sc_signal<bool>& valid) {
    while (!valid.read()) t.edge();
  };
  t.run([&] {
    t.edge();
    // INCR, full width: 0x100..0x13f = words 0..7
    t.aw(1, 0x100, 7);
    wait_for(t.pins.awready), t.edge(), t.pins.awvalid = false;
    for (int i = 0; i < 8; ++i) {
      t.pins.wvalid = true, t.pins.wdata = 0x1111111111111111ull * i, t.pins.wstrb = 0xff, t.pins.wlast = i == 7;
      wait_for(t.pins.wready), t.edge();
    }
    t.pins.wvalid = false;
    t.pins.bready = true;
    wait_for(t.pins.bvalid), t.edge(), t.pins.bready = false;
    // FIXED: three beats to 0x108, the last one wins
    t.aw(2, 0x108, 2, kFixed);
    wait_for(t.pins.awready), t.edge(), t.pins.awvalid = false;
    for (int i = 0; i < 3; ++i) {
      t.pins.wvalid = true, t.pins.wdata = 0xa0 + i, t.pins.wstrb = 0xff, t.pins.wlast = i == 2;
      wait_for(t.pins.wready), t.edge();
    }
    t.pins.wvalid = false;
    t.pins.bready = true;
    wait_for(t.pins.bvalid), bresp = t.pins.bresp.read(), t.edge(), t.pins.bready = false;
    // Narrow: two 4-byte beats at 0x124 and 0x128 (lanes 4-7, then 0-3)
    t.aw(3, 0x124, 1, kIncr, 2);
    wait_for(t.pins.awready), t.edge(), t.pins.awvalid = false;
    t.pins.wvalid = true, t.pins.wdata = 0xdddddddd00000000ull, t.pins.wstrb = 0xf0, t.pins.wlast = false;
    wait_for(t.pins.wready), t.edge();
    t.pins.wdata = 0x00000000eeeeeeeeull, t.pins.wstrb = 0x0f, t.pins.wlast = true;
    wait_for(t.pins.wready), t.edge();
    t.pins.wvalid = false;
    t.pins.bready = true;
    wait_for(t.pins.bvalid), t.edge(), t.pins.bready = false;
    // WRAP: 4 beats from 0x110 within 0x100..0x11f... a 32-byte span: 0x110, 0x118, 0x100, 0x108
    t.ar(4, 0x110, 3, kWrap);
    wait_for(t.pins.arready), t.edge(), t.pins.arvalid = false;
    t.pins.rready = true;
    while (wrap_read.size() < 4) {
      wait_for(t.pins.rvalid);
      wrap_read.push_back(t.pins.rdata.read());
      t.edge();
    }
    t.pins.rready = false;
  });
  CHECK(bresp == kOkay);
  REQUIRE(wrap_read.size() == 4);
  CHECK(wrap_read[0] == 0x2222222222222222ull);
  CHECK(wrap_read[1] == 0x3333333333333333ull);
  CHECK(wrap_read[2] == 0x0000000000000000ull);
  CHECK(wrap_read[3] == 0xa2);  // the FIXED burst's last beat
  uint8_t word[8];
  mem.store().read(0x120, word, 8);
  uint64_t v = 0;
  std::memcpy(&v, word, 8);
  CHECK(v == 0xdddddddd44444444ull);
  mem.store().read(0x128, word, 8);
  std::memcpy(&v, word, 8);
  CHECK(v == 0x55555555eeeeeeeeull);
  for (const Violation& x : t.checker.violations()) INFO(x.rule << " on " << x.signal << ": " << x.detail);
  CHECK(t.checker.violations().empty());
}
