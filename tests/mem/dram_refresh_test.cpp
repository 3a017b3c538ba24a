// Per-bank refresh (HBM2's REFSB) against all-bank refresh on one DramChannel:
// an all-bank refresh stops every bank for tRFC, a per-bank one only the bank
// whose turn it is, for tRFCsb, the banks taking turns every tREFI / banks.
#include <catch2/catch.hpp>
#include <vector>

#include "models/mem/dram_channel.h"

using namespace tessera;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

sc_time at_ns(double v) { return sc_time(v, SC_NS); }

// 4 banks, tCL = tRCD = tRP = 14 ns, one 1 ns burst; a refresh every 400 ns
// (per bank: one bank every 100 ns), all-bank for 50 ns or per-bank for 50 ns.
DramTiming timing(bool per_bank) {
  DramTiming t;
  t.tCL = t.tRCD = t.tRP = at_ns(14);
  t.tRAS = at_ns(33);
  t.burst_time = at_ns(1);
  t.tREFI = at_ns(400);
  t.tRFC = at_ns(50);
  if (per_bank) t.tRFCsb = at_ns(50);
  return t;
}

// One read of `bank` (a closed bank: a miss) arriving at `at`; returns when its data ends.
sc_time read_end(DramChannel& ch, unsigned bank, const sc_time& at, uint64_t seq) {
  DramRequest r;
  r.seq = seq;
  r.bank = bank;
  ch.push(r);
  std::vector<DramIssued> issued;
  sc_time now = at;
  while (ch.queued()) now = ch.schedule(now, issued);
  REQUIRE(issued.size() == 1);
  return issued[0].data_end;
}

}  // namespace

TEST_CASE("dram refresh: a per-bank refresh stops only its bank, an all-bank refresh every bank", "[mem][dram]") {
  // The first refresh is due at 100 ns per bank (bank 0's turn), at 400 ns all-bank.
  DramChannel per_bank(timing(true), 4, DramChannel::Policy::FrFcfs);
  // Bank 1 at 100 ns: not refreshing, a miss: ACT, tRCD, tCL, one burst.
  CHECK(read_end(per_bank, 1, at_ns(100), 0) == at_ns(100 + 14 + 14 + 1));
  // Bank 0 at 101 ns: refreshing from 100 for 50 ns, then its miss.
  CHECK(read_end(per_bank, 0, at_ns(101), 1) == at_ns(150 + 14 + 14 + 1));
  // At 200 ns it is bank 1's turn: bank 1's open row is precharged (tRP), then refreshed.
  CHECK(read_end(per_bank, 1, at_ns(200), 2) == at_ns(200 + 14 + 50 + 14 + 14 + 1));
  CHECK(per_bank.refreshes() == 2);

  DramChannel all_bank(timing(false), 4, DramChannel::Policy::FrFcfs);
  CHECK(read_end(all_bank, 1, at_ns(100), 0) == at_ns(129));  // no refresh due yet
  // At 400 ns every bank refreshes: bank 2 (closed) waits too, after the precharge of bank 1's row.
  CHECK(read_end(all_bank, 2, at_ns(400), 1) == at_ns(400 + 14 + 50 + 14 + 14 + 1));
  CHECK(all_bank.refreshes() == 1);
}

TEST_CASE("dram refresh: per-bank refreshes take the banks in turn, and turns missed while idle are over",
          "[mem][dram]") {
  DramChannel ch(timing(true), 4, DramChannel::Policy::FrFcfs);
  // Idle until 750 ns: the refreshes due at 100..700 (banks 0..3, 0..2) are over; the one due at 700
  // is bank 2's, from 700 to 750. Bank 3 at 740 does not wait for it; bank 2 at 741 does.
  CHECK(read_end(ch, 3, at_ns(740), 0) == at_ns(740 + 14 + 14 + 1));
  CHECK(read_end(ch, 2, at_ns(741), 1) == at_ns(750 + 14 + 14 + 1));
  CHECK(ch.refreshes() == 7);
}
