// crossbar: per-port link bandwidth, pipeline latency, finite buffers and the
// contention they cause. The platform clock is 1 GHz (1 cycle = 1 ns).
#include "models/noc/crossbar.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>

#include "mem_test_support.h"
#include "common/device_memory.h"
#include "models/mem/dram_controller.h"
#include "models/mem/memory.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
// Port 0 serves [0, 64 KiB), port 1 serves [64 KiB, 128 KiB).
json two_port_map() {
  return json::parse(R"([{"base": 0, "size": "64 KiB", "ports": [0]}, {"base": "64 KiB", "size": "64 KiB", "ports": [1]}])");
}
json xbar_params(json extra) {
  json p = {{"address_map", two_port_map()}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}
// Binds the probe to in[0] and the memories to out[0] and out[1], and runs
// the simulation to its end.
void run_with_two_memories(Probe& probe, Crossbar& xbar, Memory& m0, Memory& m1) {
  probe.socket.bind(*xbar.in[0]);
  xbar.out[0]->bind(m0.in);
  xbar.out[1]->bind(m1.in);
  sc_core::sc_start();
}

}  // namespace

TEST_CASE("crossbar: an uncontended request and response each cost input link + latency + output link",
          "[noc][crossbar]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar", xbar_params({{"in_width", 32}, {"out_width", 32}, {"latency", 2}}),
                                   {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params());
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params());
  Payload r(tlm::TLM_READ_COMMAND, 0x40, 64), w(tlm::TLM_WRITE_COMMAND, 0x10040, 64);
  Payload lt(tlm::TLM_READ_COMMAND, 0x80, 64);
  sc_time lt_delay;
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(r);
    p.wait_for(r, tlm::BEGIN_RESP);
    wait(ns(100) - sc_core::sc_time_stamp());
    p.begin_req(w);
    p.wait_for(w, tlm::BEGIN_RESP);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(lt, d);
    lt_delay = d;
  });
  run_with_two_memories(probe, xbar, m0, m1);

  // Read: a header-only request takes 1 cycle per link: END_REQ at 1, at the memory at 1 + 2 + 1 = 4;
  // the memory answers at 4 + 2.5 + 40 = 46.5; 64 data bytes take 2 cycles per link: 46.5 + 2 + 2 + 2.
  REQUIRE(probe.time_of(r, tlm::END_REQ) == ns(1));
  REQUIRE(probe.time_of(r, tlm::BEGIN_RESP) == ns(52.5));
  // Write at 100: the data crosses both links on the way in (2 + 2 + 2), the acknowledgement 1 + 2 + 1 back.
  REQUIRE(probe.time_of(w, tlm::END_REQ) == ns(102));
  REQUIRE(probe.time_of(w, tlm::BEGIN_RESP) == ns(100 + 6 + 42.5 + 4));
  // LT pays the same uncontended costs.
  REQUIRE(lt_delay == ns(52.5));
  REQUIRE(pf.stat("xbar.in[0]", "req_bytes") == 64 + 0);  // AT write data (LT counted below)
  REQUIRE(pf.stat("xbar.out[0]", "resp_bytes") == 64 + 64);
  REQUIRE(pf.stat("xbar.out[0]", "resp_busy_cycles") == 2);  // AT only: LT does not occupy the links
  REQUIRE(pf.stat("xbar.out[1]", "req_busy_cycles") == 2);
  REQUIRE(pf.stat("xbar", "forwarded") == 3);
}

