// DramChannel on its own: which queued request's column goes next when the
// requests of several banks wait, in the order they arrived (seq), whatever
// order the channel keeps its banks in.
#include "models/mem/dram_channel.h"

#include <catch2/catch.hpp>
#include <vector>

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
