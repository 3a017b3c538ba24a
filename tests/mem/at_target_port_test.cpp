// The shared AT target shell (models/mem/at_target_port.h) on its own, behind
// a scripted server: each request's response is ready a latency after it is
// accepted, the latency read from the request's address (in ns). Memory and
// the DRAM controller are tested through it in memory_test.cpp and
// dram_controller_test.cpp; here are the port's own rules, in both orders.
#include "models/mem/at_target_port.h"

#include <catch2/catch.hpp>
#include <tlm_utils/simple_target_socket.h>

#include "mem_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

class TargetBench : public sc_core::sc_module, private AtTargetPort::Server {
 public:
  TargetBench(sc_core::sc_module_name name, const AtTargetPort::Options& options)
      : sc_module(name), in("in"), port_(std::string(basename()), in, *this, options) {
    in.register_nb_transport_fw(this, &TargetBench::nb_transport_fw);
  }

  tlm_utils::simple_target_socket<TargetBench> in;
  unsigned room = ~0u;        // admits() while fewer than this are served and not retired
  bool answer_early = false;  // respond_early instead of respond_at
  unsigned served = 0, holds = 0, retirements = 0;
  AtTargetPort& port() { return port_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    return port_.nb_transport_fw(t, phase, delay);
  }
  void serve(tlm::tlm_generic_payload& t, const sc_time& arrived) override {
    ++served;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
    const sc_time at = sim_now() + ns(static_cast<double>(t.get_address()));
    if (answer_early)
      port_.respond_early(t, at);
    else
      port_.respond_at(t, arrived, at);
  }
  void responding(tlm::tlm_generic_payload&, const sc_time&) override {}
  bool admits(const tlm::tlm_generic_payload&) override { return served - retirements < room; }
  void held(const tlm::tlm_generic_payload&) override { ++holds; }
  bool retired(tlm::tlm_generic_payload&) override {
    ++retirements;
    return true;
  }

  AtTargetPort port_;
};

AtTargetPort::Options target_options(AtTargetPort::Order order, unsigned depth = 0, bool on_call = false) {
  AtTargetPort::Options o;
  o.order = order;
  o.depth = depth;
  o.accept_on_call = on_call;
  return o;
}

// Sends BEGIN_REQ for each of `reqs` in turn, each after the previous END_REQ.
void send_in_turn(Probe& p, std::vector<Payload*> reqs) {
  for (Payload* r : reqs) {
    p.begin_req(*r);
    p.wait_for(*r, tlm::END_REQ);
  }
}

}  // namespace

TEST_CASE("at target port: acceptance order holds a response ready early behind the one before it",
          "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Acceptance));
  Payload slow(tlm::TLM_READ_COMMAND, 50, 4), fast(tlm::TLM_READ_COMMAND, 10, 4);
  Probe probe("probe", [&](Probe& p) { send_in_turn(p, {&slow, &fast}); });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(probe.time_of(slow, tlm::BEGIN_RESP) == ns(50));
  REQUIRE(probe.time_of(fast, tlm::BEGIN_RESP) == ns(50));
}

TEST_CASE("at target port: ready order sends each response when it is ready, not in acceptance order",
          "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready));
  Payload slow(tlm::TLM_READ_COMMAND, 50, 4), fast(tlm::TLM_READ_COMMAND, 10, 4), mid(tlm::TLM_READ_COMMAND, 30, 4);
  Probe probe("probe", [&](Probe& p) { send_in_turn(p, {&slow, &fast, &mid}); });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(probe.time_of(fast, tlm::BEGIN_RESP) == ns(10));
  REQUIRE(probe.time_of(mid, tlm::BEGIN_RESP) == ns(30));
  REQUIRE(probe.time_of(slow, tlm::BEGIN_RESP) == ns(50));
}

