// dram_controller: command timing of row hits, misses and conflicts, FCFS
// against FR-FCFS, a saturating stream, back-pressure, and the data it moves
// (device memory, byte enables, atomics).
//
// Unless a test says otherwise: 32 B bursts on a 32 GB/s channel take 1 ns
// each, so a 64 B request holds the data bus 2 ns (T = 2 ns); tCL = tRCD = tRP
// = 14 ns, tRAS = 33 ns, controller latency 4 ns. Device memory allocations
// start at 4 GiB; with one channel, 16 banks and 1 KiB rows interleaved per
// 1 KiB, the first allocation's first KiB is bank 0 and 16 KiB further on is
// another row of bank 0.
#include "models/mem/dram_controller.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>

#include "mem_test_support.h"
#include "common/device_memory.h"
#include "models/mem/gpu_access.h"

using namespace tessera;
using namespace tessera::test;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {
json dram_params(json extra = json::object()) {
  json p = {{"channels", 1}, {"banks", 16}, {"row_size", "1 KiB"}, {"bank_interleave", "1 KiB"},
            {"burst_size", "32 B"}, {"bandwidth", "32 GB/s"}, {"tCL", "14 ns"}, {"tRCD", "14 ns"},
            {"tRP", "14 ns"}, {"tRAS", "33 ns"}, {"controller_latency", "4 ns"}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}
uint8_t dram_pattern(uint64_t addr) { return static_cast<uint8_t>(addr * 29 + (addr >> 9)); }
constexpr uint64_t kRow = 16 * 1024;  // same bank, next row (one channel, 16 banks of 1 KiB chunks)
}  // namespace

TEST_CASE("dram: address mapping interleaves channels then banks then rows", "[mem][dram]") {
  MiniPlatform pf;
  auto& d = pf.create<DramController>("dram_controller", "hbm",
                                      dram_params({{"channels", 4}, {"banks", 4}, {"channel_interleave", "256 B"},
                                                   {"bank_interleave", "512 B"}, {"row_size", "1 KiB"}}));
  auto at = [&](uint64_t a) {
    auto l = d.locate(a);
    return std::vector<uint64_t>{l.channel, l.bank, l.row};
  };
  REQUIRE(at(0) == std::vector<uint64_t>{0, 0, 0});
  REQUIRE(at(255) == std::vector<uint64_t>{0, 0, 0});
  REQUIRE(at(256) == std::vector<uint64_t>{1, 0, 0});
  REQUIRE(at(1024) == std::vector<uint64_t>{0, 0, 0});  // channel 0's bytes 256..511
  REQUIRE(at(2048) == std::vector<uint64_t>{0, 1, 0});  // channel 0's byte 512: the next bank
  REQUIRE(at(4 * 2048) == std::vector<uint64_t>{0, 0, 0});   // channel byte 2048: bank 0's bytes 512..1023
  REQUIRE(at(8 * 2048) == std::vector<uint64_t>{0, 0, 1});   // bank 0's byte 1024: its next row
  REQUIRE(at(8 * 2048 + 3 * 256) == std::vector<uint64_t>{3, 0, 1});
}

TEST_CASE("dram: bank_hash xor gives rows a power-of-two stride apart different banks", "[mem][dram]") {
  MiniPlatform pf;
  auto& plain = pf.create<DramController>("dram_controller", "plain", dram_params());
  auto& hashed = pf.create<DramController>("dram_controller", "hashed", dram_params({{"bank_hash", "xor"}}));
  for (uint64_t row = 0; row < 16; ++row) {
    REQUIRE(plain.locate(row * kRow).bank == 0);
    REQUIRE(plain.locate(row * kRow).row == row);
    // Bank b's row r lands in bank b XOR r: the 16 rows of bank 0 use all 16 banks.
    REQUIRE(hashed.locate(row * kRow).bank == row);
    REQUIRE(hashed.locate(row * kRow).row == row);
    REQUIRE(hashed.locate(row * kRow + 3 * 1024).bank == (3 ^ row));
  }
  // Within a row nothing moves: a row's 1 KiB stays in one bank.
  REQUIRE(hashed.locate(5 * kRow + 1023).bank == 5);
}

namespace {
// Two 64 B reads one row apart in bank 0's plain mapping, queued at once: B's response time and the conflicts.
std::pair<sc_time, uint64_t> run_two_rows(const char* hash) {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params({{"bank_hash", hash}}));
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(4 * kRow);
  Payload a(tlm::TLM_READ_COMMAND, base, 64), b(tlm::TLM_READ_COMMAND, base + kRow, 64);
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(a);
    p.begin_req(b);
    p.wait_for(b, tlm::BEGIN_RESP);
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();
  return {probe.time_of(b, tlm::BEGIN_RESP), pf.stat("hbm", "row_conflicts")};
}
}  // namespace

