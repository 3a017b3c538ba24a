#include "models/mem/memory.h"

#include <catch2/catch.hpp>
#include <cstring>

#include "mem_test_support.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

TEST_CASE("memory: LT access costs exactly latency + size/bandwidth and moves real data", "[mem][memory]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  sc_time write_delay, read_delay;
  std::vector<uint8_t> read_back;
  Probe probe("probe", [&](Probe& p) {
    Payload w(tlm::TLM_WRITE_COMMAND, 0x100, 64);
    for (int i = 0; i < 64; ++i) w.buffer[i] = static_cast<uint8_t>(i + 1);
    sc_time d = sc_core::sc_time(5, sc_core::SC_NS);  // an initiator's local time offset is kept
    p.socket->b_transport(w, d);
    write_delay = d;
    CHECK(w.get_response_status() == tlm::TLM_OK_RESPONSE);
    Payload r(tlm::TLM_READ_COMMAND, 0x100, 256);
    d = SC_ZERO_TIME;
    p.socket->b_transport(r, d);
    read_delay = d;
    CHECK(r.get_response_status() == tlm::TLM_OK_RESPONSE);
    read_back = r.buffer;
  });
  probe.socket.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(write_delay == ns(5 + 40 + 2.5));
  REQUIRE(read_delay == ns(40 + 10));
  REQUIRE(read_back.size() == 256);
  for (int i = 0; i < 64; ++i) REQUIRE(read_back[i] == i + 1);
  for (int i = 64; i < 256; ++i) REQUIRE(read_back[i] == 0);
  REQUIRE(pf.stat("mem0", "reads") == 1);
  REQUIRE(pf.stat("mem0", "writes") == 1);
  REQUIRE(pf.stat("mem0", "bytes_read") == 256);
  REQUIRE(pf.stat("mem0", "bytes_written") == 64);
  REQUIRE(pf.stat("mem0", "busy_ps") == 12500);
}

TEST_CASE("memory: out-of-range and malformed requests get one error status, not a crash", "[mem][memory]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params({{"base", "0x1000"}, {"size", "0x1000"}}));
  std::vector<tlm::tlm_response_status> lt, at;
  Probe probe("probe", [&](Probe& p) {
    auto lt_status = [&](Payload& t) {
      sc_time d = SC_ZERO_TIME;
      p.socket->b_transport(t, d);
      lt.push_back(t.get_response_status());
    };
    Payload last_bytes(tlm::TLM_READ_COMMAND, 0x1FC0, 64);  // ends exactly on the last byte
    lt_status(last_bytes);
    Payload past_end(tlm::TLM_READ_COMMAND, 0x1FC1, 64);
    lt_status(past_end);
    Payload below(tlm::TLM_WRITE_COMMAND, 0xFFF, 4);
    lt_status(below);
    Payload streaming(tlm::TLM_READ_COMMAND, 0x1000, 64);
    streaming.set_streaming_width(8);
    lt_status(streaming);
    Payload no_data(tlm::TLM_WRITE_COMMAND, 0x1000, 8);
    no_data.set_data_ptr(nullptr);
    lt_status(no_data);

    // AT: the error travels in the response, at the usual time.
    Payload far(tlm::TLM_READ_COMMAND, 0x9000, 64);
    p.begin_req(far);
    p.wait_for(far, tlm::BEGIN_RESP);
    at.push_back(far.get_response_status());
  });
  probe.socket.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(lt == std::vector<tlm::tlm_response_status>{tlm::TLM_OK_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                                                      tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
                                                      tlm::TLM_GENERIC_ERROR_RESPONSE});
  REQUIRE(at == std::vector<tlm::tlm_response_status>{tlm::TLM_ADDRESS_ERROR_RESPONSE});
  REQUIRE(pf.stat("mem0", "errors") == 5);
  REQUIRE(pf.stat("mem0", "reads") == 1);
}

