#include "models/mem/at_initiator_port.h"

namespace tessera {

using sc_core::sc_time;
using tlm::tlm_generic_payload;

AtInitiatorPort::AtInitiatorPort(const std::string& owner, Client& client, const std::string& name, bool vector)
    : client_(client),
      name_(name),
      vector_(vector),
      checker_(owner) {}

std::string AtInitiatorPort::socket_name(int socket) const {
  return vector_ ? name_ + "[" + std::to_string(socket) + "]" : name_;
}

void AtInitiatorPort::taken(int socket, tlm_generic_payload& trans, const sc_time& delay, bool on_call) {
  in_flight_[socket] = nullptr;
  client_.request_taken(socket, trans, delay, on_call);
}

void AtInitiatorPort::begin_req(int socket, tlm_generic_payload& trans, sc_time delay) {
  in_flight_[socket] = &trans;  // before the call: END_REQ may come from inside it
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const tlm::tlm_sync_enum r = (*sockets_[socket])->nb_transport_fw(trans, phase, delay);
  if (r == tlm::TLM_ACCEPTED) return;  // END_REQ comes on the backward path
  if (in_flight_[socket] == &trans) taken(socket, trans, delay, true);
  if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
    client_.end_req(socket, trans, delay, true);
    return;
  }
  if (r == tlm::TLM_UPDATED && phase != tlm::BEGIN_RESP) {
    checker_.unexpected_phase(trans, phase, socket_name(socket) + " (TLM_UPDATED)");
    return;
  }
  // BEGIN_RESP at once (TLM_UPDATED), or the whole transaction done (TLM_COMPLETED).
  const bool target_done = r == tlm::TLM_COMPLETED;
  if (client_.begin_resp(socket, trans, delay, target_done, true) == tlm::TLM_COMPLETED && !target_done)
    end_resp(socket, trans, delay);  // the target waits for END_RESP
}

tlm::tlm_sync_enum AtInitiatorPort::nb_transport_bw(int socket, tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                    sc_time& delay) {
  if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
    // END_REQ, or a BEGIN_RESP standing for it: the socket takes its next request.
    if (in_flight_[socket] == &trans) {
      taken(socket, trans, delay, false);
      if (phase == tlm::END_REQ) {
        client_.end_req(socket, trans, delay, false);
        return tlm::TLM_ACCEPTED;
      }
    }
    if (phase == tlm::BEGIN_RESP && client_.expects(trans)) return client_.begin_resp(socket, trans, delay, false, false);
  }
  checker_.unexpected_phase(trans, phase, socket_name(socket));
  return tlm::TLM_COMPLETED;
}

}  // namespace tessera