TEST_CASE("dram: without bank_hash two rows a bank apart conflict", "[mem][dram]") {
  // B is a conflict in A's bank: PRE at tRAS 33, ACT 47, column 61, data 75..77, response 81.
  REQUIRE(run_two_rows("none") == std::make_pair(ns(33 + 14 + 14 + 14 + 2 + 4), uint64_t{1}));
}

TEST_CASE("dram: bank_hash xor turns a power-of-two stride's conflict into a parallel miss", "[mem][dram]") {
  // B's row is in bank 1, opened beside A's: column 16, data 30..32, response 36.
  REQUIRE(run_two_rows("xor") == std::make_pair(ns(36), uint64_t{0}));
}

TEST_CASE("dram: interleave_ways squeezes the other controllers' turns out of the mapping", "[mem][dram]") {
  MiniPlatform pf;
  auto& alone = pf.create<DramController>("dram_controller", "alone", dram_params());
  // One of 4 controllers taking turns every 4 KiB (this one owns [0, 4K), [16K, 20K), ...).
  auto& peer = pf.create<DramController>("dram_controller", "peer",
                                         dram_params({{"interleave_ways", 4}, {"interleave_size", "4 KiB"}}));
  auto same = [](DramController::Location x, DramController::Location y) {
    return x.channel == y.channel && x.bank == y.bank && x.row == y.row;
  };
  for (uint64_t page = 0; page < 64; ++page)
    for (uint64_t off : {uint64_t{0}, uint64_t{1024}, uint64_t{4095}})
      REQUIRE(same(peer.locate(page * 16384 + off), alone.locate(page * 4096 + off)));
  // Without it, the controller's own second page (16 KiB) would sit in bank 0's next row,
  // and its own pages would use banks 0..3 only.
  REQUIRE(alone.locate(16384).row == 1);
  REQUIRE(peer.locate(16384).bank == 4);
  REQUIRE(peer.locate(16384).row == 0);
}

TEST_CASE("dram: a row miss a row hit and a row conflict cost exactly their command latencies", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params());
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(64 * 1024);
  Payload miss(tlm::TLM_READ_COMMAND, base, 64), hit(tlm::TLM_READ_COMMAND, base + 64, 64);
  Payload conflict(tlm::TLM_READ_COMMAND, base + kRow, 64);
  sc_time lt_delay;
  Probe probe("probe", [&](Probe& p) {
    for (Payload* t : {&miss, &hit, &conflict}) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::BEGIN_RESP);
    }
    Payload lt(tlm::TLM_READ_COMMAND, base + 2 * kRow, 64);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(lt, d);
    lt_delay = d;
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  // Miss: ACT at 0, column at tRCD = 14, data 28..30, response 4 ns later.
  REQUIRE(probe.time_of(miss, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(miss, tlm::BEGIN_RESP) == ns(14 + 14 + 2 + 4));
  // Hit (sent at 34): column at once, data 48..50: tCL + T + 4 = 20 ns.
  REQUIRE(probe.time_of(hit, tlm::BEGIN_RESP) == ns(34 + 14 + 2 + 4));
  // Conflict (sent at 54; tRAS since the ACT at 0 has passed): PRE, ACT, column: 14 + 14 + 14 + 2 + 4.
  REQUIRE(probe.time_of(conflict, tlm::BEGIN_RESP) == ns(54 + 48));
  // LT: an unloaded row miss, no queueing: 4 + 14 + 14 + 2.
  REQUIRE(lt_delay == ns(34));
  REQUIRE(pf.stat("hbm", "row_misses") == 2);  // the AT miss and the LT access
  REQUIRE(pf.stat("hbm", "row_hits") == 1);
  REQUIRE(pf.stat("hbm", "row_conflicts") == 1);
  REQUIRE(pf.stat("hbm", "reads") == 4);
  REQUIRE(pf.stat("hbm", "bytes_read") == 256);
  REQUIRE(pf.stat("hbm", "bus_busy_ps") == 4 * 2000);
}

