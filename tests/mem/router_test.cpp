#include "models/noc/router.h"

#include <catch2/catch.hpp>
#include <cstring>

#include "mem_test_support.h"
#include "models/mem/memory.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
json two_way_map() {
  return json::parse(R"([
    {"base": 0, "size": 4096, "ports": [0, 1], "interleave": 256},
    {"base": "0x10000", "size": "64 KiB", "ports": [2]}
  ])");
}
uint8_t address_pattern(uint64_t addr) { return static_cast<uint8_t>(addr * 13 + (addr >> 8)); }
}  // namespace

TEST_CASE("router: a bad address map is a clear error naming the instance and the entry", "[noc][router]") {
  MiniPlatform pf;
  auto make = [&](const std::string& map_text) {
    pf.create("router", "fabric.xbar", {{"address_map", json::parse(map_text)}}, {{"in", 1}, {"out", 2}});
  };
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "size": 4096, "ports": [0]}, {"base": 4095, "size": 16, "ports": [1]}])"),
                      Catch::Contains("fabric.xbar") && Catch::Contains("address_map[1]") &&
                          Catch::Contains("overlaps address_map[0]"));
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "size": 4096, "ports": [2]}])"),
                      Catch::Contains("fabric.xbar") && Catch::Contains("address_map[0].ports[0]") &&
                          Catch::Contains("expected 0..1"));
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "size": 4096, "ports": [0, 1]}])"), Catch::Contains("interleave"));
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "size": 4096, "port": [0]}])"), Catch::Contains("unknown key \"port\""));
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "ports": [0]}])"), Catch::Contains("missing \"size\""));
  REQUIRE_THROWS_WITH(make(R"([{"base": 0, "size": 0, "ports": [0]}])"), Catch::Contains("at least 1 byte"));
  REQUIRE_THROWS_WITH(make(R"({"base": 0})"), Catch::Contains("expected an array"));
  REQUIRE_THROWS_WITH(make(R"([{"base": "12 parsecs", "size": 1, "ports": [0]}])"),
                      Catch::Contains("address_map[0].base"));
  REQUIRE_THROWS_WITH(
      pf.create("router", "r2", {{"address_map", json::parse(R"([{"base": 0, "size": 1, "ports": [0]}])")}},
                {{"in", 1}}),
      Catch::Contains("r2") && Catch::Contains("no out sockets"));
}

TEST_CASE("router: address map decoding with and without interleave", "[noc][router]") {
  AddressMap map = AddressMap::from_json(two_way_map(), 3, "test");
  REQUIRE(map.decode(0, 64) == 0);
  REQUIRE(map.decode(255, 1) == 0);
  REQUIRE(map.decode(256, 256) == 1);
  REQUIRE(map.decode(512, 4) == 0);
  REQUIRE(map.decode(4095, 1) == 1);
  REQUIRE(map.decode(250, 16) == -1);   // straddles two chunks
  REQUIRE(map.decode(4096, 4) == -1);   // gap
  REQUIRE(map.decode(0x10000, 65536) == 2);
  REQUIRE(map.decode(0x1FFFF, 2) == -1);  // runs past the end
  REQUIRE(map.decode(~uint64_t{0}, 2) == -1);
  REQUIRE(map.find(0x8000) == nullptr);
}