TEST_CASE("crossbar: two inputs sharing one output each get half the throughput of an input alone",
          "[noc][crossbar]") {
  MiniPlatform pf;
  // Inputs are wide (64 B/cycle); outputs carry 32 B/cycle, so a 64 B response holds an output 2 cycles.
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar", xbar_params({{"in_width", 64}, {"out_width", 32}, {"latency", 1}}),
                                   {{"in", 3}, {"out", 2}});
  // Fast memories with deep queues: the crossbar's outputs are the bottleneck.
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"latency", "10 ns"}, {"bandwidth", "1 TB/s"}, {"queue_depth", 64}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params({{"latency", "10 ns"}, {"bandwidth", "1 TB/s"}, {"queue_depth", 64}}));
  constexpr int kReads = 200;
  std::vector<std::vector<std::unique_ptr<Payload>>> reads(3);
  std::vector<std::unique_ptr<Probe>> probes;
  for (int i = 0; i < 3; ++i) {
    const uint64_t base = i < 2 ? 0 : 0x10000;  // inputs 0 and 1 share output 0; input 2 has output 1
    for (int k = 0; k < kReads; ++k)
      reads[i].push_back(std::make_unique<Payload>(tlm::TLM_READ_COMMAND, base + 64 * (k % 256), 64));
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [&, i](Probe& p) {
      for (auto& t : reads[i]) {
        p.begin_req(*t);
        p.wait_for(*t, tlm::END_REQ);
      }
    }));
    probes.back()->socket.bind(*xbar.in[i]);
  }
  xbar.out[0]->bind(m0.in);
  xbar.out[1]->bind(m1.in);
  sc_core::sc_start();

  std::vector<std::vector<sc_time>> at(3);
  for (int i = 0; i < 3; ++i)
    for (auto& t : reads[i]) at[i].push_back(probes[i]->time_of(*t, tlm::BEGIN_RESP));
  // In steady state the shared output sends a response every 2 cycles, alternating between its two
  // inputs: each sees one every 4 ns; the input alone sees one every 2 ns.
  for (int k = 10; k < kReads - 10; ++k) {
    INFO("response " << k);
    REQUIRE(at[0][k + 1] - at[0][k] == ns(4));
    REQUIRE(at[1][k + 1] - at[1][k] == ns(4));
    REQUIRE(at[2][k + 1] - at[2][k] == ns(2));
  }
  const double alone = kReads * 64 / at[2].back().to_seconds();
  const double shared = kReads * 64 / at[0].back().to_seconds();
  INFO("alone " << alone / 1e9 << " GB/s, shared " << shared / 1e9 << " GB/s");
  REQUIRE(shared / alone == Approx(0.5).margin(0.03));
  REQUIRE(pf.stat("xbar.out[0]", "resp_busy_cycles") == 2 * 2 * kReads);
  REQUIRE(pf.stat("xbar.out[1]", "resp_busy_cycles") == 2 * kReads);
  REQUIRE(pf.stat("xbar.out[0]", "resp_bytes") == 2 * 64 * kReads);
  REQUIRE(pf.stat("xbar", "request_stalls") > 0);
}

TEST_CASE("crossbar: a full output buffer withholds END_REQ from the initiator", "[noc][crossbar]") {
  MiniPlatform pf;
  // Unlimited links and no latency: only the buffers matter.
  auto& xbar = pf.create<Crossbar>(
      "crossbar", "xbar", xbar_params({{"in_width", 0}, {"out_width", 0}, {"latency", 0}, {"queue_depth", 1}}),
      {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"queue_depth", 1}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params());
  Payload a(tlm::TLM_READ_COMMAND, 0, 64), b(tlm::TLM_READ_COMMAND, 64, 64), c(tlm::TLM_READ_COMMAND, 128, 64);
  std::vector<tlm::tlm_sync_enum> answers;
  Probe probe("probe", [&](Probe& p) {
    for (Payload* t : {&a, &b, &c}) {
      answers.push_back(p.begin_req(*t));
      p.wait_for(*t, tlm::END_REQ);
    }
  });
  run_with_two_memories(probe, xbar, m0, m1);

  // A goes straight into the memory. B fills the one-entry buffer, waiting for the memory's
  // only queue entry. C finds the buffer full: its END_REQ waits until A's response (42.5 ns)
  // frees the memory, which takes B, which frees the buffer.
  REQUIRE(probe.time_of(a, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(b, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(c, tlm::END_REQ) == ns(42.5));
  // A found room and was admitted inside nb_transport_fw (END_REQ on the return path). B came
  // in the same instant, before A had left the buffer, and C to a full buffer: both waited.
  REQUIRE(answers == std::vector<tlm::tlm_sync_enum>{tlm::TLM_UPDATED, tlm::TLM_ACCEPTED, tlm::TLM_ACCEPTED});
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(42.5));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(85));
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(127.5));
  REQUIRE(pf.stat("xbar", "request_stalls") == 1);
  REQUIRE(pf.stat("xbar.out[0]", "stalls") == 1);
}

