// The check that a switch's port in front of a DRAM controller is no narrower
// than the memory behind it. A narrower port is a legal design (a deliberate
// bottleneck), so it is a warning, not an error: it names the port, both
// bandwidths and the parameter to change.
#include <cmath>

#include "platform/block.h"
#include "platform/netlist_builder.h"
#include "platform/units.h"

namespace tessera {

void NetlistBuilder::check_memory_ports() const {
  for (const BindingSpec& b : out_.bindings) {
    const InstanceSpec& from = out_.instances[index_.at(b.initiator.instance)];
    const InstanceSpec& to = out_.instances[index_.at(b.target.instance)];
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
                 std::to_string(static_cast<uint64_t>(width)) + " B/cycle) to " + b.target.text() + ", whose " +
                 std::to_string(to.params.at("channels").get<uint64_t>()) + " channels deliver " +
                 format_quantity(memory, Quantity::Bandwidth) +
                 ": the port is the bottleneck (set out_width to 0, unlimited, or to at least " +
                 std::to_string(static_cast<uint64_t>(std::ceil(memory / from.clock_hz))) + ")");
  }
}

}  // namespace tessera
