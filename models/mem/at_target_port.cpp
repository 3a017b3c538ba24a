#include "models/mem/at_target_port.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

AtTargetPort::AtTargetPort(const std::string& owner, tlm::tlm_target_socket<>& socket, Server& server,
                           unsigned depth)
    : checker_(owner), socket_(socket), server_(server), depth_(depth) {}

tlm::tlm_sync_enum AtTargetPort::nb_transport_fw(tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (!checker_.forward_phase(trans, phase)) return tlm::TLM_COMPLETED;
  if (phase == tlm::BEGIN_REQ) {
    req_peq_.push(&trans, delay);
    return tlm::TLM_ACCEPTED;
  }
  end_resp_peq_.push(&trans, delay);  // END_RESP
  return tlm::TLM_COMPLETED;
}

void AtTargetPort::accept_method() {
  for (tlm_generic_payload* t; req_peq_.pop(t);)
    waiting_.push_back(Arrived{t, sim_now()});
  while (!waiting_.empty() && occupancy_ < depth_) {
    Arrived a = waiting_.front();
    waiting_.pop_front();
    accept(a);
  }
}

void AtTargetPort::accept(const Arrived& a) {
  set_occupancy(occupancy_ + 1);
  last_ready_ = std::max(server_.serve(*a.trans, a.arrived), last_ready_);
  in_service_.push_back(InService{a.trans, a.arrived, last_ready_});

  tlm::tlm_phase phase = tlm::END_REQ;
  sc_time delay = SC_ZERO_TIME;
  socket_->nb_transport_bw(*a.trans, phase, delay);  // END_REQ: the initiator may only accept it
  respond_event_.notify(SC_ZERO_TIME);
}

void AtTargetPort::respond_method() {
  if (resp_in_flight_ || in_service_.empty()) return;  // END_RESP or a new request wakes us
  const sc_time now = sim_now();
  const sc_time when = std::max(in_service_.front().ready, resp_free_at_);
  if (when > now) {
    respond_.next_trigger(when - now);
    return;
  }
  InService s = in_service_.front();
  in_service_.pop_front();
  server_.responding(*s.trans, s.arrived);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = SC_ZERO_TIME;
  tlm::tlm_sync_enum r = socket_->nb_transport_bw(*s.trans, phase, delay);
  if (r == tlm::TLM_ACCEPTED || (r == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP)) {
    resp_in_flight_ = s.trans;  // wait for END_RESP on the forward path
    return;
  }
  // TLM_COMPLETED, or TLM_UPDATED with END_RESP: the response is taken.
  resp_free_at_ = now + delay;
  retire();
  respond_event_.notify(delay);
}

void AtTargetPort::end_resp_method() {
  for (tlm_generic_payload* t; end_resp_peq_.pop(t);) {
    if (!checker_.end_resp(*t, resp_in_flight_)) continue;
    resp_in_flight_ = nullptr;
    retire();
    respond_event_.notify(SC_ZERO_TIME);
  }
}

void AtTargetPort::retire() {
  set_occupancy(occupancy_ - 1);
  space_event_.notify(SC_ZERO_TIME);
}

void AtTargetPort::set_occupancy(unsigned n) {
  server_.occupancy_changing(occupancy_, n);
  occupancy_ = n;
}

}  // namespace tessera