TEST_CASE("crossbar: a full input response buffer withholds END_RESP from the target", "[noc][crossbar]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>(
      "crossbar", "xbar",
      xbar_params({{"in_width", 0}, {"out_width", 0}, {"latency", 0}, {"response_queue_depth", 1}}),
      {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params());
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params());
  // Two reads to different memories finish together; the initiator holds the first response 20 ns.
  Payload a(tlm::TLM_READ_COMMAND, 0, 64), b(tlm::TLM_READ_COMMAND, 0x10000, 64);
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
  run_with_two_memories(probe, xbar, m0, m1);

  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(42.5));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(62.5));
  REQUIRE(pf.stat("xbar", "response_stalls") == 1);
  REQUIRE(pf.stat("xbar.in[0]", "stalls") == 1);
  REQUIRE(pf.stat("m1", "reads") == 1);
}

TEST_CASE("crossbar: an initiator taking early responses gets them when taken and its buffer place frees on time",
          "[noc][crossbar]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>(
      "crossbar", "xbar",
      xbar_params({{"in_width", 32}, {"out_width", 32}, {"latency", 2}, {"response_queue_depth", 1}}),
      {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params());
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params());
  Payload a(tlm::TLM_READ_COMMAND, 0x40, 64), b(tlm::TLM_READ_COMMAND, 0x10040, 64);
  take_early_responses({&a, &b});
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(a);
    p.begin_req(b);
    p.wait_for(b, tlm::BEGIN_RESP);
  });
  run_with_two_memories(probe, xbar, m0, m1);

  // A as in the uncontended case: m0 answers at 46.5, then 2 + 2 + 2 cycles back: 52.5. The
  // crossbar sends A's BEGIN_RESP when it takes it from m0, annotated with that time.
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(52.5));
  REQUIRE(probe.sent_at(a, tlm::BEGIN_RESP) == ns(46.5));
  // B crossed the input link behind A (1..2), reached m1 at 5, which answers at 47.5. The one
  // response place is A's until A starts across the input link at 50.5, as if A had been sent
  // then: B is taken at 50.5, 2 + 2 cycles to the input link, which is free: 54.5 + 2 = 56.5.
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(56.5));
  REQUIRE(pf.stat("xbar", "response_stalls") == 1);
  REQUIRE(pf.stat("xbar.in[0]", "resp_busy_cycles") == 4);
}

TEST_CASE("crossbar: unmapped addresses get an address error and DMI and debug are forwarded", "[noc][crossbar]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar", xbar_params({}), {{"in", 1}, {"out", 2}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"store", "s"}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params({{"store", "s"}}));
  Payload bad(tlm::TLM_READ_COMMAND, 0x40000, 4);
  tlm::tlm_sync_enum bad_return = tlm::TLM_ACCEPTED;
  bool granted = false;
  tlm::tlm_dmi dmi;
  unsigned dbg = 0;
  Probe probe("probe", [&](Probe& p) {
    bad_return = p.begin_req(bad);
    Payload d(tlm::TLM_READ_COMMAND, 0x10010, 4);
    granted = p.socket->get_direct_mem_ptr(d, dmi);
    Payload w(tlm::TLM_WRITE_COMMAND, 0xFFF0, 32);  // spans both outputs
    for (int k = 0; k < 32; ++k) w.buffer[k] = static_cast<uint8_t>(k + 1);
    dbg = p.socket->transport_dbg(w);
  });
  run_with_two_memories(probe, xbar, m0, m1);

  REQUIRE(bad_return == tlm::TLM_COMPLETED);
  REQUIRE(bad.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  REQUIRE(pf.stat("xbar", "decode_errors") == 1);
  REQUIRE(granted);
  REQUIRE(dmi.get_start_address() == 0x10000);
  REQUIRE(dmi.get_end_address() == 0x1FFFF);
  REQUIRE(dmi.get_read_latency() == ns(40 + 2));
  REQUIRE(dbg == 32);
  uint8_t back[32];
  pf.shared.get<BackingStore>("s").read(0xFFF0, back, 32);
  for (int k = 0; k < 32; ++k) REQUIRE(back[k] == k + 1);
}