TEST_CASE("memory: AT read responds after latency plus transfer time", "[mem][memory]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  pf.shared.get<BackingStore>("dram", 65536).fill(0x40, 0x77, 64);
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64);
  Probe probe("probe", [&](Probe& p) {
    wait(ns(3));
    CHECK(p.begin_req(r) == tlm::TLM_ACCEPTED);
  });
  probe.socket.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(r, tlm::END_REQ) == ns(3));
  REQUIRE(probe.time_of(r, tlm::BEGIN_RESP) == ns(3 + 2.5 + 40));
  REQUIRE(r.get_response_status() == tlm::TLM_OK_RESPONSE);
  for (uint8_t b : r.buffer) REQUIRE(b == 0x77);
}

TEST_CASE("memory: AT back-to-back requests are serialised by the bandwidth", "[mem][memory]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params());
  std::vector<std::unique_ptr<Payload>> reqs;
  for (int i = 0; i < 4; ++i) reqs.push_back(std::make_unique<Payload>(tlm::TLM_READ_COMMAND, 0x1000 * i, 256));
  Probe probe("probe", [&](Probe& p) {
    for (auto& r : reqs) {
      p.begin_req(*r);
      p.wait_for(*r, tlm::END_REQ);  // the base protocol: one request phase at a time
    }
  });
  probe.socket.bind(mem.in);
  sc_core::sc_start();

  // Each 256-byte transfer holds the channel 10 ns; latency overlaps.
  for (int i = 0; i < 4; ++i) {
    INFO("request " << i);
    REQUIRE(probe.time_of(*reqs[i], tlm::END_REQ) == SC_ZERO_TIME);
    REQUIRE(probe.time_of(*reqs[i], tlm::BEGIN_RESP) == ns(40 + 10 * (i + 1)));
  }
  REQUIRE(pf.stat("mem0", "busy_ps") == 40000);
}

TEST_CASE("memory: with queue depth 2 a third request waits for END_REQ until a response is taken",
          "[mem][memory]") {
  MiniPlatform pf;
  auto& mem = pf.create<Memory>("memory", "mem0", memory_params({{"queue_depth", 2}}));
  Payload a(tlm::TLM_READ_COMMAND, 0x000, 64), b(tlm::TLM_READ_COMMAND, 0x040, 64), c(tlm::TLM_WRITE_COMMAND, 0x080, 64);
  bool c_accepted_early = true;
  Probe probe("probe", [&](Probe& p) {
    p.hold_responses = true;
    p.begin_req(a);
    p.wait_for(a, tlm::END_REQ);
    p.begin_req(b);
    p.wait_for(b, tlm::END_REQ);
    p.begin_req(c);
    p.wait_for(a, tlm::BEGIN_RESP);
    wait(ns(100) - sc_core::sc_time_stamp());
    c_accepted_early = p.seen(c, tlm::END_REQ);
    p.end_resp(a);  // frees one queue entry at 100 ns
    p.wait_for(b, tlm::BEGIN_RESP);
    p.end_resp(b);
    p.wait_for(c, tlm::BEGIN_RESP);
    p.end_resp(c);
  });
  probe.socket.bind(mem.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(42.5));
  REQUIRE_FALSE(c_accepted_early);
  REQUIRE(probe.time_of(c, tlm::END_REQ) == ns(100));
  // B was ready at 45 ns but one response is in flight at a time: it follows A's END_RESP.
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(100));
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(100 + 2.5 + 40));
  REQUIRE(pf.stat("mem0", "writes") == 1);
  REQUIRE(pf.stat("mem0", "reads") == 2);
  const json occupancy = pf.stats.find("mem0")->to_json()["queue_occupancy"];
  // Two entries held from 0 to 100 ns (100000 ps in bucket 2).
  REQUIRE(occupancy["buckets"][2].get<uint64_t>() >= 100000);
}

