// AtTargetPort: the approximately-timed target shell of a memory-side block,
// written once. The block (a Server) says what a request costs; the port does
// the base protocol around it:
//
//   nb_transport_fw only queues into timed queues (BEGIN_REQ, END_RESP);
//   accept_method   (a request arrived, or room was freed) accepts requests in
//                   arrival order while fewer than `depth` are accepted and not
//                   retired; a further BEGIN_REQ waits without END_REQ
//                   (back-pressure);
//   respond_method  sends responses in acceptance order, one in flight at a
//                   time, each no earlier than the time the server gave it;
//   end_resp_method retires the response in flight (END_RESP) and frees room.
//
// Processes are Activities (platform/scheduler.h): none runs while nothing is
// queued. The phases received are checked by a ProtocolChecker: anything but
// BEGIN_REQ and END_RESP on the forward path, and an END_RESP for a response
// that is not in flight, are reported as protocol violations.
#pragma once
#include <deque>
#include <string>

#include <systemc>
#include <tlm>

#include "models/mem/protocol_checker.h"
#include "models/mem/timed_queue.h"
#include "platform/scheduler.h"

namespace tessera {

class AtTargetPort {
 public:
  // What the owning block does with the requests the port accepts.
  class Server {
   public:
    virtual ~Server() = default;
    // A request is accepted now (END_REQ follows): perform it, set its
    // response status exactly once, and return the earliest time its
    // response may be sent. `arrived` is when its BEGIN_REQ arrived.
    virtual sc_core::sc_time serve(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) = 0;
    // Its BEGIN_RESP is about to be sent now.
    virtual void responding(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) = 0;
    // The number of accepted, unretired requests goes from `from` to `to` now.
    virtual void occupancy_changing(unsigned from, unsigned to) = 0;
  };

  // `socket` is the block's target socket whose nb_transport_fw calls
  // this port's; `owner` is the block path its protocol reports name.
  AtTargetPort(const std::string& owner, tlm::tlm_target_socket<>& socket, Server& server, unsigned depth);
  AtTargetPort(const AtTargetPort&) = delete;
  AtTargetPort& operator=(const AtTargetPort&) = delete;

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  unsigned depth() const { return depth_; }
  unsigned occupancy() const { return occupancy_; }

 private:
  struct Arrived {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
  };
  struct InService {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
    sc_core::sc_time ready;  // earliest time its BEGIN_RESP may be sent
  };

  void accept_method();
  void respond_method();
  void end_resp_method();
  void accept(const Arrived& a);
  void retire();
  void set_occupancy(unsigned n);

  ProtocolChecker checker_;
  tlm::tlm_target_socket<>& socket_;
  Server& server_;
  const unsigned depth_;

  Activity accept_{this, &AtTargetPort::accept_method};
  Activity respond_{this, &AtTargetPort::respond_method};
  Activity end_resp_{this, &AtTargetPort::end_resp_method};
  TimedQueue<tlm::tlm_generic_payload*> req_peq_{accept_};
  TimedQueue<tlm::tlm_generic_payload*> end_resp_peq_{end_resp_};
  Trigger space_event_{accept_};     // a request retired: accept_method may accept more
  Trigger respond_event_{respond_};  // a response may be sendable now
  std::deque<Arrived> waiting_;      // arrived, END_REQ withheld
  std::deque<InService> in_service_; // accepted, BEGIN_RESP not yet sent
  tlm::tlm_generic_payload* resp_in_flight_ = nullptr;  // BEGIN_RESP sent, END_RESP awaited
  sc_core::sc_time resp_free_at_;    // response channel reusable from then (annotated END_RESP)
  sc_core::sc_time last_ready_;      // keeps responses in order
  unsigned occupancy_ = 0;           // accepted and not retired
};

}  // namespace tessera
