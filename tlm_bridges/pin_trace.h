// The VCD file a bridge block writes its pins to when its `vcd` parameter
// names one, and the parameters every pin-level block shares.
#pragma once
#include <string>
#include <vector>

#include <systemc>

#include "platform/params.h"

namespace tessera {

// Opens `file` for `block`'s pins; nullptr when `file` is empty. A name not
// ending in .vcd, or a file that exists (it is never overwritten), is a
// UserError naming the block.
sc_core::sc_trace_file* open_pin_trace(const std::string& block, const std::string& file);

// `checker` (protocol checker on, default true), `timeout_cycles` and `vcd`.
std::vector<ParamSpec> pin_watch_params();

}  // namespace tessera
