// AtMultiTargetPort: the approximately-timed target side of a block's
// upstream socket vector (in[0], in[1], ...), written once; the target-side
// twin of AtInitiatorPort. Per socket it keeps the base protocol's response
// exclusion: one BEGIN_RESP in flight until the requester's END_RESP (or an
// answer on the call that takes the response). It reads the forward path:
//
//   BEGIN_REQ   goes to the client's begin_req, whose answer is the call's
//               (the block's own rules: queueing, admission, back-pressure);
//   END_RESP    for the response in flight on that socket frees the socket,
//               then goes to the client's end_resp.
//
// and sends on the backward path what the client decides: END_REQ, a
// BEGIN_RESP that may stay in flight (begin_resp), or an early response the
// requester must complete on the call (respond_early). The phases received
// are checked by a ProtocolChecker: anything but BEGIN_REQ and END_RESP on the
// forward path, an END_RESP for a response not in flight on that socket, a
// TLM_UPDATED answer to BEGIN_RESP with a phase other than END_RESP (or
// BEGIN_RESP, which leaves it in flight), and an early response not completed
// on the call are reported as protocol violations naming the socket ("in[2]").
//
// What a block does with a request stays the block's: the router forwards it,
// the crossbar buffers it against its outputs, a cache looks it up. The
// port's calls are templates on the client's class, as AtInitiatorPort's are,
// so that they inline on the memory path.
#pragma once
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/mem/protocol_checker.h"

namespace tessera {

class AtMultiTargetPort {
 public:
  // What the owning block (the client) does with its requesters' calls,
  // called statically; a client befriends AtMultiTargetPort and has:
  //
  //   // BEGIN_REQ for `trans` on `socket`: the client's answer to the call
  //   // (it may update `phase` and `delay` as the base protocol allows).
  //   tlm_sync_enum begin_req(int socket, tlm_generic_payload& trans, tlm_phase& phase, sc_time& delay);
  //   // The response in flight on `socket` was ended (END_RESP, annotated
  //   // with `delay`); the socket may carry the next BEGIN_RESP.
  //   void end_resp(int socket, tlm_generic_payload& trans, sc_time& delay);

  // `name` is the sockets' netlist name; `owner` is the block path reports name.
  AtMultiTargetPort(const std::string& owner, const std::string& name);
  AtMultiTargetPort(const AtMultiTargetPort&) = delete;
  AtMultiTargetPort& operator=(const AtMultiTargetPort&) = delete;

  // The block's next target socket (index: the number added before), whose
  // nb_transport_fw calls this port's with that index.
  void add(tlm::tlm_target_socket<>& socket) {
    sockets_.push_back(&socket);
    backward_.push_back(nullptr);
    in_flight_.push_back(nullptr);
  }
  size_t size() const { return sockets_.size(); }

  template <class Client>
  tlm::tlm_sync_enum nb_transport_fw(Client& client, int socket, tlm::tlm_generic_payload& trans,
                                     tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase == tlm::BEGIN_REQ) return client.begin_req(socket, trans, phase, delay);
    if (phase == tlm::END_RESP && in_flight_[socket] == &trans) {
      in_flight_[socket] = nullptr;
      client.end_resp(socket, trans, delay);
      return tlm::TLM_COMPLETED;
    }
    forward_error(socket, trans, phase);
    return tlm::TLM_COMPLETED;
  }

  // Sends END_REQ for `trans` on `socket`; the requester may only accept it.
  void end_req(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay) {
    tlm::tlm_phase phase = tlm::END_REQ;
    backward(socket).nb_transport_bw(trans, phase, delay);
  }
  // Sends BEGIN_RESP for `trans` on `socket`, which has no response in flight,
  // annotated with `delay`. True if the requester took it on the call
  // (TLM_COMPLETED, or END_RESP); false if it stays in flight until END_RESP,
  // which may come from inside the call.
  bool begin_resp(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay) {
    in_flight_[socket] = &trans;  // before the call: END_RESP may come from inside it
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    const tlm::tlm_sync_enum r = backward(socket).nb_transport_bw(trans, phase, delay);
    if (r == tlm::TLM_ACCEPTED) return false;
    if (r == tlm::TLM_UPDATED && phase != tlm::END_RESP) {
      if (phase == tlm::BEGIN_RESP) return false;
      unexpected_answer(socket, trans, phase);
    }
    in_flight_[socket] = nullptr;
    return true;
  }
  // Sends BEGIN_RESP for `trans` on `socket` now, annotated with `delay`, to
  // a requester that asked for early responses (GpuAccess::early_response):
  // it must complete it on the call, so that it never holds the socket.
  void respond_early(int socket, tlm::tlm_generic_payload& trans, sc_core::sc_time delay) {
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    if (backward(socket).nb_transport_bw(trans, phase, delay) != tlm::TLM_COMPLETED) early_not_completed(trans);
  }

  // Whether `socket` has a response in flight (BEGIN_RESP sent, END_RESP awaited).
  bool busy(int socket) const { return in_flight_[socket] != nullptr; }

 private:
  // The requester's interface behind `socket`, looked up once (the socket's
  // port checks its binding on every call); bound by the time it is used. A
  // simple_target_socket's own backward process, which converts b_transport
  // for targets without one, is passed by: the port's blocks answer
  // b_transport themselves.
  tlm::tlm_bw_transport_if<>& backward(int socket) {
    tlm::tlm_bw_transport_if<>*& bw = backward_[static_cast<size_t>(socket)];
    if (!bw) bw = (*sockets_[static_cast<size_t>(socket)]).operator->();
    return *bw;
  }
  // Reports, out of line: the strings they build would otherwise cost the
  // hot callers a heavier entry and exit on every call.
  [[gnu::cold, gnu::noinline]] void forward_error(int socket, const tlm::tlm_generic_payload& trans,
                                                  const tlm::tlm_phase& phase) const;
  [[gnu::cold, gnu::noinline]] void unexpected_answer(int socket, const tlm::tlm_generic_payload& trans,
                                                      const tlm::tlm_phase& phase) const;
  [[gnu::cold, gnu::noinline]] void early_not_completed(const tlm::tlm_generic_payload& trans) const;
  std::string socket_name(int socket) const { return name_ + "[" + std::to_string(socket) + "]"; }

  std::vector<tlm::tlm_target_socket<>*> sockets_;
  std::vector<tlm::tlm_bw_transport_if<>*> backward_;   // per socket: see backward()
  std::vector<tlm::tlm_generic_payload*> in_flight_;    // per socket: BEGIN_RESP sent, END_RESP awaited

  // Used on protocol errors only: kept after the state the simulation touches.
  std::string name_;
  ProtocolChecker checker_;
};

}  // namespace tessera
