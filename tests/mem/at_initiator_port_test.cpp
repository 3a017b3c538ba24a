// The shared AT initiator side (models/mem/at_initiator_port.h) on its own:
// a recording client behind the port, a scripted target in front of it that
// answers BEGIN_REQ the way each case asks, and a script that plays the
// target's backward-path calls. The router, crossbar and caches are tested
// through the port in their own tests and protocol_checker_test.cpp.
#include "models/mem/at_initiator_port.h"

#include <catch2/catch.hpp>
#include <functional>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "mem_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

// Answers every BEGIN_REQ with `answer` (and `answer_phase`, `answer_delay`);
// records the forward-path phases it receives.
class AnsweringTarget : public sc_core::sc_module {
 public:
  explicit AnsweringTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_nb_transport_fw(this, &AnsweringTarget::nb_transport_fw);
  }
  tlm_utils::simple_target_socket<AnsweringTarget> socket;
  tlm::tlm_sync_enum answer = tlm::TLM_ACCEPTED;
  tlm::tlm_phase answer_phase = tlm::END_REQ;
  sc_time answer_delay;
  std::vector<PhaseEvent> log;

  // The target's backward-path call, as the script plays it.
  tlm::tlm_sync_enum send_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase phase, sc_time delay = SC_ZERO_TIME) {
    return socket->nb_transport_bw(t, phase, delay);
  }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    log.push_back(PhaseEvent{&t, phase, sc_core::sc_time_stamp() + delay, sc_core::sc_time_stamp()});
    if (phase != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
    if (answer != tlm::TLM_ACCEPTED) {
      phase = answer_phase;
      delay = answer_delay;
    }
    return answer;
  }
};

// What the client was told, in order.
struct InitiatorCall {
  std::string what;  // "taken", "end_req", "begin_resp"
  int socket;
  bool on_call, target_done;
  sc_time delay = SC_ZERO_TIME;  // request_taken's
};

// `sockets` initiator sockets, each bound to a target of its own; the client
// records every call and answers responses with `response_answer`.
class InitiatorBench : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(InitiatorBench);
  InitiatorBench(sc_core::sc_module_name name, int sockets, std::function<void(InitiatorBench&)> script)
      : sc_module(name), port(std::string(basename()), "out", sockets > 1), script_(std::move(script)) {
    for (int s = 0; s < sockets; ++s) {
      out.push_back(std::make_unique<tlm_utils::simple_initiator_socket_tagged<InitiatorBench>>(("out_" + std::to_string(s)).c_str()));
      out.back()->register_nb_transport_bw(this, &InitiatorBench::nb_transport_bw, s);
      port.add(*out.back());
      targets.push_back(std::make_unique<AnsweringTarget>(("target_" + std::to_string(s)).c_str()));
      out.back()->bind(targets.back()->socket);
    }
    SC_THREAD(run);
  }

  AtInitiatorPort port;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<InitiatorBench>>> out;
  std::vector<std::unique_ptr<AnsweringTarget>> targets;
  std::vector<InitiatorCall> calls;
  tlm::tlm_sync_enum response_answer = tlm::TLM_COMPLETED;
  sc_time end_resp_delay = ns(7);  // left in `delay` for an END_RESP the port sends
  bool expect_all = true;

 private:
  friend class tessera::AtInitiatorPort;  // its client
  void run() { script_(*this); }
  tlm::tlm_sync_enum nb_transport_bw(int s, tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    return port.nb_transport_bw(*this, s, t, phase, delay);
  }
  void request_taken(int s, tlm::tlm_generic_payload&, const sc_time& delay, bool on_call) {
    calls.push_back(InitiatorCall{"taken", s, on_call, false, delay});
  }
  void end_req(int s, tlm::tlm_generic_payload&, sc_time&, bool on_call) {
    calls.push_back(InitiatorCall{"end_req", s, on_call, false});
  }
  tlm::tlm_sync_enum begin_resp(int s, tlm::tlm_generic_payload&, sc_time& delay, bool target_done,
                                bool on_call) {
    calls.push_back(InitiatorCall{"begin_resp", s, on_call, target_done});
    delay = end_resp_delay;
    return response_answer;
  }
  bool expects(tlm::tlm_generic_payload&) const { return expect_all; }

  std::function<void(InitiatorBench&)> script_;
};

// The calls' names, in order, for compact checks.
std::string call_names(const std::vector<InitiatorCall>& calls) {
  std::string s;
  for (const InitiatorCall& c : calls) s += (s.empty() ? "" : " ") + c.what + (c.on_call ? "@call" : "@bw");
  return s;
}

}  // namespace

TEST_CASE("at initiator port: a request stays in flight until the target's END_REQ on the backward path",
          "[mem][at_initiator]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  bool busy_before = false, busy_after = true;
  tlm::tlm_sync_enum end_req_answer = tlm::TLM_COMPLETED;
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
    busy_before = b.port.busy(0);
    wait(ns(10));
    end_req_answer = b.targets[0]->send_bw(r, tlm::END_REQ);
    busy_after = b.port.busy(0);
  });
  sc_core::sc_start();
  REQUIRE(busy_before);
  REQUIRE_FALSE(busy_after);
  REQUIRE(end_req_answer == tlm::TLM_ACCEPTED);
  REQUIRE(call_names(bench.calls) == "taken@bw end_req@bw");
}

