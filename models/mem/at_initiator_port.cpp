#include "models/mem/at_initiator_port.h"

namespace tessera {

using tlm::tlm_generic_payload;

AtInitiatorPort::AtInitiatorPort(const std::string& owner, const std::string& name, bool vector)
    : name_(name), vector_(vector), checker_(owner) {}

void AtInitiatorPort::unexpected_phase(const tlm_generic_payload& trans, const tlm::tlm_phase& phase, int socket,
                                       const char* note) const {
  const std::string where = vector_ ? name_ + "[" + std::to_string(socket) + "]" : name_;
  checker_.unexpected_phase(trans, phase, where + note);
}

}  // namespace tessera