TEST_CASE("crossbar: two DRAM controllers behind an interleaved crossbar stream real data near their bandwidth",
          "[noc][crossbar][dram]") {
  MiniPlatform pf;
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  constexpr unsigned kLines = 1024, kLen = 128;
  const uint64_t base = dev.alloc(2 * kLines * kLen);
  std::vector<uint8_t> fill(2 * kLines * kLen);
  for (size_t k = 0; k < fill.size(); ++k) fill[k] = static_cast<uint8_t>(k * 31 + (k >> 10));
  dev.write(base, fill.data(), fill.size());
  // 4 KiB chunks alternate between the controllers; each has 2 channels of 32 GB/s (128 GB/s in all),
  // and the crossbar's outputs carry 128 B per cycle, so the DRAM is the bottleneck.
  json map = json::array({{{"base", "0x100000000"}, {"size", "1 GiB"}, {"ports", {0, 1}}, {"interleave", "4 KiB"}}});
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar",
                                   {{"address_map", map}, {"in_width", 128}, {"out_width", 128}, {"latency", 2},
                                    {"queue_depth", 8}, {"response_queue_depth", 8}},
                                   {{"in", 2}, {"out", 2}});
  auto& d0 = pf.create<DramController>("dram_controller", "hbm0", {{"channels", 2}});
  auto& d1 = pf.create<DramController>("dram_controller", "hbm1", {{"channels", 2}});
  std::vector<std::vector<std::unique_ptr<Payload>>> reads(2);
  std::vector<std::unique_ptr<Probe>> probes;
  for (int i = 0; i < 2; ++i) {
    for (unsigned k = 0; k < kLines; ++k)
      reads[i].push_back(
          std::make_unique<Payload>(tlm::TLM_READ_COMMAND, base + (static_cast<uint64_t>(i) * kLines + k) * kLen, kLen));
    probes.push_back(std::make_unique<Probe>(("p" + std::to_string(i)).c_str(), [&, i](Probe& p) {
      for (auto& t : reads[i]) {
        p.begin_req(*t);
        p.wait_for(*t, tlm::END_REQ);
      }
    }));
    probes.back()->socket.bind(*xbar.in[i]);
  }
  xbar.out[0]->bind(d0.in);
  xbar.out[1]->bind(d1.in);
  sc_core::sc_start();

  sc_time last = SC_ZERO_TIME;
  bool data_ok = true;
  for (int i = 0; i < 2; ++i)
    for (unsigned k = 0; k < kLines; ++k) {
      last = std::max(last, probes[i]->time_of(*reads[i][k], tlm::BEGIN_RESP));
      data_ok &= std::memcmp(reads[i][k]->buffer.data(), fill.data() + (static_cast<uint64_t>(i) * kLines + k) * kLen, kLen) == 0;
    }
  REQUIRE(data_ok);
  const double achieved = 2.0 * kLines * kLen / last.to_seconds();
  INFO("achieved " << achieved / 1e9 << " GB/s of 128 GB/s in " << last);
  REQUIRE(achieved <= 128e9);
  REQUIRE(achieved >= 0.85 * 128e9);
  REQUIRE(pf.stat("hbm0", "reads") == kLines);
  REQUIRE(pf.stat("hbm1", "reads") == kLines);
}

