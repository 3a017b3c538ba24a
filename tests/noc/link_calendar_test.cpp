// A chiplet link's calendar: a message that reaches a link before one booked
// earlier for a later time uses the idle time before it, and the link still
// carries no more than its bandwidth however the bookings arrive.
#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>

#include "models/noc/chiplet_fabric.h"

using namespace tessera;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

const sc_time kPeriod(1, SC_NS);

// Two chiplets, one link each way; 1 GHz, 16-byte flits, 10 cycles along a link.
ChipletFabric::Config two_chiplets(double bytes_per_second) {
  ChipletFabric::Config c;
  c.chiplets = 2;
  c.topology = ChipletFabric::Topology::Full;
  c.link_bytes_per_second = bytes_per_second;
  c.link_latency = sc_time(10, SC_NS);
  c.local_latency = sc_time(2, SC_NS);
  c.flit_bytes = 16;
  return c;
}

sc_time ns(double v) { return sc_time(v, SC_NS); }

}  // namespace

TEST_CASE("link calendar: a message booked later for a later time does not delay an earlier one",
          "[noc][chiplet]") {
  StatRegistry stats;
  ChipletFabric fabric(two_chiplets(16e9), stats, "noc", kPeriod);  // one flit per cycle
  // Booked first, reaching the link at 100: its 8 flits take 100..108.
  CHECK(fabric.traverse(0, 1, 128, ns(100)) == ns(100 + 8 + 10));
  // Booked next, reaching the link at 0: the link is idle until 100, so it goes at once.
  CHECK(fabric.traverse(0, 1, 128, ns(0)) == ns(0 + 8 + 10));
  // Reaching it at 95: 5 flits fit before the booking at 100, the other 3 follow it (108..111).
  CHECK(fabric.traverse(0, 1, 128, ns(95)) == ns(111 + 10));
  // The gaps are taken: 92..95 holds 3 flits of the next one, 111.. the rest.
  CHECK(fabric.traverse(0, 1, 128, ns(92)) == ns(116 + 10));
  // The other direction has its own calendar.
  CHECK(fabric.traverse(1, 0, 128, ns(100)) == ns(118));
  fabric.finish(ns(200));
  CHECK(stats.to_json()["noc"]["link[0->1]"]["busy_cycles"] == 32);
}

TEST_CASE("link calendar: a gap shorter than a flit stays idle", "[noc][chiplet]") {
  StatRegistry stats;
  // 8 GB/s: one 16-byte flit every 2 cycles.
  ChipletFabric fabric(two_chiplets(8e9), stats, "noc", kPeriod);
  CHECK(fabric.traverse(0, 1, 16, ns(10)) == ns(10 + 2 + 10));  // 10..12
  CHECK(fabric.traverse(0, 1, 16, ns(7)) == ns(7 + 2 + 10));    // 7..9: the gap 9..10 is left
  // Reaching the link at 9, a flit does not fit in 9..10: it goes after 12.
  CHECK(fabric.traverse(0, 1, 16, ns(9)) == ns(14 + 10));
}

TEST_CASE("link calendar: a saturated link carries its bandwidth and no more, whatever the booking order",
          "[noc][chiplet]") {
  // 768 GB/s at 1 GHz: six 128-byte messages per cycle. 6000 messages reach the link at times
  // spread over the first 500 cycles and booked in a scrambled order: they need 1000 cycles.
  const ChipletFabric::Config c = two_chiplets(768e9);
  auto run = [&](std::vector<sc_time>& arrivals) {
    StatRegistry stats;
    ChipletFabric fabric(c, stats, "noc", kPeriod);
    uint32_t x = 12345;
    for (unsigned k = 0; k < 6000; ++k) {
      x = x * 1664525u + 1013904223u;  // a fixed sequence: the test is deterministic
      arrivals.push_back(fabric.traverse(0, 1, 128, ns((x >> 8) % 500)));
    }
    fabric.finish(ns(1000));
    return stats.to_json()["noc"]["link[0->1]"]["busy_cycles"].get<uint64_t>();
  };
  std::vector<sc_time> first, second;
  CHECK(run(first) == 1000);
  run(second);
  CHECK(first == second);  // same calls, same times
  std::vector<sc_time> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  // The k-th message across (k from 1) cannot be across before k / 6 cycles: the link's bandwidth.
  unsigned violations = 0;
  for (size_t k = 0; k < sorted.size(); ++k)
    if ((sorted[k] - c.link_latency).to_seconds() * 1e9 < double(k + 1) / 6.0 - 1e-6) ++violations;
  CHECK(violations == 0);
  // And the link was idle only when nothing waited: the last one is across by about 1000 cycles.
  CHECK((sorted.back() - c.link_latency) <= ns(1002));
}
