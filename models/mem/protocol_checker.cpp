#include "models/mem/protocol_checker.h"

#include <sstream>

#include "models/mem/tlm_helpers.h"

namespace tessera {

void ProtocolChecker::unexpected_phase(const tlm::tlm_generic_payload& t, const tlm::tlm_phase& phase,
                                       const std::string& socket) const {
  std::ostringstream name;
  name << phase;
  violation("unexpected phase " + name.str() + " on " + socket, t);
}

void ProtocolChecker::violation(const std::string& rule, const tlm::tlm_generic_payload& t) const {
  SC_REPORT_ERROR(owner_.c_str(), ("protocol violation: " + rule + " for " + describe(t)).c_str());
}

}  // namespace tessera
