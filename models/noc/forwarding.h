// What every address-decoding interconnect (router, crossbar) does the same
// way outside the timed path: forwarding DMI requests and debug accesses
// through an AddressMap to the output ports' targets.
#pragma once
#include <functional>

#include <tlm>

#include "models/noc/address_map.h"

namespace tessera {

// The forward interface of the target bound to output port `port`.
using OutputTarget = std::function<tlm::tlm_fw_transport_if<>&(int port)>;

// DMI through the map: granted only for ranges served by a single port (an
// interleaved range has no one target), clipped to that range, and with
// `round_trip` added to the target's latencies. Denials say how far they reach.
bool forward_dmi(const AddressMap& map, const OutputTarget& target, tlm::tlm_generic_payload& trans,
                 tlm::tlm_dmi& dmi, const sc_core::sc_time& round_trip);

// The output port for the map's `port` at `addr` (placement by first touch).
using PortOf = std::function<int(uint64_t addr, int port)>;

// A debug access, split at range and interleave-chunk boundaries; returns the
// bytes done (stops at the first unmapped byte or short answer). `place`, if
// given, chooses each piece's output from the map's port; pieces are then
// split at multiples of `page` too.
unsigned int forward_dbg(const AddressMap& map, const OutputTarget& target, tlm::tlm_generic_payload& trans,
                         const PortOf& place = nullptr, uint64_t page = 0);

}  // namespace tessera
