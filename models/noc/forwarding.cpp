#include "models/noc/forwarding.h"

#include <algorithm>

namespace tessera {

bool forward_dmi(const AddressMap& map, const OutputTarget& target, tlm::tlm_generic_payload& trans,
                 tlm::tlm_dmi& dmi, const sc_core::sc_time& round_trip) {
  const uint64_t addr = trans.get_address();
  const AddressRegion* r = map.find(addr);
  if (!r || !r->single_port()) {
    // Interleaved or unmapped: no single target owns a range, so deny for this chunk.
    dmi.allow_none();
    dmi.set_start_address(r ? r->chunk_first(addr) : addr);
    dmi.set_end_address(r ? r->chunk_last(addr) : addr);
    return false;
  }
  const bool granted = target(r->ports.front()).get_direct_mem_ptr(trans, dmi);
  // The target may describe more than this region; other addresses may route elsewhere.
  if (dmi.get_start_address() < r->base) {
    if (granted) dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (r->base - dmi.get_start_address()));
    dmi.set_start_address(r->base);
  }
  if (dmi.get_end_address() > r->last()) dmi.set_end_address(r->last());
  if (granted) {
    dmi.set_read_latency(dmi.get_read_latency() + round_trip);
    dmi.set_write_latency(dmi.get_write_latency() + round_trip);
  }
  return granted;
}

unsigned int forward_dbg(const AddressMap& map, const OutputTarget& target, tlm::tlm_generic_payload& trans,
                         const PortOf& place, uint64_t page) {
  const uint64_t addr0 = trans.get_address();
  const unsigned int len0 = trans.get_data_length();
  unsigned char* data0 = trans.get_data_ptr();
  unsigned int done = 0;
  while (done < len0) {
    const uint64_t addr = addr0 + done;
    const AddressRegion* r = map.find(addr);
    if (!r) break;
    uint64_t room = r->chunk_last(addr) - addr + 1;
    if (page) room = std::min(room, page - addr % page);
    const unsigned int piece = static_cast<unsigned int>(std::min<uint64_t>(len0 - done, room));
    trans.set_address(addr);
    trans.set_data_length(piece);
    trans.set_data_ptr(data0 + done);
    const int port = place ? place(addr, r->port_of(addr)) : r->port_of(addr);
    const unsigned int got = target(port).transport_dbg(trans);
    done += got;
    if (got < piece) break;
  }
  trans.set_address(addr0);
  trans.set_data_length(len0);
  trans.set_data_ptr(data0);
  return done;
}

}  // namespace tessera