TEST_CASE("router: LT requests reach the port their address decodes to, unmapped ones get an address error",
          "[noc][router]") {
  MiniPlatform pf;
  auto& router = pf.create<Router>("router", "xbar", {{"address_map", two_way_map()}}, {{"in", 1}, {"out", 3}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"store", "s0"}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params({{"store", "s1"}}));
  auto& m2 = pf.create<Memory>("memory", "m2", memory_params({{"store", "s2"}}));
  sc_time write_delay;
  std::vector<tlm::tlm_response_status> errors;
  bool read_back_ok = true;
  Probe probe("probe", [&](Probe& p) {
    for (uint64_t a = 0; a < 1024; a += 64) {
      Payload w(tlm::TLM_WRITE_COMMAND, a, 64);
      for (uint64_t k = 0; k < 64; ++k) w.buffer[k] = address_pattern(a + k);
      sc_time d = SC_ZERO_TIME;
      p.socket->b_transport(w, d);
      write_delay = d;
    }
    Payload far(tlm::TLM_WRITE_COMMAND, 0x10010, 4);
    std::memcpy(far.buffer.data(), "\x01\x02\x03\x04", 4);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(far, d);
    for (uint64_t a = 0; a < 1024; a += 128) {
      Payload r(tlm::TLM_READ_COMMAND, a + 64, 64);
      d = SC_ZERO_TIME;
      p.socket->b_transport(r, d);
      for (uint64_t k = 0; k < 64; ++k) read_back_ok &= r.buffer[k] == address_pattern(a + 64 + k);
    }
    for (auto [addr, len] : {std::pair<uint64_t, unsigned>{0x8000, 4}, {0xF0, 32}, {0x1FFFE, 4}}) {
      Payload bad(tlm::TLM_READ_COMMAND, addr, len);
      d = SC_ZERO_TIME;
      p.socket->b_transport(bad, d);
      errors.push_back(bad.get_response_status());
    }
  });
  probe.socket.bind(*router.in[0]);
  router.out[0]->bind(m0.in);
  router.out[1]->bind(m1.in);
  router.out[2]->bind(m2.in);
  sc_core::sc_start();

  // Every block's sockets sit inside it, and blocks built later are not nested in earlier ones.
  REQUIRE(std::string(router.in[0]->name()) == "xbar.in_0");
  REQUIRE(std::string(router.out[2]->name()) == "xbar.out_2");
  REQUIRE(std::string(m2.in.name()) == "m2.in");
  REQUIRE(std::string(m2.name()) == "m2");
  REQUIRE(write_delay == ns(1 + 40 + 2.5 + 1));  // router latency each way
  REQUIRE(read_back_ok);
  // Chunks 0 and 2 of 256 bytes went to m0, chunks 1 and 3 to m1.
  std::vector<uint8_t> s0(1024), s1(1024);
  pf.shared.get<BackingStore>("s0").read(0, s0.data(), 1024);
  pf.shared.get<BackingStore>("s1").read(0, s1.data(), 1024);
  for (uint64_t a = 0; a < 1024; ++a) {
    const bool even_chunk = (a / 256) % 2 == 0;
    INFO("address " << a);
    REQUIRE(s0[a] == (even_chunk ? address_pattern(a) : 0));
    REQUIRE(s1[a] == (even_chunk ? 0 : address_pattern(a)));
  }
  uint8_t far[4];
  pf.shared.get<BackingStore>("s2").read(0x10010, far, 4);
  REQUIRE(far[3] == 4);
  REQUIRE(errors == std::vector<tlm::tlm_response_status>(3, tlm::TLM_ADDRESS_ERROR_RESPONSE));
  REQUIRE(pf.stat("xbar", "decode_errors") == 3);
  REQUIRE(pf.stat("xbar", "forwarded") == 16 + 1 + 8);
  REQUIRE(pf.stat("m0", "writes") == 8);
  REQUIRE(pf.stat("m1", "writes") == 8);
  REQUIRE(pf.stat("m2", "writes") == 1);
}

TEST_CASE("router: AT responses go back to the initiator that sent the request, back-pressure passes through",
          "[noc][router]") {
  MiniPlatform pf;
  auto& router = pf.create<Router>("router", "xbar", {{"address_map", two_way_map()}}, {{"in", 2}, {"out", 3}});
  std::vector<Memory*> mems;
  const json params = memory_params({{"store", "dram"}, {"queue_depth", 1}});
  for (int i = 0; i < 3; ++i)
    mems.push_back(&pf.create<Memory>("memory", "m" + std::to_string(i), params));
  auto& store = pf.shared.get<BackingStore>("dram", 65536);
  store.fill(0x10000, 0xA0, 64);
  store.fill(0x10040, 0xB1, 64);
  Payload a(tlm::TLM_READ_COMMAND, 0x10000, 64), b(tlm::TLM_READ_COMMAND, 0x10040, 64);
  Payload unmapped(tlm::TLM_READ_COMMAND, 0x9000, 64);
  tlm::tlm_sync_enum unmapped_return = tlm::TLM_ACCEPTED;
  Probe p0("p0", [&](Probe& p) { p.begin_req(a); });
  Probe p1("p1", [&](Probe& p) {
    p.begin_req(b);
    p.wait_for(b, tlm::BEGIN_RESP);
    unmapped_return = p.begin_req(unmapped);
  });
  p0.socket.bind(*router.in[0]);
  p1.socket.bind(*router.in[1]);
  for (int i = 0; i < 3; ++i) router.out[i]->bind(mems[i]->in);
  sc_core::sc_start();

  // A reaches the memory at 1 ns (router latency) and is accepted; B must wait
  // for the output's END_REQ, then for the memory's only queue entry.
  REQUIRE(p0.time_of(a, tlm::END_REQ) == ns(1));
  REQUIRE(p0.time_of(a, tlm::BEGIN_RESP) == ns(1 + 2.5 + 40 + 1));
  REQUIRE(p1.time_of(b, tlm::END_REQ) == ns(43.5));  // A's response taken at 43.5 ns frees the entry
  REQUIRE(p1.time_of(b, tlm::BEGIN_RESP) == ns(43.5 + 2.5 + 40 + 1));
  REQUIRE(p0.time_of(b, tlm::BEGIN_RESP) == sc_core::sc_max_time());  // never seen by the other initiator
  REQUIRE(p1.time_of(a, tlm::BEGIN_RESP) == sc_core::sc_max_time());
  for (uint8_t v : a.buffer) REQUIRE(v == 0xA0);
  for (uint8_t v : b.buffer) REQUIRE(v == 0xB1);
  REQUIRE(a.get_response_status() == tlm::TLM_OK_RESPONSE);
  REQUIRE(unmapped_return == tlm::TLM_COMPLETED);
  REQUIRE(unmapped.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  REQUIRE(pf.stat("xbar", "decode_errors") == 1);
  REQUIRE(pf.stat("xbar", "request_waits") == 1);
}

TEST_CASE("router: the response path holds a second response until the input takes the first", "[noc][router]") {
  MiniPlatform pf;
  auto& router = pf.create<Router>("router", "xbar", {{"address_map", two_way_map()}, {"latency", 0}},
                                   {{"in", 1}, {"out", 3}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"store", "dram"}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params({{"store", "dram"}}));
  auto& m2 = pf.create<Memory>("memory", "m2", memory_params({{"store", "dram"}}));
  // Two reads to different memories finish at the same time; the initiator holds the first response.
  Payload a(tlm::TLM_READ_COMMAND, 0, 64), b(tlm::TLM_READ_COMMAND, 256, 64);
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;
    p.begin_req(a);
    p.wait_for(a, tlm::END_REQ);
    p.begin_req(b);
    p.wait_for(a, tlm::BEGIN_RESP);
    wait(ns(20));
    p.end_resp(a);
    p.wait_for(b, tlm::BEGIN_RESP);
    p.end_resp(b);
  });
  probe.socket.bind(*router.in[0]);
  router.out[0]->bind(m0.in);
  router.out[1]->bind(m1.in);
  router.out[2]->bind(m2.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(42.5));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(62.5));  // held until A's END_RESP
  REQUIRE(pf.stat("xbar", "response_waits") == 1);
  REQUIRE(pf.stat("m0", "reads") == 1);
  REQUIRE(pf.stat("m1", "reads") == 1);
}

