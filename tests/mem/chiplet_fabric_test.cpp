// The links between chiplets on their own: deterministic routes for every
// topology, store-and-forward timing with flits and bandwidth, contention on a
// shared link, and the traffic counters.
#include "models/noc/chiplet_fabric.h"

#include <catch2/catch.hpp>

#include "platform/errors.h"

using namespace tessera;
using sc_core::sc_time;
using sc_core::SC_NS;
using Nodes = std::vector<unsigned>;
using json = nlohmann::ordered_json;

namespace {

// 1 GHz clock; 16-byte flits at 16 GB/s: one flit per cycle; 10 cycles per link.
ChipletFabric::Config config(unsigned chiplets, ChipletFabric::Topology t, unsigned columns = 0) {
  ChipletFabric::Config c;
  c.chiplets = chiplets;
  c.topology = t;
  c.mesh_columns = columns;
  c.link_bytes_per_second = 16e9;
  c.link_latency = sc_time(10, SC_NS);
  c.local_latency = sc_time(2, SC_NS);
  c.flit_bytes = 16;
  return c;
}

const sc_time kPeriod(1, SC_NS);

}  // namespace

TEST_CASE("chiplet fabric: routes are deterministic for every topology", "[noc][chiplet]") {
  StatRegistry stats;
  ChipletFabric ring(config(6, ChipletFabric::Topology::Ring), stats, "ring", kPeriod);
  CHECK(ring.path(0, 2) == Nodes{0, 1, 2});
  CHECK(ring.path(0, 4) == Nodes{0, 5, 4});     // the shorter way round
  CHECK(ring.path(0, 3) == Nodes{0, 1, 2, 3});  // a tie goes the increasing way
  CHECK(ring.path(4, 1) == Nodes{4, 5, 0, 1});
  ChipletFabric mesh(config(8, ChipletFabric::Topology::Mesh, 4), stats, "mesh", kPeriod);
  // Rows of 4: 0 1 2 3 / 4 5 6 7; X first, then Y.
  CHECK(mesh.path(0, 7) == Nodes{0, 1, 2, 3, 7});
  CHECK(mesh.path(6, 1) == Nodes{6, 5, 1});
  ChipletFabric sw(config(4, ChipletFabric::Topology::Switch), stats, "switch", kPeriod);
  CHECK(sw.path(1, 3) == Nodes{1, 4, 3});  // node 4 is the switch
  ChipletFabric full(config(4, ChipletFabric::Topology::Full), stats, "full", kPeriod);
  CHECK(full.path(3, 0) == Nodes{3, 0});
  CHECK(full.path(2, 2) == Nodes{2});
}

TEST_CASE("chiplet fabric: a message pays flits and latency per link and waits for a busy link", "[noc][chiplet]") {
  StatRegistry stats;
  ChipletFabric ring(config(4, ChipletFabric::Topology::Ring), stats, "noc", kPeriod);
  // 128 bytes = 8 flits = 8 cycles per link, plus 10 cycles along it; two links.
  CHECK(ring.traverse(0, 2, 128, sc_time(100, SC_NS)) == sc_time(100 + 2 * (8 + 10), SC_NS));
  // A request without data still takes one flit.
  CHECK(ring.uncontended(0, 1, 0) == sc_time(1 + 10, SC_NS));
  // Local: no link.
  CHECK(ring.traverse(3, 3, 128, sc_time(100, SC_NS)) == sc_time(102, SC_NS));
  // A second message on link 0->1 at the same time waits for the first one's flits.
  const sc_time a = ring.traverse(0, 1, 128, sc_time(200, SC_NS));
  const sc_time b = ring.traverse(0, 1, 128, sc_time(200, SC_NS));
  CHECK(a == sc_time(218, SC_NS));
  CHECK(b == sc_time(226, SC_NS));
  ring.finish(sc_time(1000, SC_NS));
  const json s = stats.to_json();
  CHECK(s["noc"]["local_messages"] == 1);
  CHECK(s["noc"]["remote_messages"] == 3);
  CHECK(s["noc"]["hops"] == 4);
  CHECK(s["noc"]["remote_bytes"] == 3 * 128);
  CHECK(s["noc"]["link[0->1]"]["flits"] == 24);
  CHECK(s["noc"]["link[0->1]"]["busy_cycles"] == 24);
  CHECK(s["noc"]["link[1->2]"]["bytes"] == 128);
  CHECK(s["noc"]["link[0->1]"]["utilisation"] == Approx(0.024));
}

