#include "models/noc/chiplet_fabric.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;

ChipletFabric::Topology ChipletFabric::topology_of(const std::string& name) {
  if (name == "ring") return Topology::Ring;
  if (name == "mesh") return Topology::Mesh;
  if (name == "switch") return Topology::Switch;
  if (name == "full") return Topology::Full;
  throw UserError("unknown chiplet topology \"" + name + "\" (expected ring, mesh, switch or full)");
}

ChipletFabric::ChipletFabric(const Config& config, StatRegistry& stats, const std::string& path, sc_time period)
    : config_(config),
      period_(period),
      local_messages_(stats.group(path).counter("local_messages", "requests and responses within one chiplet")),
      remote_messages_(stats.group(path).counter("remote_messages", "requests and responses between chiplets")),
      local_bytes_(stats.group(path).counter("local_bytes", "data bytes of local messages")),
      remote_bytes_(stats.group(path).counter("remote_bytes", "data bytes of remote messages")),
      hops_(stats.group(path).counter("hops", "links crossed by remote messages, summed")) {
  const unsigned n = config.chiplets;
  if (n == 0) throw UserError(path + ": a chiplet network needs at least one chiplet");
  if (config.link_bytes_per_second <= 0) throw UserError(path + ": link_bandwidth must be positive");
  columns_ = config.mesh_columns ? config.mesh_columns : static_cast<unsigned>(std::ceil(std::sqrt(double(n))));
  if (config.topology == Topology::Mesh && n % columns_ != 0)
    throw UserError(path + ": a mesh of " + std::to_string(n) + " chiplets cannot have rows of " +
                    std::to_string(columns_) + " (mesh_columns must divide the chiplet count)");
  switch_node_ = n;
  nodes_ = config.topology == Topology::Switch ? n + 1 : n;
  link_of_.assign(size_t(nodes_) * nodes_, -1);
  links_.reserve(size_t(nodes_) * nodes_);
  for (unsigned a = 0; a < n; ++a) {
    switch (config.topology) {
      case Topology::Ring:
        if (n > 1) add_link(a, (a + 1) % n, stats, path);
        if (n > 2) add_link(a, (a + n - 1) % n, stats, path);
        break;
      case Topology::Mesh:
        if (a % columns_ + 1 < columns_) add_link(a, a + 1, stats, path);
        if (a % columns_ > 0) add_link(a, a - 1, stats, path);
        if (a + columns_ < n) add_link(a, a + columns_, stats, path);
        if (a >= columns_) add_link(a, a - columns_, stats, path);
        break;
      case Topology::Switch:
        add_link(a, switch_node_, stats, path);
        add_link(switch_node_, a, stats, path);
        break;
      case Topology::Full:
        for (unsigned b = 0; b < n; ++b)
          if (b != a) add_link(a, b, stats, path);
        break;
    }
  }
}

ChipletFabric::Link& ChipletFabric::add_link(unsigned from, unsigned to, StatRegistry& stats,
                                             const std::string& path) {
  if (link_of_[size_t(from) * nodes_ + to] >= 0) return links_[link_of_[size_t(from) * nodes_ + to]];
  auto name = [&](unsigned node) { return node == switch_node_ && nodes_ > config_.chiplets ? std::string("switch")
                                                                                            : std::to_string(node); };
  StatGroup& g = stats.group(path + ".link[" + name(from) + "->" + name(to) + "]");
  Link l;
  l.from = from;
  l.to = to;
  l.flits = &g.counter("flits", "flits that crossed the link");
  l.bytes = &g.counter("bytes", "data bytes that crossed the link");
  l.busy_cycles = &g.counter("busy_cycles", "cycles the link was transferring (fractions summed, rounded at the end)");
  l.utilisation = &g.scalar("utilisation", "busy cycles / simulated cycles");
  link_of_[size_t(from) * nodes_ + to] = static_cast<int>(links_.size());
  links_.push_back(l);
  return links_.back();
}

int ChipletFabric::link_index(unsigned from, unsigned to) const { return link_of_[size_t(from) * nodes_ + to]; }

unsigned ChipletFabric::next_hop(unsigned at, unsigned to) const {
  const unsigned n = config_.chiplets;
  switch (config_.topology) {
    case Topology::Ring: {
      const unsigned up = (to + n - at) % n;  // hops going the increasing way
      return up <= n - up ? (at + 1) % n : (at + n - 1) % n;
    }
    case Topology::Mesh:
      if (at % columns_ != to % columns_) return at % columns_ < to % columns_ ? at + 1 : at - 1;
      return at < to ? at + columns_ : at - columns_;
    case Topology::Switch:
      return at == switch_node_ ? to : switch_node_;
    case Topology::Full:
      return to;
  }
  return to;
}