TEST_CASE("router: DMI is forwarded for single-port ranges only, and debug access spans interleave chunks",
          "[noc][router]") {
  MiniPlatform pf;
  auto& router = pf.create<Router>("router", "xbar", {{"address_map", two_way_map()}}, {{"in", 1}, {"out", 3}});
  std::vector<Memory*> mems;
  const json params = memory_params({{"store", "dram"}, {"page_size", "1 MiB"}});
  for (int i = 0; i < 3; ++i)
    mems.push_back(&pf.create<Memory>("memory", "m" + std::to_string(i), params));
  tlm::tlm_dmi granted_dmi, denied_dmi;
  bool granted = false, denied = true;
  std::vector<uint8_t> via_lt(4);
  unsigned dbg_written = 0, dbg_read = 0;
  std::vector<uint8_t> dbg_data(1024), dbg_back(1024);
  Probe probe("probe", [&](Probe& p) {
    Payload t(tlm::TLM_READ_COMMAND, 0x10010, 4);
    granted = p.socket->get_direct_mem_ptr(t, granted_dmi);
    if (granted) std::memcpy(granted_dmi.get_dmi_ptr() + 0x10, "\x0A\x0B\x0C\x0D", 4);
    Payload r(tlm::TLM_READ_COMMAND, 0x10010, 4);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(r, d);
    via_lt = r.buffer;
    Payload inter(tlm::TLM_READ_COMMAND, 0x310, 4);
    denied = p.socket->get_direct_mem_ptr(inter, denied_dmi);

    for (size_t k = 0; k < dbg_data.size(); ++k) dbg_data[k] = address_pattern(k + 5);
    Payload dw(tlm::TLM_WRITE_COMMAND, 100, 1024);
    dw.buffer = dbg_data;
    dw.set_data_ptr(dw.buffer.data());
    dbg_written = p.socket->transport_dbg(dw);
    Payload dr(tlm::TLM_READ_COMMAND, 100, 1024);
    dbg_read = p.socket->transport_dbg(dr);
    dbg_back = dr.buffer;
  });
  probe.socket.bind(*router.in[0]);
  for (int i = 0; i < 3; ++i) router.out[i]->bind(mems[i]->in);
  sc_core::sc_start();

  REQUIRE(granted);
  REQUIRE(granted_dmi.get_start_address() == 0x10000);  // the page is 1 MiB; the range only 64 KiB
  REQUIRE(granted_dmi.get_end_address() == 0x1FFFF);
  REQUIRE(granted_dmi.get_read_latency() == ns(42));
  REQUIRE(via_lt == std::vector<uint8_t>{0x0A, 0x0B, 0x0C, 0x0D});
  REQUIRE_FALSE(denied);
  REQUIRE(denied_dmi.get_start_address() == 0x300);
  REQUIRE(denied_dmi.get_end_address() == 0x3FF);
  REQUIRE(dbg_written == 1024);
  REQUIRE(dbg_read == 1024);
  REQUIRE(dbg_back == dbg_data);
  REQUIRE(pf.stat("xbar", "dmi_grants") == 1);
}
