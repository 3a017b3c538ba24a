// The VCD file a bridge block writes its pins to when its `vcd` parameter
// names one, and the parameters every pin-level block shares.
#pragma once
#include <string>
#include <vector>

#include <systemc>

#include "platform/param_table.h"

namespace tessera {

// Opens `file` for `block`'s pins; nullptr when `file` is empty. A name not
// ending in .vcd, or a file that exists (it is never overwritten), is a
// UserError naming the block.
sc_core::sc_trace_file* open_pin_trace(const std::string& block, const std::string& file);

// The parameters every pin-level block shares: `checker` (protocol checker
// on, default true), `timeout_cycles` and `vcd`. A block's config derives
// from PinWatchConfig and include()s the table.
struct PinWatchConfig {
  bool checker = true;
  uint64_t timeout_cycles = 0;
  std::string vcd;
};
const ParamTable<PinWatchConfig>& pin_watch_param_table();

}  // namespace tessera