std::vector<unsigned> ChipletFabric::path(unsigned from, unsigned to) const {
  std::vector<unsigned> nodes{from};
  while (nodes.back() != to) nodes.push_back(next_hop(nodes.back(), to));
  return nodes;
}

uint64_t ChipletFabric::flits(uint64_t bytes) const {
  return bytes ? (bytes + config_.flit_bytes - 1) / config_.flit_bytes : 1;
}

double ChipletFabric::flit_seconds(uint64_t bytes) const {
  return double(flits(bytes) * config_.flit_bytes) / config_.link_bytes_per_second;
}

sc_time ChipletFabric::serialization(uint64_t bytes) const {
  // Whole cycles of the network's clock: a link delivers flits on clock edges.
  return period_ * std::ceil(flit_seconds(bytes) / period_.to_seconds() - 1e-9);
}

void ChipletFabric::book_interval(Link& l, double start, double end) {
  // Merge with the interval ending where this starts and the one starting where this ends
  // (within a millionth of the new interval: the slots are computed in floating point).
  const double tolerance = (end - start) * 1e-6;
  auto next = l.booked.lower_bound(start);
  if (next != l.booked.begin()) {
    auto prev = std::prev(next);
    if (prev->second >= start - tolerance) {
      start = prev->first;
      l.booked.erase(prev);
    }
  }
  if (next != l.booked.end() && next->first <= end + tolerance) {
    end = next->second;
    l.booked.erase(next);
  }
  l.booked.emplace(start, end);
}

double ChipletFabric::book(Link& l, uint64_t flits, double flit, double at) {
  double t = at, last = at;
  auto next = l.booked.upper_bound(t);
  if (next != l.booked.begin() && std::prev(next)->second > t) t = std::prev(next)->second;
  while (flits > 0) {
    // The idle slot from t to the next booking holds this many whole flits.
    const uint64_t fit = next == l.booked.end()
                             ? flits
                             : static_cast<uint64_t>(std::max(0.0, std::floor((next->first - t) / flit + 1e-6)));
    const uint64_t take = std::min(flits, fit);
    if (take > 0) {
      last = t + double(take) * flit;
      flits -= take;
    }
    if (flits == 0) {
      book_interval(l, t, last);
      break;
    }
    const double resume = next->second;
    if (take > 0) book_interval(l, t, last);  // may merge `next`: look it up again by time
    t = resume;
    next = l.booked.upper_bound(t);
  }
  return last;
}

sc_time ChipletFabric::cross(Link& l, uint64_t bytes, const sc_time& at) {
  const double period = period_.to_seconds();
  // Forget what no message can wait behind any more.
  const double now = sc_core::sc_time_stamp().to_seconds();
  while (!l.booked.empty() && l.booked.begin()->second <= now) l.booked.erase(l.booked.begin());
  const double flit = double(config_.flit_bytes) / config_.link_bytes_per_second;
  const double end = book(l, flits(bytes), flit, at.to_seconds());
  l.busy += flit_seconds(bytes);
  *l.flits += flits(bytes);
  *l.bytes += bytes;
  // The last flit arrives on the first clock edge (counted from `at`) at or after it is across.
  return at + period_ * std::ceil((end - at.to_seconds()) / period - 1e-9);
}

sc_time ChipletFabric::traverse(unsigned from, unsigned to, uint64_t bytes, const sc_time& at) {
  if (from == to) {
    ++local_messages_;
    local_bytes_ += bytes;
    return at + config_.local_latency;
  }
  ++remote_messages_;
  remote_bytes_ += bytes;
  sc_time t = at;
  const std::vector<unsigned> nodes = path(from, to);
  for (size_t k = 0; k + 1 < nodes.size(); ++k) {
    t = cross(links_[link_index(nodes[k], nodes[k + 1])], bytes, t) + config_.link_latency;
    ++hops_;
  }
  return t;
}

sc_time ChipletFabric::uncontended(unsigned from, unsigned to, uint64_t bytes) const {
  if (from == to) return config_.local_latency;
  const double hops = double(path(from, to).size() - 1);
  return (serialization(bytes) + config_.link_latency) * hops;
}

void ChipletFabric::finish(const sc_time& end) {
  const double cycles = end / period_;
  for (Link& l : links_) {
    l.busy_cycles->value = static_cast<uint64_t>(std::llround(l.busy / period_.to_seconds()));
    l.utilisation->value = cycles > 0 ? l.busy / period_.to_seconds() / cycles : 0.0;
  }
}

}  // namespace tessera
