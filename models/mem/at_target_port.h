// AtTargetPort: the approximately-timed target shell of a memory-side block,
// written once. The block (a Server) says what a request costs; the port does
// the base protocol around it:
//
//   nb_transport_fw only queues into timed queues (BEGIN_REQ, END_RESP), or,
//                   with Options::accept_on_call, accepts a request arriving
//                   now with nothing waiting ahead of it on the call
//                   (TLM_UPDATED, END_REQ);
//   accept_method   (a request arrived, or room was freed) accepts requests in
//                   arrival order while there is room: fewer than `depth`
//                   accepted and not retired (depth 0: no such limit) and the
//                   server admits the request. A request without room waits
//                   without END_REQ (back-pressure), and so do those behind it;
//   respond_method  sends responses one in flight at a time, each no earlier
//                   than the time the server gave it (respond_at), in the
//                   order Options::order names:
//                     Acceptance: the order requests were accepted (a response
//                                 ready early waits for those before it);
//                     Ready:      the order of their ready times, ties in the
//                                 order the server gave them (a controller that
//                                 reorders its work, such as FR-FCFS DRAM);
//   end_resp_method retires the response in flight (END_RESP) and frees room.
//
// A server may also answer a request at once with respond_early (for
// requesters that complete every BEGIN_RESP on the call); it keeps the room
// such a request holds itself and says when it frees it (wake_waiting).
//
// Processes are Activities (platform/scheduler.h): none runs while nothing is
// queued. The phases received are checked by a ProtocolChecker: anything but
// BEGIN_REQ and END_RESP on the forward path, an END_RESP for a response that
// is not in flight, and an early response not completed on the call are
// reported as protocol violations.
#pragma once
#include <deque>
#include <queue>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "models/mem/protocol_checker.h"
#include "models/mem/timed_queue.h"
#include "platform/scheduler.h"

namespace tessera {

class AtTargetPort {
 public:
  enum class Order { Acceptance, Ready };

  struct Options {
    unsigned depth = 0;           // accepted and unretired requests before back-pressure; 0: no limit of the port's
    Order order = Order::Acceptance;
    bool accept_on_call = false;  // accept inside nb_transport_fw when nothing waits ahead
    std::string socket = "nb_transport_fw";  // the name unexpected-phase reports give the socket
  };

  // What the owning block does with the requests the port accepts.
  class Server {
   public:
    virtual ~Server() = default;
    // A request is accepted now (END_REQ follows, or is the call's answer):
    // perform it, set its response status exactly once, and answer it with
    // respond_at (now or later) or respond_early. `arrived` is when its
    // BEGIN_REQ arrived.
    virtual void serve(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) = 0;
    // Its BEGIN_RESP is about to be sent now.
    virtual void responding(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) = 0;
    // Whether `trans` has room now besides the port's depth.
    virtual bool admits(const tlm::tlm_generic_payload&) { return true; }
    // The port is about to look at requests for acceptance, now.
    virtual void accepting() {}
    // The first waiting request has no room (admits said no): END_REQ is
    // withheld until wake_waiting, or a retirement that frees room.
    virtual void held(const tlm::tlm_generic_payload&) {}
    // The response to `trans` was taken (END_RESP, or BEGIN_RESP completed):
    // true if that frees room a waiting request may use.
    virtual bool retired(tlm::tlm_generic_payload&) { return true; }
    // The number of accepted, unretired requests goes from `from` to `to` now.
    virtual void occupancy_changing(unsigned, unsigned) {}
  };

  // `socket` is the block's target socket whose nb_transport_fw calls
  // this port's; `owner` is the block path its protocol reports name.
  AtTargetPort(const std::string& owner, tlm::tlm_target_socket<>& socket, Server& server, const Options& options);
  AtTargetPort(const AtTargetPort&) = delete;
  AtTargetPort& operator=(const AtTargetPort&) = delete;

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);

  // The response to an accepted request may be sent from `at` on (an
  // absolute time, not earlier than now).
  void respond_at(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived, const sc_core::sc_time& at);
  // Sends the response to an accepted request now, annotated for `at`, to a
  // requester that must complete it on the call; the port retires it at once.
  void respond_early(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at);
  // Room may have been freed (now + `delay`, or at the absolute time `at`):
  // waiting requests are looked at again then. Nothing if none waits.
  void wake_waiting(const sc_core::sc_time& delay) {
    if (!waiting_.empty()) space_event_.notify(delay);
  }
  void wake_waiting_at(uint64_t at) {
    if (!waiting_.empty()) space_event_.notify_at(at);
  }

  unsigned depth() const { return depth_; }
  unsigned occupancy() const { return occupancy_; }
  const ProtocolChecker& checker() const { return checker_; }

 private:
  struct Arrived {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
  };
  struct Response {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time arrived;
    sc_core::sc_time ready;  // earliest time its BEGIN_RESP may be sent
    uint64_t seq;            // order given (Order::Ready's ties)
    bool operator>(const Response& o) const { return ready != o.ready ? ready > o.ready : seq > o.seq; }
  };

  void accept_method();
  void respond_method();
  void end_resp_method();
  bool has_room(const tlm::tlm_generic_payload& trans) {
    return (depth_ == 0 || occupancy_ < depth_) && server_.admits(trans);
  }
  // Accepts `a`: END_REQ is sent unless the request is accepted on its own call.
  void accept(const Arrived& a, bool on_call);
  bool has_response() const { return order_ == Order::Acceptance ? !in_order_.empty() : !by_ready_.empty(); }
  const Response& next_response() const { return order_ == Order::Acceptance ? in_order_.front() : by_ready_.top(); }
  void pop_response();
  void retire(tlm::tlm_generic_payload& trans);
  void set_occupancy(unsigned n);

  tlm::tlm_target_socket<>& socket_;
  Server& server_;
  const unsigned depth_;
  const Order order_;
  const bool accept_on_call_;

  Activity accept_{this, &AtTargetPort::accept_method};
  Activity respond_{this, &AtTargetPort::respond_method};
  Activity end_resp_{this, &AtTargetPort::end_resp_method};
  TimedQueue<tlm::tlm_generic_payload*> req_peq_{accept_};
  TimedQueue<tlm::tlm_generic_payload*> end_resp_peq_{end_resp_};
  Trigger space_event_{accept_};     // room was freed: accept_method may accept more
  Trigger respond_event_{respond_};  // a response may be sendable now
  std::deque<Arrived> waiting_;      // arrived, END_REQ withheld
  std::deque<Response> in_order_;    // Order::Acceptance: accepted, BEGIN_RESP not yet sent
  std::priority_queue<Response, std::vector<Response>, std::greater<Response>> by_ready_;  // Order::Ready
  tlm::tlm_generic_payload* resp_in_flight_ = nullptr;  // BEGIN_RESP sent, END_RESP awaited
  sc_core::sc_time resp_free_at_;    // response channel reusable from then (annotated END_RESP)
  sc_core::sc_time last_ready_;      // Order::Acceptance: keeps responses in order
  uint64_t seq_ = 0;
  unsigned occupancy_ = 0;           // accepted and not retired

  // Used on protocol errors only: kept after the state the simulation touches.
  std::string socket_name_;
  ProtocolChecker checker_;
};

}  // namespace tessera
