// The checks of what is bound in front of a memory. A switch's port in front
// of a DRAM controller should be no narrower than the memory behind it; a
// narrower port is a legal design (a deliberate bottleneck), so it is a
// warning, not an error: it names the port, both bandwidths and the parameter
// to change. A memory-side cache (SocketSpec::to_memory) must be bound
// straight to a memory: anywhere else it is not what every access to that
// memory passes through, and kernel-boundary commands, which leave it alone,
// would not keep it right. That is an error.
//
// A cache whose MSHRs outnumber its queue places cannot use them all: every
// open MSHR holds at least one accepted request that is answered only when the
// fill returns, and `queue_depth` bounds those requests (not so for a
// write-through cache that allocates on writes, which is left out). A warning,
// once per type and pair of values, at the first instance.
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "platform/block.h"
#include "platform/errors.h"
#include "platform/netlist_builder.h"
#include "platform/units.h"

namespace tessera {

// The instance binding `n` leads to, seen through a memory-side cache (whose
// out is bound straight to a memory): the port in front of the cache carries
// that memory's traffic.
const InstanceSpec& NetlistBuilder::memory_behind(size_t n) const {
  const size_t to = binding_ends_[n].second;
  const SocketSpec* out = out_.instances[to].type->socket("out");
  if (!out || !out->to_memory) return out_.instances[to];
  const SocketBindings& next = bindings_from(to, "out");
  return out_.instances[next.empty() ? to : binding_ends_[next.begin()->second].second];
}

void NetlistBuilder::check_memory_ports() const {
  for (size_t n = 0; n < out_.bindings.size(); ++n) {
    const BindingSpec& b = out_.bindings[n];
    const InstanceSpec& from = out_.instances[binding_ends_[n].first];
    const std::string& kind = from.type->name;
    if (b.initiator.socket != "out" || (kind != "crossbar" && kind != "chiplet_network")) continue;
    const InstanceSpec& to = memory_behind(n);
    if (to.type->name != "dram_controller") continue;
    const double width = from.params.at("out_width").get<double>();  // bytes per cycle, 0 = unlimited
    const double port = width * from.clock_hz;
    const double memory = to.params.at("channels").get<double>() * to.params.at("bandwidth").get<double>();
    if (width == 0 || port >= memory) continue;
    log_line(LogLevel::Warning, from.path,
             b.initiator.text() + " carries at most " + format_quantity(port, Quantity::Bandwidth) + " (out_width " +
                 std::to_string(static_cast<uint64_t>(width)) + " B/cycle) to " + b.target.text() +
                 (to.path == b.target.instance ? "" : " (in front of " + to.path + ")") + ", whose " +
                 std::to_string(to.params.at("channels").get<uint64_t>()) + " channels deliver " +
                 format_quantity(memory, Quantity::Bandwidth) +
                 ": the port is the bottleneck (set out_width to 0, unlimited, or to at least " +
                 std::to_string(static_cast<uint64_t>(std::ceil(memory / from.clock_hz))) + ")");
  }
}

void NetlistBuilder::check_memory_side() const {
  for (size_t n = 0; n < out_.bindings.size(); ++n) {
    const BindingSpec& b = out_.bindings[n];
    const InstanceSpec& from = out_.instances[binding_ends_[n].first];
    const SocketSpec* spec = from.type->socket(b.initiator.socket);
    if (!spec || !spec->to_memory) continue;
    const InstanceSpec& to = out_.instances[binding_ends_[n].second];
    bool passes_on = false;
    for (const SocketSpec& s : to.type->sockets)
      passes_on = passes_on || (s.dir == SocketDir::Initiator && s.protocol == spec->protocol);
    if (passes_on)
      throw NetlistError(from.error_path(),
                         from.path + " (" + from.type->name + ") is a memory-side cache: its " + b.initiator.socket +
                             " must be bound straight to a memory (memory, dram_controller), but " +
                             b.initiator.text() + " is bound to " + b.target.text() + " (" + to.type->name +
                             "), which passes requests on; put the " + from.type->name +
                             " between that block and the memory instead");
  }
}

void NetlistBuilder::check_cache_mshrs() const {
  struct Group {
    const InstanceSpec* first;
    size_t count;
  };
  std::map<std::tuple<std::string, uint64_t, uint64_t>, Group> groups;
  std::vector<std::tuple<std::string, uint64_t, uint64_t>> order;
  for (const InstanceSpec& inst : out_.instances) {
    const json* mshrs = inst.params.find("mshrs");
    const json* queue = inst.params.find("queue_depth");
    if (!mshrs || !queue || !mshrs->is_number() || !queue->is_number()) continue;
    const uint64_t m = mshrs->get<uint64_t>(), q = queue->get<uint64_t>();
    if (m <= q) continue;
    // A write-through write that allocates is answered when the write is, not
    // when its fill returns: its MSHR may outlive the request.
    const json* policy = inst.params.find("write_policy");
    const json* allocate = inst.params.find("write_allocate");
    if (policy && *policy == "write_through" && allocate && *allocate == true) continue;
    const auto key = std::make_tuple(inst.type->name, m, q);
    auto [it, added] = groups.try_emplace(key, Group{&inst, 0});
    if (added) order.push_back(key);
    ++it->second.count;
  }
  for (const auto& key : order) {
    const Group& g = groups.at(key);
    const std::string m = std::to_string(std::get<1>(key)), q = std::to_string(std::get<2>(key));
    log_line(LogLevel::Warning, g.first->path,
             "mshrs " + m + " exceed queue_depth " + q + ": every MSHR in use holds an accepted request that is " +
                 "not yet answered, so at most " + q + " of the " + m + " MSHRs are ever used (set queue_depth " +
                 "to at least " + m + ", or mshrs to at most " + q + ")" +
                 (g.count > 1 ? "; the same for " + std::to_string(g.count - 1) + " more " + std::get<0>(key) +
                                    (g.count > 2 ? " instances" : " instance")
                              : ""));
  }
}

}  // namespace tessera
