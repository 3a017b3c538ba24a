// AtInitiatorPort: the approximately-timed initiator side of a block's
// downstream sockets (one, or a vector), written once. Per socket it keeps the
// base protocol's request exclusion: one BEGIN_REQ in flight until the
// target's END_REQ (or a BEGIN_RESP standing for it), and it reads each answer
// of the target, on the call's return path or on the backward path:
//
//   TLM_ACCEPTED              the request stays in flight;
//   END_REQ                   the request is taken: Client::request_taken, then
//                             Client::end_req;
//   BEGIN_RESP                the request is taken (if it was in flight), then
//                             Client::begin_resp with the response;
//   TLM_COMPLETED on the call the request is taken and the transaction done:
//                             Client::begin_resp with target_done.
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
  // What the owning block does with its targets' answers. `on_call`: the
  // answer came as the return of the port's BEGIN_REQ call, not on the
  // backward path.
  class Client {
   public:
    virtual ~Client() = default;
    // The request in flight on `socket` was taken: the socket may carry the
    // next BEGIN_REQ. `delay` is the answer's annotation.
    virtual void request_taken(int socket, tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay,
                               bool on_call) = 0;
    // END_REQ for `trans` (after request_taken).
    virtual void end_req(int, tlm::tlm_generic_payload&, sc_core::sc_time&, bool) {}
    // A response to `trans` from `socket`; `target_done`: the target completed
    // the transaction and waits for no END_RESP. Returns TLM_COMPLETED if the
    // response is taken now, leaving in `delay` the annotation of the END_RESP
    // (on the backward path: of the answer), or TLM_ACCEPTED if the client
    // ends it later (end_resp).
    virtual tlm::tlm_sync_enum begin_resp(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay,
                                          bool target_done, bool on_call) = 0;
    // Whether a response to `trans` is awaited (a transaction the client sent).
    virtual bool expects(tlm::tlm_generic_payload& trans) const = 0;
  };

  // `name` is the sockets' netlist name; `vector`: reports name them with
  // their index. `owner` is the block path reports name.
  AtInitiatorPort(const std::string& owner, Client& client, const std::string& name, bool vector);
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
  void begin_req(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay);
  tlm::tlm_sync_enum nb_transport_bw(int socket, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // Ends a response the client held (begin_resp answered TLM_ACCEPTED).
  void end_resp(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
    tlm::tlm_phase phase = tlm::END_RESP;
    (*sockets_[socket])->nb_transport_fw(trans, phase, delay);
  }

  // Whether `socket` has a request in flight (BEGIN_REQ sent, END_REQ awaited).
  bool busy(int socket) const { return in_flight_[socket] != nullptr; }
  const ProtocolChecker& checker() const { return checker_; }

 private:
  void taken(int socket, tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay, bool on_call);
  std::string socket_name(int socket) const;

  Client& client_;
  std::vector<tlm::tlm_initiator_socket<>*> sockets_;
  std::vector<tlm::tlm_generic_payload*> in_flight_;  // per socket: BEGIN_REQ sent, END_REQ awaited

  // Used on protocol errors only: kept after the state the simulation touches.
  std::string name_;
  bool vector_;
  ProtocolChecker checker_;
};

}  // namespace tessera