TEST_CASE("chiplet fabric: impossible configurations are clear errors", "[noc][chiplet]") {
  StatRegistry stats;
  CHECK_THROWS_WITH(ChipletFabric(config(6, ChipletFabric::Topology::Mesh, 4), stats, "m", kPeriod),
                    Catch::Contains("mesh_columns must divide the chiplet count"));
  CHECK_THROWS_WITH(ChipletFabric::topology_of("torus"), Catch::Contains("unknown chiplet topology \"torus\""));
}

namespace {

// Sends `messages` messages of `bytes` from chiplet 0 to 1 at time 0 and
// returns the bandwidth the link delivered: bytes over the time from the start
// to the last arrival, less the link's latency.
double delivered_bandwidth(ChipletFabric& fabric, unsigned messages, uint64_t bytes, const sc_time& latency) {
  sc_time last;
  for (unsigned k = 0; k < messages; ++k) last = std::max(last, fabric.traverse(0, 1, bytes, sc_time(0, SC_NS)));
  return double(messages) * double(bytes) / (last - latency).to_seconds();
}

}  // namespace

TEST_CASE("chiplet fabric: a link faster than one message per cycle carries several per cycle", "[noc][chiplet]") {
  StatRegistry stats;
  // 768 GB/s at 1 GHz: 768 B per cycle, six 128-byte messages per cycle.
  ChipletFabric::Config c = config(2, ChipletFabric::Topology::Full);
  c.link_bytes_per_second = 768e9;
  ChipletFabric fabric(c, stats, "noc", kPeriod);
  const double bw = delivered_bandwidth(fabric, 6000, 128, c.link_latency);
  INFO("delivered " << bw / 1e9 << " GB/s of 768");
  CHECK(bw == Approx(768e9).epsilon(0.01));
  // One message alone still takes a whole cycle (its flits arrive on a clock edge).
  CHECK(fabric.uncontended(0, 1, 128) == sc_time(1 + 10, SC_NS));
  fabric.finish(sc_time(1000, SC_NS));
  // 6000 messages of 128 B at 768 B per cycle: 1000 cycles busy, all of the run.
  CHECK(stats.to_json()["noc"]["link[0->1]"]["busy_cycles"] == 1000);
  CHECK(stats.to_json()["noc"]["link[0->1]"]["utilisation"] == Approx(1.0));
}

TEST_CASE("chiplet fabric: fractions of a cycle per message add up instead of being rounded up", "[noc][chiplet]") {
  StatRegistry stats;
  // 24 GB/s at 1 GHz with 16-byte flits: 2/3 of a cycle per one-flit message.
  // Rounded up per message it would carry 16 GB/s.
  ChipletFabric::Config c = config(2, ChipletFabric::Topology::Full);
  c.link_bytes_per_second = 24e9;
  ChipletFabric fabric(c, stats, "noc", kPeriod);
  const double bw = delivered_bandwidth(fabric, 3000, 16, c.link_latency);
  INFO("delivered " << bw / 1e9 << " GB/s of 24");
  CHECK(bw == Approx(24e9).epsilon(0.01));
  // Consecutive messages arrive 1 or 2 cycles apart, on clock edges.
  StatRegistry stats2;
  ChipletFabric f2(c, stats2, "noc", kPeriod);
  const sc_time a = f2.traverse(0, 1, 16, sc_time(0, SC_NS));
  const sc_time b = f2.traverse(0, 1, 16, sc_time(0, SC_NS));
  const sc_time d = f2.traverse(0, 1, 16, sc_time(0, SC_NS));
  CHECK(a == sc_time(11, SC_NS));  // 2/3 cycle, rounded up to the edge
  CHECK(b == sc_time(12, SC_NS));  // 4/3
  CHECK(d == sc_time(12, SC_NS));  // 6/3: two whole cycles
}
