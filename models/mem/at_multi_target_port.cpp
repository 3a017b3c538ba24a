#include "models/mem/at_multi_target_port.h"

namespace tessera {

using tlm::tlm_generic_payload;

AtMultiTargetPort::AtMultiTargetPort(const std::string& owner, const std::string& name)
    : name_(name), checker_(owner) {}

void AtMultiTargetPort::forward_error(int socket, const tlm_generic_payload& trans, const tlm::tlm_phase& phase) const {
  if (phase == tlm::END_RESP)
    checker_.end_resp(trans, in_flight_[static_cast<size_t>(socket)]);
  else
    checker_.unexpected_phase(trans, phase, socket_name(socket));
}

void AtMultiTargetPort::unexpected_answer(int socket, const tlm_generic_payload& trans,
                                          const tlm::tlm_phase& phase) const {
  checker_.unexpected_phase(trans, phase, socket_name(socket) + " (TLM_UPDATED)");
}

void AtMultiTargetPort::early_not_completed(const tlm_generic_payload& trans) const {
  checker_.early_response_completed(trans, tlm::TLM_ACCEPTED);
}

}  // namespace tessera