TEST_CASE("dram: a conflict right behind the miss that opened the row waits for tRAS", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params());
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(64 * 1024);
  Payload a(tlm::TLM_READ_COMMAND, base, 64), b(tlm::TLM_READ_COMMAND, base + kRow, 64);
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(a);
    p.wait_for(a, tlm::END_REQ);
    p.begin_req(b);
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(34));
  // A's column goes at 14; the row opened at 0 may close at tRAS = 33: PRE 33, ACT 47, column 61, data 75..77.
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(33 + 14 + 14 + 14 + 2 + 4));
}

namespace {
// Eight 64 B reads, alternating between two rows of bank 0, all queued at time 0.
struct Alternating {
  std::vector<std::unique_ptr<Payload>> reads;
  std::vector<sc_time> responses;
};
Alternating run_alternating(const std::string& scheduler) {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params({{"scheduler", scheduler}}));
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(64 * 1024);
  Alternating r;
  for (uint64_t k = 0; k < 8; ++k)
    r.reads.push_back(std::make_unique<Payload>(tlm::TLM_READ_COMMAND, base + (k % 2) * kRow + (k / 2) * 64, 64));
  Probe probe("probe", [&](Probe& p) {
    for (auto& t : r.reads) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::END_REQ);
    }
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();
  for (auto& t : r.reads) r.responses.push_back(probe.time_of(*t, tlm::BEGIN_RESP));
  CHECK(pf.stat("hbm", "reads") == 8);
  if (scheduler == "frfcfs") {
    CHECK(pf.stat("hbm", "row_hits") == 6);
    CHECK(pf.stat("hbm", "row_misses") == 1);
    CHECK(pf.stat("hbm", "row_conflicts") == 1);
  } else {
    CHECK(pf.stat("hbm", "row_hits") == 0);
    CHECK(pf.stat("hbm", "row_misses") == 1);
    CHECK(pf.stat("hbm", "row_conflicts") == 7);
  }
  return r;
}
}  // namespace

TEST_CASE("dram: FR-FCFS groups an interleaved row pattern into hits and beats FCFS", "[mem][dram]") {
  Alternating r = run_alternating("frfcfs");
  // Row X (even requests): ACT 0, columns at 14, 16, 18, 20, data back to back 28..36.
  // Row Y: PRE waits for tRAS (33), ACT 47, columns 61, 63, 65, 67, data 75..83.
  // Responses leave 4 ns after each request's data: X at 34..40, Y at 81..87.
  const std::vector<sc_time> expected = {ns(34), ns(81), ns(36), ns(83), ns(38), ns(85), ns(40), ns(87)};
  REQUIRE(r.responses == expected);
}

TEST_CASE("dram: FCFS on an interleaved row pattern pays a conflict per request", "[mem][dram]") {
  Alternating r = run_alternating("fcfs");
  // Strict order: every request reopens bank 0. After the first miss (data ends at 30) each
  // conflict waits tRAS after the previous ACT, then tRP + tRCD + tCL + T: 33 + 14 = 47 ns apart.
  std::vector<sc_time> expected;
  for (int k = 0; k < 8; ++k) expected.push_back(ns(34 + 47 * k));
  REQUIRE(r.responses == expected);
}