TEST_CASE("memory: DMI and debug access reach the shared backing store", "[mem][memory]") {
  MiniPlatform pf;
  auto& m0 = pf.create<Memory>("memory", "mem0", memory_params({{"page_size", "4 KiB"}}));
  auto& m1 = pf.create<Memory>("memory", "mem1", memory_params({{"page_size", "4 KiB"}}));
  auto& other = pf.create<Memory>("memory", "mem2", memory_params({{"page_size", "4 KiB"}, {"store", "other"}}));
  tlm::tlm_dmi dmi, denied;
  bool granted = false, out_of_range_granted = true;
  std::vector<uint8_t> via_m1, via_other, via_dbg(4);
  unsigned dbg_count = 0, dbg_clipped = 0;
  Probe p0("p0", [&](Probe& p) {
    Payload t(tlm::TLM_READ_COMMAND, 0x1234, 4);
    granted = p.socket->get_direct_mem_ptr(t, dmi);
    if (!granted) return;
    std::memcpy(dmi.get_dmi_ptr() + (0x1234 - dmi.get_start_address()), "\x11\x22\x33\x44", 4);
    Payload far(tlm::TLM_READ_COMMAND, 0x200000, 4);
    out_of_range_granted = p.socket->get_direct_mem_ptr(far, denied);
    Payload dw(tlm::TLM_WRITE_COMMAND, 0x1300, 4);
    std::memcpy(dw.buffer.data(), "\xAA\xBB\xCC\xDD", 4);
    dbg_count = p.socket->transport_dbg(dw);
    Payload tail(tlm::TLM_READ_COMMAND, 0xFFFFE, 8);  // only 2 bytes lie inside the memory
    dbg_clipped = p.socket->transport_dbg(tail);
  });
  Probe p1("p1", [&](Probe& p) {
    wait(ns(1));
    Payload r(tlm::TLM_READ_COMMAND, 0x1234, 4);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(r, d);
    via_m1 = r.buffer;
    via_dbg.assign(dmi.get_dmi_ptr() + 0x300, dmi.get_dmi_ptr() + 0x304);
  });
  Probe p2("p2", [&](Probe& p) {
    wait(ns(1));
    Payload r(tlm::TLM_READ_COMMAND, 0x1234, 4);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(r, d);
    via_other = r.buffer;
  });
  p0.socket.bind(m0.in);
  p1.socket.bind(m1.in);
  p2.socket.bind(other.in);
  sc_core::sc_start();

  REQUIRE(granted);
  REQUIRE(dmi.get_start_address() == 0x1000);
  REQUIRE(dmi.get_end_address() == 0x1FFF);
  REQUIRE(dmi.is_read_write_allowed());
  REQUIRE(dmi.get_read_latency() == ns(40));
  REQUIRE_FALSE(out_of_range_granted);
  REQUIRE(denied.get_start_address() == 0x100000);  // the denial covers everything above the memory
  REQUIRE(via_m1 == std::vector<uint8_t>{0x11, 0x22, 0x33, 0x44});
  REQUIRE(via_other == std::vector<uint8_t>{0, 0, 0, 0});
  REQUIRE(dbg_count == 4);
  REQUIRE(via_dbg == std::vector<uint8_t>{0xAA, 0xBB, 0xCC, 0xDD});
  REQUIRE(dbg_clipped == 2);
}

TEST_CASE("memory: memories sharing a store must agree on its page size", "[mem][memory]") {
  MiniPlatform pf;
  pf.create<Memory>("memory", "mem0", memory_params({{"page_size", "4 KiB"}}));
  REQUIRE_THROWS_WITH(pf.create<Memory>("memory", "mem1", memory_params({{"page_size", "8 KiB"}})),
                      Catch::Contains("mem1") && Catch::Contains("page_size"));
  REQUIRE_THROWS_WITH(pf.create<Memory>("memory", "mem2", memory_params({{"base", "0xFFFFFFFFFFF80000"}, {"page_size", "4 KiB"}})),
                      Catch::Contains("mem2") && Catch::Contains("wraps"));
}
