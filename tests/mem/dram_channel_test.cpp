// DramChannel on its own: which queued request's column goes next when the
// requests of several banks wait, in the order they arrived (seq), whatever
// order the channel keeps its banks in.
#include "models/mem/dram_channel.h"

#include <catch2/catch.hpp>
#include <vector>

#include "tests/mem/mem_test_support.h"

using namespace tessera;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

DramTiming timing() {
  DramTiming t;
  t.tCL = t.tRCD = t.tRP = sc_time(14, SC_NS);
  t.tRAS = sc_time(33, SC_NS);
  t.burst_time = sc_time(1, SC_NS);
  return t;
}

struct Req {
  unsigned bank;
  uint64_t row;
};

// Queues `reqs` at time 0 (seq = position) and schedules at the times the
// channel names until it is empty; returns the requests in column order.
std::vector<DramRequest> run(DramChannel::Policy policy, const std::vector<Req>& reqs) {
  DramChannel ch(timing(), 4, policy);
  for (size_t i = 0; i < reqs.size(); ++i) {
    DramRequest r;
    r.seq = i;
    r.bank = reqs[i].bank;
    r.row = reqs[i].row;
    ch.push(r);
  }
  std::vector<DramIssued> issued;
  sc_time now = sc_core::SC_ZERO_TIME;
  while (ch.queued()) now = ch.schedule(now, issued);
  std::vector<DramRequest> order;
  for (const DramIssued& d : issued) order.push_back(d.req);
  return order;
}

std::vector<uint64_t> seqs(const std::vector<DramRequest>& order) {
  std::vector<uint64_t> s;
  for (const DramRequest& r : order) s.push_back(r.seq);
  return s;
}

}  // namespace

TEST_CASE("dram channel: FR-FCFS takes the oldest row hit over all banks", "[mem][dram]") {
  // Bank 3 gets the first request, bank 1 the second: both rows open together
  // and every request hits, so columns go strictly in arrival order.
  const auto order = run(DramChannel::Policy::FrFcfs, {{3, 0}, {1, 0}, {3, 0}, {1, 0}, {1, 0}, {3, 0}});
  CHECK(seqs(order) == std::vector<uint64_t>{0, 1, 2, 3, 4, 5});
  CHECK(order[0].outcome == RowOutcome::Miss);
  CHECK(order[1].outcome == RowOutcome::Miss);
  for (size_t i = 2; i < order.size(); ++i) CHECK(order[i].outcome == RowOutcome::Hit);
}

TEST_CASE("dram channel: FR-FCFS lets another bank's hit pass a conflict, FCFS does not", "[mem][dram]") {
  // Request 1 needs another row of bank 2 (a conflict); request 2 hits bank 0's open row.
  const std::vector<Req> reqs = {{2, 0}, {2, 1}, {0, 0}};
  const auto fr = run(DramChannel::Policy::FrFcfs, reqs);
  CHECK(seqs(fr) == std::vector<uint64_t>{0, 2, 1});
  CHECK(fr[2].outcome == RowOutcome::Conflict);
  const auto fcfs = run(DramChannel::Policy::Fcfs, reqs);
  CHECK(seqs(fcfs) == std::vector<uint64_t>{0, 1, 2});
  CHECK(fcfs[1].outcome == RowOutcome::Conflict);
}

TEST_CASE("dram channel: FR-FCFS keeps a row open while a younger request still hits it", "[mem][dram]") {
  // Bank 1's oldest request wants row 5 but a younger one hits the open row 0:
  // that one goes first, then the row changes.
  const auto order = run(DramChannel::Policy::FrFcfs, {{1, 0}, {1, 5}, {1, 0}});
  CHECK(seqs(order) == std::vector<uint64_t>{0, 2, 1});
  CHECK(order[1].outcome == RowOutcome::Hit);
  CHECK(order[2].outcome == RowOutcome::Conflict);
}

// ---- the timing constraints beyond the row timings ---------------------------
// Each test runs the same requests with the constraint off and on; the
// constraint must move the outcome by what it says, so a model that ignored it
// fails.

