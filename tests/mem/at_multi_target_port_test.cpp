// The shared AT target side of a socket vector
// (models/mem/at_multi_target_port.h) on its own: a bench whose requester
// sockets req[i] are bound to its target sockets in[i], a recording client
// behind the port, and a script that plays both the requesters' forward calls
// and the client's backward ones. The router, crossbar and caches are tested
// through the port in their own tests.
#include "models/mem/at_multi_target_port.h"

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

class MultiTargetBench : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(MultiTargetBench);
  MultiTargetBench(sc_core::sc_module_name name, int sockets, std::function<void(MultiTargetBench&)> script)
      : sc_module(name), port(std::string(basename()), "in"), script_(std::move(script)) {
    for (int s = 0; s < sockets; ++s) {
      in.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<MultiTargetBench>>(
          ("in_" + std::to_string(s)).c_str()));
      in.back()->register_nb_transport_fw(this, &MultiTargetBench::nb_transport_fw, s);
      port.add(*in.back());
      req.push_back(std::make_unique<tlm_utils::simple_initiator_socket_tagged<MultiTargetBench>>(
          ("req_" + std::to_string(s)).c_str()));
      req.back()->register_nb_transport_bw(this, &MultiTargetBench::nb_transport_bw, s);
      req.back()->bind(*in.back());
    }
    SC_THREAD(run);
  }

  AtMultiTargetPort port;
  std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<MultiTargetBench>>> in;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<MultiTargetBench>>> req;
  // The client's side: what it was told ("begin_req 1", "end_resp 0"), and its answer to BEGIN_REQ.
  std::vector<std::string> calls;
  tlm::tlm_sync_enum request_answer = tlm::TLM_ACCEPTED;
  // The requesters' side: what came on their backward path, and their answer to BEGIN_RESP.
  std::vector<PhaseEvent> received;
  tlm::tlm_sync_enum response_answer = tlm::TLM_ACCEPTED;
  tlm::tlm_phase response_answer_phase = tlm::END_RESP;
  bool end_resp_inside = false;  // the requester sends END_RESP from inside the BEGIN_RESP call
  sc_time end_resp_delay;        // annotated on the client's end_resp

  // A requester's forward call on req[s].
  tlm::tlm_sync_enum send_fw(int s, tlm::tlm_generic_payload& t, tlm::tlm_phase phase,
                             sc_time delay = SC_ZERO_TIME) {
    return (*req[s])->nb_transport_fw(t, phase, delay);
  }

 private:
  friend class tessera::AtMultiTargetPort;  // its client
  void run() { script_(*this); }
  tlm::tlm_sync_enum nb_transport_fw(int s, tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    return port.nb_transport_fw(*this, s, t, phase, delay);
  }
  tlm::tlm_sync_enum begin_req(int s, tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_time&) {
    calls.push_back("begin_req " + std::to_string(s));
    if (request_answer == tlm::TLM_UPDATED) phase = tlm::END_REQ;
    return request_answer;
  }
  void end_resp(int s, tlm::tlm_generic_payload&, sc_time& delay) {
    calls.push_back("end_resp " + std::to_string(s));
    end_resp_delay = delay;
  }
  tlm::tlm_sync_enum nb_transport_bw(int s, tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_time& delay) {
    received.push_back(PhaseEvent{&t, phase, sc_core::sc_time_stamp() + delay, sc_core::sc_time_stamp()});
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    if (end_resp_inside) send_fw(s, t, tlm::END_RESP);
    if (response_answer == tlm::TLM_UPDATED) phase = response_answer_phase;
    return response_answer;
  }

  std::function<void(MultiTargetBench&)> script_;
};

std::string joined(const std::vector<std::string>& calls) {
  std::string s;
  for (const std::string& c : calls) s += (s.empty() ? "" : ", ") + c;
  return s;
}

}  // namespace

TEST_CASE("at multi target port: BEGIN_REQ goes to the client with its socket, and its answer is the call's",
          "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  tlm::tlm_sync_enum r = tlm::TLM_ACCEPTED;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  MultiTargetBench bench("bench", 3, [&](MultiTargetBench& b) {
    b.request_answer = tlm::TLM_UPDATED;
    sc_time delay = SC_ZERO_TIME;
    r = (*b.req[2])->nb_transport_fw(a, phase, delay);
  });
  sc_core::sc_start();
  REQUIRE(joined(bench.calls) == "begin_req 2");
  REQUIRE(r == tlm::TLM_UPDATED);
  REQUIRE(phase == tlm::END_REQ);
}

TEST_CASE("at multi target port: a response the requester holds keeps its socket, and only its socket, busy "
          "until END_RESP",
          "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  bool taken = true, busy0 = false, busy1 = true, busy0_after = true;
  tlm::tlm_sync_enum end_resp_answer = tlm::TLM_ACCEPTED;
  MultiTargetBench bench("bench", 2, [&](MultiTargetBench& b) {
    taken = b.port.begin_resp(0, a, ns(3));
    busy0 = b.port.busy(0);
    busy1 = b.port.busy(1);
    wait(ns(10));
    end_resp_answer = b.send_fw(0, a, tlm::END_RESP, ns(2));
    busy0_after = b.port.busy(0);
  });
  sc_core::sc_start();
  REQUIRE_FALSE(taken);
  REQUIRE(busy0);
  REQUIRE_FALSE(busy1);
  REQUIRE(end_resp_answer == tlm::TLM_COMPLETED);
  REQUIRE_FALSE(busy0_after);
  REQUIRE(joined(bench.calls) == "end_resp 0");
  REQUIRE(bench.end_resp_delay == ns(2));
  REQUIRE(bench.received.size() == 1);
  REQUIRE(bench.received[0].phase == tlm::BEGIN_RESP);
  REQUIRE(bench.received[0].at == ns(3));
}