namespace {
// A chiplet's crossbar (chiplet 1) placing 4 KiB pages by first touch: out[0]
// and out[1] its own L2 side (128 B interleave), out[2] into the chiplet network.
json first_touch_params(json extra = json::object()) {
  json p = {{"address_map", json::parse(R"([{"base": 0, "size": "1 MiB", "interleave": 128, "ports": [0, 1]}])")},
            {"first_touch_page", "4 KiB"},
            {"chiplet", 1},
            {"remote_outputs", 1}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}
}  // namespace

TEST_CASE("crossbar: first-touch placement keeps its chiplet's pages and sends other chiplets' into the network",
          "[noc][crossbar]") {
  MiniPlatform pf;
  auto& xbar = pf.create<Crossbar>("crossbar", "xbar", first_touch_params(), {{"in", 1}, {"out", 3}});
  auto& m0 = pf.create<Memory>("memory", "m0", memory_params({{"store", "local"}}));
  auto& m1 = pf.create<Memory>("memory", "m1", memory_params({{"store", "local"}}));
  auto& net = pf.create<Memory>("memory", "net", memory_params({{"store", "remote"}}));
  PageHomes& homes = pf.shared.get<PageHomes>(kPageHomesName, uint64_t{4096});
  homes.touch(0x0, 0);  // page 0: another chiplet's, touched first through the network's side
  const uint8_t mark = 0xAB;
  pf.shared.get<BackingStore>("remote").write(0x100, &mark, 1);
  Payload remote(tlm::TLM_READ_COMMAND, 0x80, 4), own(tlm::TLM_READ_COMMAND, 0x1080, 4);
  Payload dbg_remote(tlm::TLM_READ_COMMAND, 0x100, 1), dbg_untouched(tlm::TLM_READ_COMMAND, 0x2000, 4);
  Probe probe("probe", [&](Probe& p) {
    for (Payload* t : {&remote, &own}) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::BEGIN_RESP);
    }
    p.socket->transport_dbg(dbg_remote);
    p.socket->transport_dbg(dbg_untouched);
  });
  probe.socket.bind(*xbar.in[0]);
  xbar.out[0]->bind(m0.in);
  xbar.out[1]->bind(m1.in);
  xbar.out[2]->bind(net.in);
  sc_core::sc_start();

  REQUIRE(pf.stat("net", "reads") == 1);  // page 0's line went into the network
  REQUIRE(pf.stat("m1", "reads") == 1);   // page 1, untouched, is this chiplet's: the map's port (0x1080 / 128 odd)
  REQUIRE(pf.stat("m0", "reads") == 0);
  REQUIRE(homes.home_or(0x1000, 9) == 1);
  // Debug accesses follow the placement without placing a page.
  REQUIRE(dbg_remote.buffer[0] == 0xAB);
  REQUIRE(homes.home_or(0x2000, 9) == 9);
}

TEST_CASE("crossbar: first-touch placement's impossible configurations are clear errors", "[noc][crossbar]") {
  SECTION("no output into the network") {
    MiniPlatform pf;
    REQUIRE_THROWS_WITH(pf.create<Crossbar>("crossbar", "xbar", first_touch_params({{"remote_outputs", 0}}),
                                            {{"in", 1}, {"out", 3}}),
                        Catch::Contains("xbar") && Catch::Contains("remote_outputs between 1 and 2"));
  }
  SECTION("the address map naming a network output") {
    MiniPlatform pf;
    json map = json::parse(R"([{"base": 0, "size": "1 MiB", "interleave": 128, "ports": [0, 2]}])");
    REQUIRE_THROWS_WITH(pf.create<Crossbar>("crossbar", "xbar", first_touch_params({{"address_map", map}}),
                                            {{"in", 1}, {"out", 3}}),
                        Catch::Contains("out[2]") && Catch::Contains("remote_outputs"));
  }
  SECTION("a page size other than the shared table's") {
    MiniPlatform pf;
    pf.shared.get<PageHomes>(kPageHomesName, uint64_t{65536});
    REQUIRE_THROWS_WITH(pf.create<Crossbar>("crossbar", "xbar", first_touch_params(), {{"in", 1}, {"out", 3}}),
                        Catch::Contains("4096 B differs from the 65536 B"));
  }
}