namespace {
// A sequential stream of 2048 reads of 128 B through `scheduler`; checks every byte and the timing.
void stream_saturates(const std::string& scheduler) {
  MiniPlatform pf;
  // 4 channels x 32 GB/s = 128 GB/s; 256 B channel interleave, 1 KiB rows.
  auto& dram = pf.create<DramController>("dram_controller", "hbm",
                                         dram_params({{"channels", 4}, {"channel_interleave", "256 B"}, {"scheduler", scheduler}}));
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  constexpr unsigned kReads = 2048, kLen = 128;
  const uint64_t base = dev.alloc(kReads * kLen);
  std::vector<uint8_t> fill(kReads * kLen);
  for (size_t i = 0; i < fill.size(); ++i) fill[i] = dram_pattern(i);
  dev.write(base, fill.data(), fill.size());
  std::vector<std::unique_ptr<Payload>> reads;
  for (unsigned k = 0; k < kReads; ++k)
    reads.push_back(std::make_unique<Payload>(tlm::TLM_READ_COMMAND, base + uint64_t{k} * kLen, kLen));
  Probe probe("probe", [&](Probe& p) {
    for (auto& t : reads) {
      p.begin_req(*t);
      p.wait_for(*t, tlm::END_REQ);
    }
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  sc_time last = SC_ZERO_TIME;
  bool data_ok = true;
  for (unsigned k = 0; k < kReads; ++k) {
    last = std::max(last, probe.time_of(*reads[k], tlm::BEGIN_RESP));
    data_ok &= std::memcmp(reads[k]->buffer.data(), fill.data() + k * kLen, kLen) == 0;
  }
  REQUIRE(data_ok);
  const double achieved = kReads * kLen / last.to_seconds();
  INFO("achieved " << achieved / 1e9 << " GB/s in " << last);
  REQUIRE(achieved >= 0.9 * 128e9);
  REQUIRE(achieved <= 128e9);
  // 2048 ns of data: each channel carries 512 reads of 4 bursts back to back once its first row
  // is open (ACT 0, first data at 28) and every later row is opened while the previous one
  // streams; the last channel's data ends at 28 + 2048 and its response leaves 4 ns later.
  REQUIRE(last == ns(28 + 2048 + 4));
  REQUIRE(pf.stat("hbm", "bus_busy_ps") == 4 * 512 * 4 * 1000);
  // Each channel's 64 KiB are 64 rows over 16 banks: 16 misses, 48 conflicts, 7 hits per row.
  REQUIRE(pf.stat("hbm", "row_misses") == 4 * 16);
  REQUIRE(pf.stat("hbm", "row_conflicts") == 4 * 48);
  REQUIRE(pf.stat("hbm", "row_hits") == 4 * 448);
}
}  // namespace

TEST_CASE("dram: a sequential stream saturates at 90 to 100 percent of the configured bandwidth", "[mem][dram]") {
  stream_saturates("frfcfs");
}

TEST_CASE("dram: FCFS opens the next row while the previous one streams and saturates the same way", "[mem][dram]") {
  // A sequential stream has nothing to reorder: FCFS gives exactly the FR-FCFS timing.
  stream_saturates("fcfs");
}

// Three reads of one row against a two-place queue: A and B are accepted, C
// waits for a place; A's response is held 10 ns before its END_RESP.
struct ThreeReadsTwoPlaces {
  Payload a, b, c;
  Probe probe;
  ThreeReadsTwoPlaces(DramController& dram, uint64_t base)
      : a(tlm::TLM_READ_COMMAND, base, 64),
        b(tlm::TLM_READ_COMMAND, base + 64, 64),
        c(tlm::TLM_READ_COMMAND, base + 128, 64),
        probe("probe", [this](Probe& p) {
          p.hold_responses = true;
          p.begin_req(a);
          p.wait_for(a, tlm::END_REQ);
          p.begin_req(b);
          p.wait_for(b, tlm::END_REQ);
          p.begin_req(c);
          p.wait_for(a, tlm::BEGIN_RESP);
          wait(ns(10));
          p.end_resp(a);
          p.wait_for(b, tlm::BEGIN_RESP);
          p.end_resp(b);
          p.wait_for(c, tlm::BEGIN_RESP);
          p.end_resp(c);
        }) {
    probe.socket.bind(dram.in);
  }
};

TEST_CASE("dram: a full channel queue withholds END_REQ until a response retires", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params({{"queue_depth", 2}}));
  ThreeReadsTwoPlaces run(dram, pf.shared.get<isa::DeviceMemory>("device").alloc(4096));
  auto &a = run.a, &b = run.b, &c = run.c;
  Probe& probe = run.probe;
  sc_core::sc_start();

  REQUIRE(probe.time_of(b, tlm::END_REQ) == ns(0));
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(34));
  // C waits for room: A retires at 44 (its END_RESP), C is accepted then.
  REQUIRE(probe.time_of(c, tlm::END_REQ) == ns(44));
  // B's data ended at 32; its response waits for the response path, busy with A until 44.
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(44));
  // C is a row hit issued at 44: data 58..60, response 64.
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(64));
  REQUIRE(pf.stat("hbm", "request_stalls") == 1);
  REQUIRE(pf.stat("hbm", "queue_wait_ps") == 44000);
  REQUIRE(pf.stat("hbm", "row_hits") == 2);
}