namespace {

struct Access {
  unsigned bank;
  uint64_t row;
  bool write;
  unsigned bursts;
};

// Queues `reqs` at time 0 and schedules until empty; returns what was issued, in column order.
std::vector<DramIssued> issue_all(const DramTiming& t, const std::vector<Access>& reqs) {
  DramChannel ch(t, 16, DramChannel::Policy::FrFcfs);
  for (size_t i = 0; i < reqs.size(); ++i) {
    DramRequest r;
    r.seq = i;
    r.bank = reqs[i].bank;
    r.row = reqs[i].row;
    r.write = reqs[i].write;
    r.bursts = reqs[i].bursts;
    ch.push(r);
  }
  std::vector<DramIssued> issued;
  sc_time now = sc_core::SC_ZERO_TIME;
  while (ch.queued()) now = ch.schedule(now, issued);
  return issued;
}

}  // namespace

using tessera::test::ns;

TEST_CASE("dram channel: a write then a read of another bank waits tWTR after the write data", "[mem][dram]") {
  DramTiming t = timing();
  const std::vector<Access> reqs = {{0, 0, true, 1}, {1, 0, false, 1}};
  const auto off = issue_all(t, reqs);
  // Both banks open at 0; the write's data 28..29, the read's right behind it.
  CHECK(off[1].data_start == ns(29));
  t.tWTR = ns(7);
  const auto on = issue_all(t, reqs);
  // The read's column no earlier than 29 + 7 = 36: its data at 36 + 14.
  CHECK(on[0].data_end == ns(29));
  CHECK(on[1].data_start == ns(50));
}

TEST_CASE("dram channel: a read then a write waits tRTW between their data", "[mem][dram]") {
  DramTiming t = timing();
  const std::vector<Access> reqs = {{0, 0, false, 1}, {1, 0, true, 1}};
  CHECK(issue_all(t, reqs)[1].data_start == ns(29));
  t.tRTW = ns(3);
  CHECK(issue_all(t, reqs)[1].data_start == ns(32));
}

TEST_CASE("dram channel: a bank's precharge waits tWR after its write data", "[mem][dram]") {
  DramTiming t = timing();
  // A write to row 0 of bank 0, then a read of row 1 of bank 0 (a conflict).
  const std::vector<Access> reqs = {{0, 0, true, 1}, {0, 1, false, 1}};
  // Off: PRE at tRAS = 33, ACT at 47, column at 61, data at 75.
  CHECK(issue_all(t, reqs)[1].data_start == ns(75));
  t.tWR = ns(20);
  // The write's data ends at 29: PRE at 49, ACT 63, column 77, data 91.
  CHECK(issue_all(t, reqs)[1].data_start == ns(91));
}

TEST_CASE("dram channel: activates are tRRD apart and at most four in a tFAW window", "[mem][dram]") {
  DramTiming t = timing();
  std::vector<Access> reqs;
  for (unsigned b = 0; b < 6; ++b) reqs.push_back({b, 0, false, 1});
  // Off: every bank opens at 0; data back to back from 28.
  const auto off = issue_all(t, reqs);
  CHECK(off[5].data_start == ns(33));
  t.tRRD = ns(2);
  const auto rrd = issue_all(t, reqs);
  // ACTs at 0, 2, 4, ..., 10: bank 5's column at 24, its data at 38.
  CHECK(rrd[5].data_start == ns(38));
  t.tFAW = ns(20);
  const auto faw = issue_all(t, reqs);
  // ACTs at 0, 2, 4, 6, then the fifth no earlier than 0 + 20, the sixth at 22: data at 22 + 28 = 50.
  CHECK(faw[4].data_start == ns(48));
  CHECK(faw[5].data_start == ns(50));
}

TEST_CASE("dram channel: columns in one bank group are tCCD_L apart, across groups tCCD_S", "[mem][dram]") {
  DramTiming t = timing();
  t.bank_groups = 4;
  // Banks 0 and 4 share group 0; bank 1 is in group 1. Each request one burst (1 ns).
  const std::vector<Access> same = {{0, 0, false, 1}, {4, 0, false, 1}};
  const std::vector<Access> other = {{0, 0, false, 1}, {1, 0, false, 1}};
  CHECK(issue_all(t, same)[1].data_start == ns(29));
  t.tCCD_L = ns(4);
  t.tCCD_S = ns(2);
  CHECK(issue_all(t, same)[1].data_start == ns(32));   // column at 14 + 4
  CHECK(issue_all(t, other)[1].data_start == ns(30));  // column at 14 + 2
  // A request is one column access: its own 4 bursts stream back to back.
  const auto four = issue_all(t, {{0, 0, false, 4}});
  CHECK(four[0].data_end - four[0].data_start == ns(4));
}

