// AtInitiatorPort: the approximately-timed initiator side of a block's
// downstream sockets (one, or a vector), written once. Per socket it keeps the
// base protocol's request exclusion: one BEGIN_REQ in flight until the
// target's END_REQ (or a BEGIN_RESP standing for it), and it reads each answer
// of the target, on the call's return path or on the backward path:
//
//   TLM_ACCEPTED              the request stays in flight;
//   END_REQ                   the request is taken: the client's request_taken,
//                             then its end_req;
//   BEGIN_RESP                the request is taken (if it was in flight), then
//                             the client's begin_resp with the response;
//   TLM_COMPLETED on the call the request is taken and the transaction done:
//                             the client's begin_resp with target_done.
//
// A response the client takes at once (TLM_COMPLETED) that came on the call
// is ended with END_RESP by the port; one the client holds (TLM_ACCEPTED) it
// ends later with end_resp. The phases received are checked by a
// ProtocolChecker: anything but END_REQ and BEGIN_RESP on the backward path,
// an END_REQ for a request not in flight, a BEGIN_RESP for a transaction the
// client does not expect, and a TLM_UPDATED answer with another phase are
// reported as protocol violations naming the socket ("out", "out[2]").
#pragma once
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/mem/protocol_checker.h"

namespace tessera {

class AtInitiatorPort {
 public:
  // What the owning block (the client) does with its targets' answers, called
  // statically (the port's calls are templates on the client's class, so that
  // they inline on the memory path); a client befriends AtInitiatorPort and has:
  //
  //   // The request in flight on `socket` was taken: the socket may carry the
  //   // next BEGIN_REQ. `delay` is the answer's annotation; `on_call`: the
  //   // answer came as the return of the port's BEGIN_REQ call.
  //   void request_taken(int socket, tlm_generic_payload& trans, const sc_time& delay, bool on_call);
  //   // END_REQ for `trans` (after request_taken).
  //   void end_req(int socket, tlm_generic_payload& trans, sc_time& delay, bool on_call);
  //   // A response to `trans` from `socket`; `target_done`: the target
  //   // completed the transaction and waits for no END_RESP. Returns
  //   // TLM_COMPLETED if the response is taken now, leaving in `delay` the
  //   // annotation of the END_RESP (on the backward path: of the answer), or
  //   // TLM_ACCEPTED if the client ends it later (end_resp).
  //   tlm_sync_enum begin_resp(int socket, tlm_generic_payload& trans, sc_time& delay, bool target_done,
  //                            bool on_call);
  //   // Whether a response to `trans` is awaited (a transaction the client sent).
  //   bool expects(tlm_generic_payload& trans) const;

  // `name` is the sockets' netlist name; `vector`: reports name them with
  // their index. `owner` is the block path reports name.
  AtInitiatorPort(const std::string& owner, const std::string& name, bool vector);
  AtInitiatorPort(const AtInitiatorPort&) = delete;
  AtInitiatorPort& operator=(const AtInitiatorPort&) = delete;

  // The block's next initiator socket (index: the number added before),
  // whose nb_transport_bw calls this port's with that index.
  void add(tlm::tlm_initiator_socket<>& socket) {
    sockets_.push_back(&socket);
    in_flight_.push_back(nullptr);
  }

  // Sends BEGIN_REQ for `trans` on `socket`, annotated with `delay`; the
  // socket must have no request in flight.
  template <class Client>
  void begin_req(Client& client, int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay);
  template <class Client>
  tlm::tlm_sync_enum nb_transport_bw(Client& client, int socket, tlm::tlm_generic_payload& trans,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay);
  // Ends a response the client held (begin_resp answered TLM_ACCEPTED).
  void end_resp(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    tlm::tlm_phase phase = tlm::END_RESP;
    (*sockets_[socket])->nb_transport_fw(trans, phase, delay);
  }

  // Whether `socket` has a request in flight (BEGIN_REQ sent, END_REQ awaited).
  bool busy(int socket) const { return in_flight_[socket] != nullptr; }

 private:
  [[gnu::cold, gnu::noinline]] void unexpected_phase(const tlm::tlm_generic_payload& trans,
                                                     const tlm::tlm_phase& phase, int socket,
                                                     const char* note = "") const;

  std::vector<tlm::tlm_initiator_socket<>*> sockets_;
  std::vector<tlm::tlm_generic_payload*> in_flight_;  // per socket: BEGIN_REQ sent, END_REQ awaited

  // Used on protocol errors only: kept after the state the simulation touches.
  std::string name_;
  bool vector_;
  ProtocolChecker checker_;
};

template <class Client>
void AtInitiatorPort::begin_req(Client& client, int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay) {
  in_flight_[socket] = &trans;  // before the call: END_REQ may come from inside it
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  const tlm::tlm_sync_enum r = (*sockets_[socket])->nb_transport_fw(trans, phase, delay);
  if (r == tlm::TLM_ACCEPTED) return;  // END_REQ comes on the backward path
  if (in_flight_[socket] == &trans) {
    in_flight_[socket] = nullptr;
    client.request_taken(socket, trans, delay, true);
  }
  if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
    client.end_req(socket, trans, delay, true);
    return;
  }
  if (r == tlm::TLM_UPDATED && phase != tlm::BEGIN_RESP) return unexpected_phase(trans, phase, socket, " (TLM_UPDATED)");
  // BEGIN_RESP at once (TLM_UPDATED), or the whole transaction done (TLM_COMPLETED).
  const bool target_done = r == tlm::TLM_COMPLETED;
  if (client.begin_resp(socket, trans, delay, target_done, true) == tlm::TLM_COMPLETED && !target_done)
    end_resp(socket, trans, delay);  // the target waits for END_RESP
}

template <class Client>
tlm::tlm_sync_enum AtInitiatorPort::nb_transport_bw(Client& client, int socket, tlm::tlm_generic_payload& trans,
                                                    tlm::tlm_phase& phase, sc_core::sc_time& delay) {
  if (phase == tlm::END_REQ || phase == tlm::BEGIN_RESP) {
    // END_REQ, or a BEGIN_RESP standing for it: the socket takes its next
    // request. A BEGIN_RESP's annotation is its response's time (an early
    // response, GpuAccess::early_response): the request was taken now.
    if (in_flight_[socket] == &trans) {
      in_flight_[socket] = nullptr;
      client.request_taken(socket, trans, phase == tlm::END_REQ ? delay : sc_core::SC_ZERO_TIME, false);
      if (phase == tlm::END_REQ) {
        client.end_req(socket, trans, delay, false);
        return tlm::TLM_ACCEPTED;
      }
    }
    if (phase == tlm::BEGIN_RESP && client.expects(trans)) return client.begin_resp(socket, trans, delay, false, false);
  }
  unexpected_phase(trans, phase, socket);
  return tlm::TLM_COMPLETED;
}

}  // namespace tessera
