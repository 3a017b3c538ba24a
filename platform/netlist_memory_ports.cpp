// The checks of what is bound in front of a memory. A switch's port in front
// of a DRAM controller should be no narrower than the memory behind it; a
// narrower port is a legal design (a deliberate bottleneck), so it is a
// warning, not an error: it names the port, both bandwidths and the parameter
// to change. A memory-side cache (SocketSpec::to_memory) must be bound
// straight to a memory: anywhere else it is not what every access to that
// memory passes through, and kernel-boundary commands, which leave it alone,
// would not keep it right. That is an error.
#include <cmath>

#include "platform/block.h"
#include "platform/errors.h"
#include "platform/netlist_builder.h"
#include "platform/units.h"

namespace tessera {

namespace {

// The instance `b` leads to, seen through a memory-side cache (whose out is
// bound straight to a memory): the port in front of the cache carries that
// memory's traffic.
const InstanceSpec& memory_behind(const Netlist& net, const std::unordered_map<std::string, size_t>& index,
                                  const BindingSpec& b) {
  const InstanceSpec& to = net.instances[index.at(b.target.instance)];
  const SocketSpec* out = to.type->socket("out");
  if (!out || !out->to_memory) return to;
  for (const BindingSpec& next : net.bindings)
    if (next.initiator.instance == to.path && next.initiator.socket == "out")
      return net.instances[index.at(next.target.instance)];
  return to;
}

}  // namespace

void NetlistBuilder::check_memory_ports() const {
  for (const BindingSpec& b : out_.bindings) {
    const InstanceSpec& from = out_.instances[index_.at(b.initiator.instance)];
    const InstanceSpec& to = memory_behind(out_, index_, b);
    const std::string& kind = from.type->name;
    if (to.type->name != "dram_controller" || b.initiator.socket != "out" ||
        (kind != "crossbar" && kind != "chiplet_network"))
      continue;
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
  for (const BindingSpec& b : out_.bindings) {
    const InstanceSpec& from = out_.instances[index_.at(b.initiator.instance)];
    const SocketSpec* spec = from.type->socket(b.initiator.socket);
    if (!spec || !spec->to_memory) continue;
    const InstanceSpec& to = out_.instances[index_.at(b.target.instance)];
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

}  // namespace tessera