TEST_CASE("dram channel: refresh closes every row and holds the banks for tRFC", "[mem][dram]") {
  DramTiming t = timing();
  t.tREFI = ns(100);
  t.tRFC = ns(50);
  DramChannel ch(t, 4, DramChannel::Policy::FrFcfs);
  std::vector<DramIssued> issued;
  auto request = [&](uint64_t seq, const sc_time& at) {
    DramRequest r;
    r.seq = seq;
    r.bank = 0;
    r.row = 0;
    ch.push(r);
    sc_time now = at;
    while (ch.queued()) now = ch.schedule(now, issued);
  };
  request(0, ns(0));    // opens row 0 of bank 0: data at 28
  request(1, ns(60));   // a hit: data at 74
  request(2, ns(120));  // after the refresh due at 100 (PRE 100..114, refresh until 164): a miss
  REQUIRE(issued.size() == 3);
  CHECK(issued[1].req.outcome == RowOutcome::Hit);
  CHECK(issued[1].data_start == ns(74));
  CHECK(issued[2].req.outcome == RowOutcome::Miss);
  // ACT at 164, column at 178, data at 192.
  CHECK(issued[2].data_start == ns(192));
  CHECK(ch.refreshes() == 1);
}

TEST_CASE("dram channel: FR-FCFS with a starvation cap serves the oldest request after that many younger hits",
          "[mem][dram]") {
  DramTiming t = timing();
  // Request 0 opens row 0 of bank 0; request 1 wants row 1 of the same bank
  // (a conflict); requests 2..9 hit row 0. Without a cap every hit goes before request 1.
  std::vector<Access> reqs = {{0, 0, false, 1}, {0, 1, false, 1}};
  for (int k = 0; k < 8; ++k) reqs.push_back({0, 0, false, 1});
  auto position_of_1 = [&](const std::vector<DramIssued>& issued) {
    for (size_t i = 0; i < issued.size(); ++i)
      if (issued[i].req.seq == 1) return i;
    return issued.size();
  };
  CHECK(position_of_1(issue_all(t, reqs)) == 9);
  t.starvation_cap = 3;
  // Request 0 goes, then three hits pass request 1: it is next.
  const auto capped = issue_all(t, reqs);
  CHECK(position_of_1(capped) == 4);
  CHECK(capped[4].req.outcome == RowOutcome::Conflict);
}

TEST_CASE("dram channel: with act_in_time_order an ACT goes before an ACT decided earlier for a later time",
          "[mem][dram]") {
  // Bank 0 serves row 0, then must reopen for row 1: its PRE waits for tRAS
  // (33), its ACT is decided at the row-0 column (14) for 47. A request to
  // idle bank 1 arriving at 20 could open it at once; in decision order its
  // ACT waits until 47 + tRRD.
  auto bank1_data = [](bool in_time_order) {
    DramTiming t = timing();
    t.tRRD = ns(2);
    t.act_in_time_order = in_time_order;
    DramChannel ch(t, 16, DramChannel::Policy::FrFcfs);
    for (uint64_t row = 0; row < 2; ++row) {
      DramRequest r;
      r.seq = row;
      r.bank = 0;
      r.row = row;
      ch.push(r);
    }
    std::vector<DramIssued> issued;
    // Everything the channel does before 20.
    for (sc_time next = ch.schedule(sc_core::SC_ZERO_TIME, issued); next < ns(20);) next = ch.schedule(next, issued);
    DramRequest late;
    late.seq = 2;
    late.bank = 1;
    ch.push(late);
    for (sc_time now = ns(20); ch.queued();) now = ch.schedule(now, issued);
    for (const DramIssued& d : issued)
      if (d.req.bank == 1) return d.data_start;
    FAIL("bank 1's request was not issued");
    return sc_time();
  };
  // Decision order: ACT at 49, column 63, data 77. In time order: ACT at 20, column 34, data 48.
  CHECK(bank1_data(false) == ns(77));
  CHECK(bank1_data(true) == ns(48));
}
