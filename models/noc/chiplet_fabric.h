// The links between chiplets, as plain C++ inside the "chiplet_network" block
// (a crossbar whose switch stage is this fabric; models/noc/crossbar.h).
//
// Nodes are the chiplets 0..N-1 (and, for the switch topology, one central
// switch). Links are directed, one per neighbour pair and direction, each with
// a bandwidth, a latency and a flit size. Routing is deterministic:
//   ring    the shorter way round; a tie goes the increasing way
//   mesh    rows of `mesh_columns` chiplets; X first, then Y
//   switch  chiplet -> switch -> chiplet
//   full    one direct link between every pair
// A message crosses its links store-and-forward: on each it sends its flits
// (ceil(bytes / flit_size), at least one) at the link's bandwidth, then travels
// `link_latency`. A message within one chiplet crosses no link and takes
// `local_latency`.
//
// Each link keeps a calendar of the intervals it is busy. A message is booked
// when its sender knows when it will reach the link, which may be after a
// message booked later reaches it (a response booked as its request is sent,
// the second hop of a message booked at its first, an acknowledgement booked
// with its invalidation). A real link serves the flits in the order they
// reach it; the model cannot move a booking already made (its time has been
// given to its sender), so a message's flits take the earliest whole-flit idle
// slots at or after it reaches the link: an idle gap before a later booking
// carries the flits that fit in it, and the rest follow the booking. A link
// never carries more than its bandwidth, it is idle only when no flit is
// waiting for it (but for gaps shorter than a flit), and the same calls in the
// same order give the same times. Intervals that ended before the simulated
// time are forgotten (no message can reach a link in the past).
//
// Bandwidth is bytes per second, not messages per cycle: a link is busy for
// exactly flits * flit_size / bandwidth per message, so a link faster than one
// message per cycle carries several messages in one cycle, and the fractions
// of a cycle add up from message to message instead of each being rounded up.
// A message's flits reach the far end on a clock edge: its arrival is rounded
// up to a whole number of cycles after it could start (so an uncontended
// message pays ceil(flit time) cycles per link).
//
// Every link counts its flits, bytes and busy time; the fabric counts local and
// remote messages and bytes.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <systemc>

#include "platform/stats.h"

namespace tessera {

class ChipletFabric {
 public:
  enum class Topology { Ring, Mesh, Switch, Full };
  struct Config {
    unsigned chiplets = 1;
    Topology topology = Topology::Ring;
    unsigned mesh_columns = 0;           // 0: the smallest c with c * c >= chiplets
    double link_bytes_per_second = 0;    // > 0
    sc_core::sc_time link_latency, local_latency;
    unsigned flit_bytes = 16;
  };
  static Topology topology_of(const std::string& name);  // throws UserError for an unknown name

  // `stats` is the block's registry; links are named "<path>.link[a->b]".
  ChipletFabric(const Config& config, StatRegistry& stats, const std::string& path, sc_core::sc_time period);

  unsigned chiplets() const { return config_.chiplets; }
  // The nodes a message from chiplet `from` to chiplet `to` visits, both ends included.
  std::vector<unsigned> path(unsigned from, unsigned to) const;
  // Sends `bytes` from `from` to `to`, leaving no earlier than `at`; reserves the
  // links and returns when the message has arrived.
  sc_core::sc_time traverse(unsigned from, unsigned to, uint64_t bytes, const sc_core::sc_time& at);
  // The same time with every link free, reserving nothing (loosely-timed accesses).
  sc_core::sc_time uncontended(unsigned from, unsigned to, uint64_t bytes) const;
  // Called at the end of the run: each link's utilisation over the simulated time.
  void finish(const sc_core::sc_time& end);

 private:
  struct Link {
    unsigned from = 0, to = 0;
    // Busy intervals, start -> end in seconds, disjoint, adjacent ones merged: not rounded to the
    // time resolution, so fractions add up.
    std::map<double, double> booked;
    double busy = 0;  // seconds spent transferring
    Counter *flits = nullptr, *bytes = nullptr, *busy_cycles = nullptr;
    Scalar* utilisation = nullptr;
  };
  unsigned next_hop(unsigned at, unsigned to) const;
  int link_index(unsigned from, unsigned to) const;
  Link& add_link(unsigned from, unsigned to, StatRegistry& stats, const std::string& path);
  // A message's flits on one link: exactly, in seconds, and in whole cycles.
  double flit_seconds(uint64_t bytes) const;
  sc_core::sc_time serialization(uint64_t bytes) const;
  // Sends a message over one link from `at` (a clock edge); returns when its last flit is across.
  sc_core::sc_time cross(Link& link, uint64_t bytes, const sc_core::sc_time& at);
  // Books `flits` flits of `flit` seconds each on the link's calendar in its first idle slots
  // at or after `at` (seconds); returns when the last one is across.
  static double book(Link& link, uint64_t flits, double flit, double at);
  static void book_interval(Link& link, double start, double end);
  uint64_t flits(uint64_t bytes) const;

  Config config_;
  sc_core::sc_time period_;
  unsigned columns_ = 1;
  unsigned switch_node_ = 0;       // node index of the switch (topology Switch)
  std::vector<Link> links_;
  std::vector<int> link_of_;       // (from * nodes + to) -> index in links_, -1 for none
  unsigned nodes_ = 0;
  Counter &local_messages_, &remote_messages_, &local_bytes_, &remote_bytes_, &hops_;
};

// The platform's chiplet network, for a block that sends messages between
// chiplets beside the network's sockets (coherence hmg's invalidations): each
// "chiplet_network" block registers its links here (the SharedObjects entry
// "chiplet_network").
struct ChipletFabricRef {
  ChipletFabric* fabric = nullptr;
  std::string owner;      // the network's path
  unsigned networks = 0;  // how many registered; a user needs exactly one
};

}  // namespace tessera
