// Negative tests: a requester that breaks the TLM base protocol is stopped by
// the block it talks to, with an error naming the block, the rule and the
// transaction (models/mem/protocol_checker.h). One process per test case, so
// each runs its own simulation to the first violation.
#include "models/mem/protocol_checker.h"

#include <catch2/catch.hpp>
#include <tlm_utils/simple_target_socket.h>

#include "mem_test_support.h"
#include "models/mem/dram_controller.h"
#include "models/mem/memory.h"
#include "models/noc/crossbar.h"
#include "models/noc/router.h"

using namespace tessera;
using namespace tessera::test;

namespace {

json protocol_test_map() { return json::parse(R"([{"base": 0, "size": "1 MiB", "ports": [0]}])"); }

// A platform of `probe -> block(in[0]) -> memory`, for the blocks with in[] and out[].
template <class B>
B& protocol_platform(MiniPlatform& pf, const char* type, Probe& probe) {
  auto& b = pf.create<B>(type, "fabric", {{"address_map", protocol_test_map()}}, {{"in", 1}, {"out", 1}});
  auto& mem = pf.create<Memory>("memory", "mem", memory_params());
  probe.socket.bind(*b.target_socket("in", 0));
  b.initiator_socket("out", 0)->bind(mem.in);
  return b;
}

}  // namespace

TEST_CASE("protocol: memory reports END_REQ on its forward path", "[mem][protocol]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_REQ); });
  probe.socket.bind(mem.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("mem0") &&
                                               Catch::Contains("protocol violation: unexpected phase END_REQ on "
                                                               "nb_transport_fw for read of 64 bytes at 0x40"));
}

TEST_CASE("protocol: memory reports an END_RESP for a response it never sent", "[mem][protocol]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  Payload r(tlm::TLM_READ_COMMAND, 0x80, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_RESP); });
  probe.socket.bind(mem.in);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("mem0") &&
                                               Catch::Contains("protocol violation: END_RESP for a response not in "
                                                               "flight for read of 64 bytes at 0x80"));
}

TEST_CASE("protocol: memory's well-behaved requester sees no violation", "[mem][protocol]") {
  // The same platform as above, used correctly: the checks above fire on the
  // violation, not on the traffic.
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  Payload r(tlm::TLM_READ_COMMAND, 0x80, 64);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;
    p.begin_req(r);
    p.wait_for(r, tlm::BEGIN_RESP);
    p.end_resp(r);
  });
  probe.socket.bind(mem.in);
  REQUIRE_NOTHROW(sc_core::sc_start());
  REQUIRE(r.get_response_status() == tlm::TLM_OK_RESPONSE);
}

TEST_CASE("protocol: router reports BEGIN_RESP on its forward path", "[noc][protocol]") {
  MiniPlatform pf;
  Payload r(tlm::TLM_WRITE_COMMAND, 0x100, 4);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::BEGIN_RESP); });
  protocol_platform<Router>(pf, "router", probe);
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("fabric") && Catch::Contains("protocol violation: unexpected phase BEGIN_RESP "
                                                                   "on in[0] for write of 4 bytes at 0x100"));
}

TEST_CASE("protocol: router reports an END_RESP for a response not in flight", "[noc][protocol]") {
  MiniPlatform pf;
  Payload r(tlm::TLM_READ_COMMAND, 0x200, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_RESP); });
  protocol_platform<Router>(pf, "router", probe);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("protocol violation: END_RESP for a response not in flight"));
}

TEST_CASE("protocol: crossbar reports END_REQ on its forward path", "[noc][protocol]") {
  MiniPlatform pf;
  Payload r(tlm::TLM_READ_COMMAND, 0x300, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_REQ); });
  protocol_platform<Crossbar>(pf, "crossbar", probe);
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("fabric") && Catch::Contains("protocol violation: unexpected phase END_REQ on "
                                                                   "in[0] for read of 64 bytes at 0x300"));
}

TEST_CASE("protocol: crossbar reports an END_RESP for a response not in flight", "[noc][protocol]") {
  MiniPlatform pf;
  Payload r(tlm::TLM_READ_COMMAND, 0x300, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_RESP); });
  protocol_platform<Crossbar>(pf, "crossbar", probe);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("protocol violation: END_RESP for a response not in flight"));
}

TEST_CASE("protocol: dram_controller reports BEGIN_RESP on its forward path and a stray END_RESP",
          "[mem][protocol]") {
  MiniPlatform pf;
  auto& d = pf.create<DramController>("dram_controller", "hbm", {{"channels", 1}});
  Payload r(tlm::TLM_READ_COMMAND, 0x400, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::BEGIN_RESP); });
  probe.socket.bind(*d.target_socket("in", -1));
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("hbm") && Catch::Contains("protocol violation: unexpected phase BEGIN_RESP on in "
                                                                "for read of 64 bytes at 0x400"));
}