TEST_CASE("at target port: in ready order, equal times leave in the order given, one response in flight",
          "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready));
  Payload a(tlm::TLM_READ_COMMAND, 20, 4), b(tlm::TLM_READ_COMMAND, 20, 4), c(tlm::TLM_READ_COMMAND, 5, 4);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;
    send_in_turn(p, {&a, &b, &c});
    p.wait_for(c, tlm::BEGIN_RESP);
    wait(ns(40) - sc_core::sc_time_stamp());
    p.end_resp(c);
    p.wait_for(a, tlm::BEGIN_RESP);
    wait(ns(5));
    p.end_resp(a);
    p.wait_for(b, tlm::BEGIN_RESP);
    p.end_resp(b);
  });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(5));
  // a and b were ready at 20 ns; c's response was in flight until 40 ns.
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(40));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(45));
  REQUIRE(target.retirements == 3);
  REQUIRE(target.port().occupancy() == 0);
}

TEST_CASE("at target port: a request the server does not admit waits for END_REQ until room is freed",
          "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready));
  target.room = 1;
  Payload a(tlm::TLM_READ_COMMAND, 10, 4), b(tlm::TLM_READ_COMMAND, 10, 4);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;
    p.begin_req(a);
    p.wait_for(a, tlm::END_REQ);
    p.begin_req(b);
    p.wait_for(a, tlm::BEGIN_RESP);
    wait(ns(30) - sc_core::sc_time_stamp());
    p.end_resp(a);
    p.wait_for(b, tlm::BEGIN_RESP);
    p.end_resp(b);
  });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(probe.time_of(b, tlm::END_REQ) == ns(30));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(40));
  REQUIRE(target.holds >= 1);
}

TEST_CASE("at target port: accept on call answers END_REQ on the call only when nothing waits and there is room",
          "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready, 1, true));
  Payload a(tlm::TLM_READ_COMMAND, 10, 4), b(tlm::TLM_READ_COMMAND, 10, 4);
  tlm::tlm_sync_enum ra = tlm::TLM_COMPLETED, rb = tlm::TLM_COMPLETED;
  Probe probe("probe", [&](Probe& p) {
    ra = p.begin_req(a);
    rb = p.begin_req(b);  // depth 1: no room until a's response is taken
    p.wait_for(b, tlm::BEGIN_RESP);
  });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(ra == tlm::TLM_UPDATED);
  REQUIRE(rb == tlm::TLM_ACCEPTED);
  REQUIRE(probe.time_of(a, tlm::END_REQ) == SC_ZERO_TIME);
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(10));
  REQUIRE(probe.time_of(b, tlm::END_REQ) == ns(10));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(20));
}

TEST_CASE("at target port: an early response is sent on acceptance, annotated with its time", "[mem][at_port]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready));
  target.answer_early = true;
  Payload a(tlm::TLM_READ_COMMAND, 25, 4);
  Probe probe("probe", [&](Probe& p) { send_in_turn(p, {&a}); });
  probe.socket.bind(target.in);
  sc_core::sc_start();
  REQUIRE(probe.sent_at(a, tlm::BEGIN_RESP) == SC_ZERO_TIME);
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(25));
  REQUIRE(target.port().occupancy() == 0);
}

// Named with the "protocol:" tests: its violation is thrown out of a SystemC
// thread, which the sanitizer run cannot follow (scripts/test.sh).
TEST_CASE("protocol: the at target port reports an early response the requester does not complete",
          "[mem][at_port][protocol]") {
  TargetBench target("target", target_options(AtTargetPort::Order::Ready));
  target.answer_early = true;
  Payload a(tlm::TLM_READ_COMMAND, 25, 4);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;  // answers BEGIN_RESP with TLM_ACCEPTED
    p.begin_req(a);
  });
  probe.socket.bind(target.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("target") &&
                          Catch::Contains("protocol violation: a requester asking for early responses did not "
                                          "complete BEGIN_RESP"));
}

TEST_CASE("at target port: an unexpected phase is reported under the socket's given name",
          "[mem][at_port][protocol]") {
  AtTargetPort::Options o = target_options(AtTargetPort::Order::Ready);
  o.socket = "in";
  TargetBench target("target", o);
  Payload a(tlm::TLM_READ_COMMAND, 25, 4);
  Probe probe("probe", [&](Probe& p) {
    p.send_phase(a, tlm::BEGIN_RESP);
  });
  probe.socket.bind(target.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("unexpected phase BEGIN_RESP on in"));
}
