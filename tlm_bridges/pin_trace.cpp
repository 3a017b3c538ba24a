#include "tlm_bridges/pin_trace.h"

#include <filesystem>

#include "platform/errors.h"

namespace tessera {

sc_core::sc_trace_file* open_pin_trace(const std::string& block, const std::string& file) {
  if (file.empty()) return nullptr;
  if (file.size() < 5 || file.substr(file.size() - 4) != ".vcd")
    throw UserError(block + ": vcd '" + file + "' must name a file ending in .vcd");
  if (std::filesystem::exists(file))
    throw UserError(block + ": vcd file '" + file + "' exists; remove it or name another (it is not overwritten)");
  return sc_core::sc_create_vcd_trace_file(file.substr(0, file.size() - 4).c_str());
}

const ParamTable<PinWatchConfig>& pin_watch_param_table() {
  using C = PinWatchConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::checker, bool_param("checker", true, "watch the pins with the protocol checker; a violation fails the run"))
          .add(&C::timeout_cycles,
               int_param("timeout_cycles", 1000,
                         "cycles of the pins' clock a VALID may wait for READY, or a request for its response, before "
                         "the checker reports a timeout; 0: no timeouts",
                         0.0, 1e12, "cycles"))
          .add(&C::vcd, string_param("vcd", "", "write the pins to this VCD file (must end in .vcd and not exist); empty: none"));
  return table;
}

}  // namespace tessera