TEST_CASE("protocol: dram_controller reports an END_RESP for a response not in flight", "[mem][protocol]") {
  MiniPlatform pf;
  auto& d = pf.create<DramController>("dram_controller", "hbm", {{"channels", 1}});
  Payload r(tlm::TLM_READ_COMMAND, 0x400, 64);
  Probe probe("probe", [&](Probe& p) { p.send_phase(r, tlm::END_RESP); });
  probe.socket.bind(*d.target_socket("in", -1));
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("hbm") && Catch::Contains("protocol violation: END_RESP "
                                                                                     "for a response not in flight"));
}

TEST_CASE("protocol: sockets are found by their netlist names and nothing else", "[mem][protocol]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar", {{"address_map", protocol_test_map()}}, {{"in", 2}, {"out", 1}});
  REQUIRE(mem.target_socket("in", -1) == &mem.in);
  REQUIRE(mem.target_socket("in", 0) == nullptr);
  REQUIRE(mem.target_socket("out", -1) == nullptr);
  REQUIRE(xbar.target_socket("in", 1) == xbar.in[1].get());
  REQUIRE(xbar.target_socket("in", 2) == nullptr);
  REQUIRE(xbar.target_socket("in", -1) == nullptr);
  REQUIRE(xbar.initiator_socket("out", 0) == xbar.out[0].get());
  REQUIRE(xbar.initiator_socket("in", 0) == nullptr);
}

namespace {
// A target that answers every BEGIN_REQ with END_RESP on the backward path, a
// phase no target may send.
class BackwardsTarget : public sc_core::sc_module {
 public:
  explicit BackwardsTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
    socket.register_nb_transport_fw(this, &BackwardsTarget::nb_transport_fw);
  }
  tlm_utils::simple_target_socket<BackwardsTarget> socket;

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::BEGIN_REQ) {
      tlm::tlm_phase wrong = tlm::END_RESP;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      socket->nb_transport_bw(t, wrong, d);
    }
    return tlm::TLM_ACCEPTED;
  }
};
}  // namespace

TEST_CASE("protocol: router reports a target sending END_RESP on its backward path", "[noc][protocol]") {
  MiniPlatform pf;
  auto& router = pf.create<Router>("router", "fabric", {{"address_map", protocol_test_map()}}, {{"in", 1}, {"out", 1}});
  BackwardsTarget target("target");
  Payload r(tlm::TLM_READ_COMMAND, 0x500, 64);
  Probe probe("probe", [&](Probe& p) { p.begin_req(r); });
  probe.socket.bind(*router.target_socket("in", 0));
  router.initiator_socket("out", 0)->bind(target.socket);
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("fabric") && Catch::Contains("protocol violation: unexpected phase END_RESP on "
                                                                   "out[0] for read of 64 bytes at 0x500"));
}

TEST_CASE("protocol: crossbar reports a target sending END_RESP on its backward path", "[noc][protocol]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>("crossbar", "fabric", {{"address_map", protocol_test_map()}}, {{"in", 1}, {"out", 1}});
  BackwardsTarget target("target");
  Payload r(tlm::TLM_READ_COMMAND, 0x600, 64);
  Probe probe("probe", [&](Probe& p) { p.begin_req(r); });
  probe.socket.bind(*xbar.target_socket("in", 0));
  xbar.initiator_socket("out", 0)->bind(target.socket);
  REQUIRE_THROWS_WITH(sc_core::sc_start(), Catch::Contains("protocol violation: unexpected phase END_RESP on out[0]"));
}

TEST_CASE("protocol: dram_controller reports a requester that asked for early responses and did not complete one",
          "[mem][protocol]") {
  MiniPlatform pf;
  auto& d = pf.create<DramController>("dram_controller", "hbm", {{"channels", 1}});
  Payload r(tlm::TLM_READ_COMMAND, 0x700, 64);
  take_early_responses({&r});
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;  // answers BEGIN_RESP with TLM_ACCEPTED: not what it asked for
    p.begin_req(r);
  });
  probe.socket.bind(*d.target_socket("in", -1));
  REQUIRE_THROWS_WITH(sc_core::sc_start(),
                      Catch::Contains("hbm") && Catch::Contains("protocol violation: a requester asking for early "
                                                                "responses did not complete BEGIN_RESP"));
}