TEST_CASE("dram: with queue_place column a request's queue place frees when its column command issues",
          "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm",
                                         dram_params({{"queue_depth", 2}, {"queue_place", "column"}}));
  ThreeReadsTwoPlaces run(dram, pf.shared.get<isa::DeviceMemory>("device").alloc(4096));
  auto &a = run.a, &b = run.b, &c = run.c;
  Probe& probe = run.probe;
  sc_core::sc_start();

  // The same requests as above: C no longer waits for A's response (44) but
  // for A's column command (14), the row hit's data then follows B's at once.
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(34));
  REQUIRE(probe.time_of(c, tlm::END_REQ) == ns(14));
  REQUIRE(pf.stat("hbm", "request_stalls") == 1);
  REQUIRE(pf.stat("hbm", "queue_wait_ps") == 14000);
  // Responses still go one at a time: B and C after A's END_RESP at 44.
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(44));
  REQUIRE(pf.stat("hbm", "row_hits") == 2);
}

TEST_CASE("dram: a requester taking early responses gets them at column issue and its queue place frees when due",
          "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params({{"queue_depth", 2}}));
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t base = dev.alloc(4096);
  Payload a(tlm::TLM_READ_COMMAND, base, 64), b(tlm::TLM_READ_COMMAND, base + 64, 64),
      c(tlm::TLM_READ_COMMAND, base + 128, 64), d(tlm::TLM_READ_COMMAND, base + 192, 64);
  take_early_responses({&a, &b, &c, &d});
  Probe probe("probe", [&](Probe& p) {
    p.begin_req(a);
    p.begin_req(b);
    p.begin_req(c);
    wait(ns(20));  // between A's column issue (14) and its response (34)
    p.begin_req(d);
    p.wait_for(d, tlm::BEGIN_RESP);
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  // The times are those of the four-phase path with a requester that completes BEGIN_RESP at
  // once. A: a miss, column at 14, data 28..30, response 34. B: a hit behind it, data 30..32.
  REQUIRE(probe.time_of(a, tlm::BEGIN_RESP) == ns(34));
  REQUIRE(probe.time_of(b, tlm::BEGIN_RESP) == ns(36));
  // Each BEGIN_RESP went out when its column command did, not when it was due.
  REQUIRE(probe.sent_at(a, tlm::BEGIN_RESP) == ns(14));
  REQUIRE(probe.sent_at(b, tlm::BEGIN_RESP) == ns(16));
  // The queue holds 2. C waits for A's place, which frees at A's response time (34), not at
  // its column issue: D's arrival at 20 finds the queue still full. D then waits for B's (36).
  REQUIRE(probe.time_of(c, tlm::END_REQ) == ns(34));
  REQUIRE(probe.time_of(d, tlm::END_REQ) == ns(36));
  // Both hit the open row: C data 48..50, response 54; D data 50..52, response 56.
  REQUIRE(probe.time_of(c, tlm::BEGIN_RESP) == ns(54));
  REQUIRE(probe.time_of(d, tlm::BEGIN_RESP) == ns(56));
  REQUIRE(pf.stat("hbm", "request_stalls") == 2);
}

TEST_CASE("dram: data goes to device memory with byte enables and zeros outside allocations", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm",
                                         dram_params({{"base", "0x100000000"}, {"size", "1 TiB"}}));
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t a = dev.alloc(32);
  const uint64_t b = dev.alloc(32);
  std::vector<uint8_t> masked_read, tail_read, dbg(8);
  tlm::tlm_response_status bad_status = tlm::TLM_INCOMPLETE_RESPONSE;
  unsigned dbg_len = 0;
  Probe probe("probe", [&](Probe& p) {
    Payload w(tlm::TLM_WRITE_COMMAND, a, 16);
    for (int i = 0; i < 16; ++i) w.buffer[i] = static_cast<uint8_t>(0x10 + i);
    uint8_t be[4] = {0xff, 0, 0xff, 0};  // repeated over the 16 bytes: even bytes only
    w.set_byte_enable_ptr(be);
    w.set_byte_enable_length(4);
    p.begin_req(w);
    p.wait_for(w, tlm::BEGIN_RESP);
    // Masked read: disabled bytes of the buffer stay as they were.
    Payload r(tlm::TLM_READ_COMMAND, a, 8);
    std::fill(r.buffer.begin(), r.buffer.end(), 0xEE);
    uint8_t rbe[8] = {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    r.set_byte_enable_ptr(rbe);
    r.set_byte_enable_length(8);
    p.begin_req(r);
    p.wait_for(r, tlm::BEGIN_RESP);
    masked_read = r.buffer;
    // A write running past a's end: the bytes beyond are dropped, not written into b.
    Payload over(tlm::TLM_WRITE_COMMAND, a + 24, 16);
    std::fill(over.buffer.begin(), over.buffer.end(), 0x77);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(over, d);
    Payload tail(tlm::TLM_READ_COMMAND, a + 24, 16);
    d = SC_ZERO_TIME;
    p.socket->b_transport(tail, d);
    tail_read = tail.buffer;
    // Debug access reads the same bytes without time.
    Payload dr(tlm::TLM_READ_COMMAND, a, 8);
    dbg_len = p.socket->transport_dbg(dr);
    dbg = dr.buffer;
    // Outside the controller's range: an address error.
    Payload bad(tlm::TLM_READ_COMMAND, 0x100, 8);
    p.begin_req(bad);
    p.wait_for(bad, tlm::BEGIN_RESP);
    bad_status = bad.get_response_status();
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  REQUIRE(masked_read == std::vector<uint8_t>{0x10, 0, 0x12, 0, 0xEE, 0xEE, 0xEE, 0xEE});
  REQUIRE(dbg_len == 8);
  REQUIRE(dbg == std::vector<uint8_t>{0x10, 0, 0x12, 0, 0x14, 0, 0x16, 0});
  for (int i = 0; i < 8; ++i) REQUIRE(tail_read[i] == 0x77);
  for (int i = 8; i < 16; ++i) REQUIRE(tail_read[i] == 0);
  std::vector<uint8_t> b_bytes(32);
  dev.read(b_bytes.data(), b, 32);
  REQUIRE(b_bytes == std::vector<uint8_t>(32, 0));
  REQUIRE(bad_status == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  REQUIRE(pf.stat("hbm", "errors") == 1);
}

TEST_CASE("dram: atomics apply in lane order and return each lane's old value", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params());
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t a = dev.alloc(12);  // three dwords; the fourth dword of a 16-byte access is unmapped
  const uint32_t init[3] = {10, 20, 30};
  dev.write(a, init, sizeof init);
  std::vector<uint64_t> add_old, cas_old;
  sc_time add_response;
  Probe probe("probe", [&](Probe& p) {
    // Lanes 0 and 2 add to the same dword: lane 2 sees lane 0's result. Lane 3 is outside a.
    Payload add(tlm::TLM_WRITE_COMMAND, a, 16);
    auto* ext = new GpuAccess;  // owned by the payload from here on
    ext->kind = AccessKind::Atomic;
    ext->op = isa::mem::Rmw::Add;
    ext->elem = isa::mem::Elem::U32;
    ext->lanes = {{0, 1, 0, 0}, {4, 2, 0, 0}, {0, 5, 0, 0}, {12, 7, 0, 0}};
    add.set_extension(ext);
    p.begin_req(add);
    add_response = p.wait_for(add, tlm::BEGIN_RESP);
    for (const auto& lane : ext->lanes) add_old.push_back(lane.old);
    // Compare-swap on the third dword through LT: the first lane's compare fails, the second's succeeds.
    Payload cas(tlm::TLM_WRITE_COMMAND, a + 8, 4);
    auto* c = new GpuAccess;
    c->kind = AccessKind::Atomic;
    c->op = isa::mem::Rmw::CmpSwap;
    c->elem = isa::mem::Elem::U32;
    c->lanes = {{0, 99, 31, 0}, {0, 77, 30, 0}};
    cas.set_extension(c);
    sc_time d = SC_ZERO_TIME;
    p.socket->b_transport(cas, d);
    for (const auto& lane : c->lanes) cas_old.push_back(lane.old);
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  REQUIRE(add_old == std::vector<uint64_t>{10, 20, 11, 0});
  REQUIRE(cas_old == std::vector<uint64_t>{30, 30});
  uint32_t now[3];
  dev.read(now, a, sizeof now);
  REQUIRE(now[0] == 16);
  REQUIRE(now[1] == 22);
  REQUIRE(now[2] == 77);
  // An atomic reads then writes its data: 16 bytes, 1 burst each way, as a row miss: 14 + 14 + 2 + 4.
  REQUIRE(add_response == ns(34));
  REQUIRE(pf.stat("hbm", "atomics") == 2);
}

TEST_CASE("dram: DMI is granted inside one allocation and refused in the gaps", "[mem][dram]") {
  MiniPlatform pf;
  auto& dram = pf.create<DramController>("dram_controller", "hbm", dram_params());
  auto& dev = pf.shared.get<isa::DeviceMemory>("device");
  const uint64_t a = dev.alloc(4096);
  tlm::tlm_dmi inside, gap;
  bool granted = false, refused = true;
  Probe probe("probe", [&](Probe& p) {
    Payload t(tlm::TLM_READ_COMMAND, a + 100, 4);
    granted = p.socket->get_direct_mem_ptr(t, inside);
    Payload g(tlm::TLM_READ_COMMAND, a + 8192, 4);
    refused = p.socket->get_direct_mem_ptr(g, gap);
  });
  probe.socket.bind(dram.in);
  sc_core::sc_start();

  REQUIRE(granted);
  REQUIRE(inside.get_start_address() == a);
  REQUIRE(inside.get_end_address() == a + 4095);
  REQUIRE(inside.get_dmi_ptr() == dev.translate(a, 4096));
  REQUIRE(inside.get_read_latency() == ns(4 + 14 + 14));
  REQUIRE_FALSE(refused);
  REQUIRE(gap.get_granted_access() == tlm::tlm_dmi::DMI_ACCESS_NONE);
}

TEST_CASE("dram: bad parameters are clear errors naming the instance", "[mem][dram]") {
  MiniPlatform pf;
  REQUIRE_THROWS_WITH(pf.create("dram_controller", "chip.hbm", dram_params({{"scheduler", "random"}})),
                      Catch::Contains("random"));
  REQUIRE_THROWS_WITH(pf.create("dram_controller", "chip.hbm", dram_params({{"channels", 0}})),
                      Catch::Contains("out of range"));
  REQUIRE_THROWS_WITH(pf.create("dram_controller", "chip.hbm2", dram_params({{"base", "0xFFFFFFFFFFFFF000"}})),
                      Catch::Contains("chip.hbm2") && Catch::Contains("wraps"));
  REQUIRE_THROWS_WITH(pf.create("dram_controller", "chip.hbm3", dram_params({{"banks", 12}, {"bank_hash", "xor"}})),
                      Catch::Contains("chip.hbm3") && Catch::Contains("power-of-two"));
}
