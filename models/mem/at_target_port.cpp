#include "models/mem/at_target_port.h"

#include <algorithm>

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

AtTargetPort::AtTargetPort(const std::string& owner, tlm::tlm_target_socket<>& socket, Server& server,
                           const Options& options)
    : socket_(socket),
      server_(server),
      depth_(options.depth),
      order_(options.order),
      accept_on_call_(options.accept_on_call),
      socket_name_(options.socket),
      checker_(owner) {}

tlm::tlm_sync_enum AtTargetPort::nb_transport_fw(tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (!checker_.forward_phase(trans, phase, socket_name_)) return tlm::TLM_COMPLETED;
  if (phase == tlm::BEGIN_REQ) {
    // Arriving now with nothing ahead of it and room, a request is accepted as
    // accept_method would accept it in this instant, without waking it.
    if (accept_on_call_ && delay == SC_ZERO_TIME && waiting_.empty() && req_peq_.empty()) {
      server_.accepting();
      if (has_room(trans)) {
        accept(Arrived{&trans, sim_now()}, true);
        phase = tlm::END_REQ;
        return tlm::TLM_UPDATED;
      }
    }
    req_peq_.push(&trans, delay);
    return tlm::TLM_ACCEPTED;
  }
  end_resp_peq_.push(&trans, delay);  // END_RESP
  return tlm::TLM_COMPLETED;
}

void AtTargetPort::accept_method() {
  for (tlm_generic_payload* t; req_peq_.pop(t);)
    waiting_.push_back(Arrived{t, sim_now()});
  server_.accepting();
  while (!waiting_.empty()) {
    if (!has_room(*waiting_.front().trans)) {
      server_.held(*waiting_.front().trans);
      return;
    }
    Arrived a = waiting_.front();
    waiting_.pop_front();
    accept(a, false);
  }
}

void AtTargetPort::accept(const Arrived& a, bool on_call) {
  set_occupancy(occupancy_ + 1);
  server_.serve(*a.trans, a.arrived);
  if (on_call) return;
  tlm::tlm_phase phase = tlm::END_REQ;
  sc_time delay = SC_ZERO_TIME;
  socket_->nb_transport_bw(*a.trans, phase, delay);  // END_REQ: the initiator may only accept it
  if (order_ == Order::Acceptance) respond_event_.notify(SC_ZERO_TIME);
}

void AtTargetPort::respond_at(tlm_generic_payload& trans, const sc_time& arrived, const sc_time& at) {
  if (order_ == Order::Acceptance) {
    // Woken by accept() once END_REQ is out.
    last_ready_ = std::max(at, last_ready_);
    in_order_.push_back(Response{&trans, arrived, last_ready_, seq_++});
    return;
  }
  by_ready_.push(Response{&trans, arrived, at, seq_++});
  respond_event_.notify(at - sim_now());
}

void AtTargetPort::pop_response() {
  if (order_ == Order::Acceptance)
    in_order_.pop_front();
  else
    by_ready_.pop();
}

void AtTargetPort::respond_method() {
  if (resp_in_flight_ || !has_response()) return;  // END_RESP or a new response wakes us
  const sc_time now = sim_now();
  const sc_time when = std::max(next_response().ready, resp_free_at_);
  if (when > now) {
    respond_.next_trigger(when - now);
    return;
  }
  const Response s = next_response();
  pop_response();
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
  retire(*s.trans);
  respond_event_.notify(delay);
}

void AtTargetPort::respond_early(tlm_generic_payload& trans, const sc_time& at) {
  set_occupancy(occupancy_ - 1);
  if (depth_ != 0) wake_waiting(SC_ZERO_TIME);
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = at - sim_now();
  checker_.early_response_completed(trans, socket_->nb_transport_bw(trans, phase, delay));
}

void AtTargetPort::end_resp_method() {
  for (tlm_generic_payload* t; end_resp_peq_.pop(t);) {
    if (!checker_.end_resp(*t, resp_in_flight_)) continue;
    resp_in_flight_ = nullptr;
    retire(*t);
    respond_event_.notify(SC_ZERO_TIME);
  }
}

void AtTargetPort::retire(tlm_generic_payload& trans) {
  set_occupancy(occupancy_ - 1);
  if (server_.retired(trans)) space_event_.notify(SC_ZERO_TIME);
}

void AtTargetPort::set_occupancy(unsigned n) {
  server_.occupancy_changing(occupancy_, n);
  occupancy_ = n;
}

}  // namespace tessera