TEST_CASE("at initiator port: END_REQ on the call's return frees the socket at once", "[mem][at_initiator]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  bool busy = true;
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.targets[0]->answer = tlm::TLM_UPDATED;
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
    busy = b.port.busy(0);
  });
  sc_core::sc_start();
  REQUIRE_FALSE(busy);
  REQUIRE(call_names(bench.calls) == "taken@call end_req@call");
}

TEST_CASE("at initiator port: a response on the call's return is ended with END_RESP carrying the client's delay",
          "[mem][at_initiator]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.targets[0]->answer = tlm::TLM_UPDATED;
    b.targets[0]->answer_phase = tlm::BEGIN_RESP;
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
  });
  sc_core::sc_start();
  REQUIRE(call_names(bench.calls) == "taken@call begin_resp@call");
  REQUIRE_FALSE(bench.calls[1].target_done);
  const std::vector<PhaseEvent>& log = bench.targets[0]->log;
  REQUIRE(log.size() == 2);
  REQUIRE(log[1].phase == tlm::END_RESP);
  REQUIRE(log[1].at == ns(7));
}

TEST_CASE("at initiator port: a transaction the target completes on the call gets no END_RESP",
          "[mem][at_initiator]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.targets[0]->answer = tlm::TLM_COMPLETED;
    b.targets[0]->answer_phase = tlm::BEGIN_RESP;
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
  });
  sc_core::sc_start();
  REQUIRE(call_names(bench.calls) == "taken@call begin_resp@call");
  REQUIRE(bench.calls[1].target_done);
  REQUIRE(bench.targets[0]->log.size() == 1);  // BEGIN_REQ only
}

TEST_CASE("at initiator port: BEGIN_RESP on the backward path stands for END_REQ, and a held response ends later",
          "[mem][at_initiator]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  tlm::tlm_sync_enum answer = tlm::TLM_COMPLETED;
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.response_answer = tlm::TLM_ACCEPTED;
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
    wait(ns(10));
    answer = b.targets[0]->send_bw(r, tlm::BEGIN_RESP);
    wait(ns(5));
    sc_time d = SC_ZERO_TIME;
    b.port.end_resp(0, r, d);
  });
  sc_core::sc_start();
  REQUIRE(answer == tlm::TLM_ACCEPTED);
  REQUIRE(call_names(bench.calls) == "taken@bw begin_resp@bw");
  const std::vector<PhaseEvent>& log = bench.targets[0]->log;
  REQUIRE(log.size() == 2);
  REQUIRE(log[1].phase == tlm::END_RESP);
  REQUIRE(log[1].at == ns(15));
}

TEST_CASE("at initiator port: a request is taken at END_REQ's annotated time, or at once by an early BEGIN_RESP",
          "[mem][at_initiator]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 64), b(tlm::TLM_READ_COMMAND, 0x80, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& bn) {
    bn.port.begin_req(bn, 0, a, SC_ZERO_TIME);
    bn.targets[0]->send_bw(a, tlm::END_REQ, ns(3));
    bn.port.begin_req(bn, 0, b, SC_ZERO_TIME);
    // An early response: the annotation is when the answer arrives.
    bn.targets[0]->send_bw(b, tlm::BEGIN_RESP, ns(20));
  });
  sc_core::sc_start();
  REQUIRE(call_names(bench.calls) == "taken@bw end_req@bw taken@bw begin_resp@bw");
  REQUIRE(bench.calls[0].delay == ns(3));
  REQUIRE(bench.calls[2].delay == SC_ZERO_TIME);
}

TEST_CASE("at initiator port: reports END_RESP on the backward path, naming the socket", "[mem][at_initiator][protocol]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  InitiatorBench bench("bench", 2, [&](InitiatorBench& b) {
    b.port.begin_req(b, 1, r, SC_ZERO_TIME);
    b.targets[1]->send_bw(r, tlm::END_RESP);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("bench") &&
                          Catch::Contains("protocol violation: unexpected phase END_RESP on out[1] for read of 64 "
                                          "bytes at 0x40"));
}

TEST_CASE("at initiator port: reports an END_REQ for a request not in flight", "[mem][at_initiator][protocol]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x80, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) { b.targets[0]->send_bw(r, tlm::END_REQ); });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("protocol violation: unexpected phase END_REQ on out for"));
}

TEST_CASE("at initiator port: reports a BEGIN_RESP for a transaction the client does not expect",
          "[mem][at_initiator][protocol]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x80, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.expect_all = false;
    b.targets[0]->send_bw(r, tlm::BEGIN_RESP);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("protocol violation: unexpected phase BEGIN_RESP on out"));
}

TEST_CASE("at initiator port: reports a TLM_UPDATED answer to BEGIN_REQ with neither END_REQ nor BEGIN_RESP",
          "[mem][at_initiator][protocol]") {
  Payload r(tlm::TLM_READ_COMMAND, 0x80, 64);
  InitiatorBench bench("bench", 1, [&](InitiatorBench& b) {
    b.targets[0]->answer = tlm::TLM_UPDATED;
    b.targets[0]->answer_phase = tlm::END_RESP;
    b.port.begin_req(b, 0, r, SC_ZERO_TIME);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("protocol violation: unexpected phase END_RESP on out (TLM_UPDATED)"));
}