TEST_CASE("at multi target port: a response taken on the call leaves its socket free", "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4), b2(tlm::TLM_READ_COMMAND, 0x80, 4);
  bool completed_taken = false, updated_taken = false, busy = true;
  MultiTargetBench bench("bench", 1, [&](MultiTargetBench& b) {
    b.response_answer = tlm::TLM_COMPLETED;
    completed_taken = b.port.begin_resp(0, a, SC_ZERO_TIME);
    b.response_answer = tlm::TLM_UPDATED;
    b.response_answer_phase = tlm::END_RESP;
    updated_taken = b.port.begin_resp(0, b2, SC_ZERO_TIME);
    busy = b.port.busy(0);
  });
  sc_core::sc_start();
  REQUIRE(completed_taken);
  REQUIRE(updated_taken);
  REQUIRE_FALSE(busy);
  REQUIRE(bench.calls.empty());  // no END_RESP came: the client is not told
}

TEST_CASE("at multi target port: TLM_UPDATED with BEGIN_RESP unchanged leaves the response in flight",
          "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  bool taken = true, busy = false;
  MultiTargetBench bench("bench", 1, [&](MultiTargetBench& b) {
    b.response_answer = tlm::TLM_UPDATED;
    b.response_answer_phase = tlm::BEGIN_RESP;
    taken = b.port.begin_resp(0, a, SC_ZERO_TIME);
    busy = b.port.busy(0);
  });
  sc_core::sc_start();
  REQUIRE_FALSE(taken);
  REQUIRE(busy);
}

TEST_CASE("at multi target port: END_RESP from inside the BEGIN_RESP call ends the response",
          "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  bool busy = true;
  MultiTargetBench bench("bench", 2, [&](MultiTargetBench& b) {
    b.end_resp_inside = true;
    b.port.begin_resp(1, a, SC_ZERO_TIME);
    busy = b.port.busy(1);
  });
  sc_core::sc_start();
  REQUIRE(joined(bench.calls) == "end_resp 1");
  REQUIRE_FALSE(busy);
}

TEST_CASE("at multi target port: END_REQ and early responses go to their socket with their delay",
          "[mem][at_multi_target]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4), b2(tlm::TLM_READ_COMMAND, 0x80, 4);
  bool busy = true;
  MultiTargetBench bench("bench", 2, [&](MultiTargetBench& b) {
    b.response_answer = tlm::TLM_COMPLETED;
    b.port.end_req(1, a, ns(4));
    b.port.respond_early(1, b2, ns(9));
    busy = b.port.busy(1);
  });
  sc_core::sc_start();
  REQUIRE(bench.received.size() == 2);
  REQUIRE(bench.received[0].trans == &a);
  REQUIRE(bench.received[0].phase == tlm::END_REQ);
  REQUIRE(bench.received[0].at == ns(4));
  REQUIRE(bench.received[1].trans == &b2);
  REQUIRE(bench.received[1].phase == tlm::BEGIN_RESP);
  REQUIRE(bench.received[1].at == ns(9));
  REQUIRE_FALSE(busy);  // an early response never holds its socket
}

// The violations below are thrown out of a SystemC thread, which the
// sanitizer run cannot follow: they are named with the "protocol:" tests.
TEST_CASE("protocol: the at multi target port reports an END_RESP with no response in flight",
          "[mem][at_multi_target][protocol]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  MultiTargetBench bench("bench", 1, [&](MultiTargetBench& b) { b.send_fw(0, a, tlm::END_RESP); });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("bench") &&
                                               Catch::Contains("protocol violation: END_RESP for a response not in "
                                                               "flight"));
  REQUIRE(bench.calls.empty());
}

TEST_CASE("protocol: the at multi target port reports an END_RESP on another socket than its response's",
          "[mem][at_multi_target][protocol]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  MultiTargetBench bench("bench", 2, [&](MultiTargetBench& b) {
    b.port.begin_resp(0, a, SC_ZERO_TIME);
    b.send_fw(1, a, tlm::END_RESP);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("END_RESP for a response not in flight"));
  REQUIRE(bench.calls.empty());
}

TEST_CASE("protocol: the at multi target port reports an unexpected forward phase naming its socket",
          "[mem][at_multi_target][protocol]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  MultiTargetBench bench("bench", 2, [&](MultiTargetBench& b) { b.send_fw(1, a, tlm::BEGIN_RESP); });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("unexpected phase BEGIN_RESP on in[1]"));
}

TEST_CASE("protocol: the at multi target port reports a TLM_UPDATED answer to BEGIN_RESP with another phase",
          "[mem][at_multi_target][protocol]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  MultiTargetBench bench("bench", 1, [&](MultiTargetBench& b) {
    b.response_answer = tlm::TLM_UPDATED;
    b.response_answer_phase = tlm::END_REQ;
    b.port.begin_resp(0, a, SC_ZERO_TIME);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("unexpected phase END_REQ on in[0] (TLM_UPDATED)"));
}

TEST_CASE("protocol: the at multi target port reports an early response the requester does not complete",
          "[mem][at_multi_target][protocol]") {
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 4);
  MultiTargetBench bench("bench", 1, [&](MultiTargetBench& b) { b.port.respond_early(0, a, SC_ZERO_TIME); });
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("protocol violation: a requester asking for early responses did not complete "
                                      "BEGIN_RESP"));
}
