// "router": an address decoder between `in[]` initiators and `out[]` targets.
//
// Addresses are global: a transaction leaves on the port its address decodes
// to, unchanged. LT, AT, DMI and debug are forwarded. In AT the router keeps
// the base protocol's exclusion rules on both sides and passes back-pressure
// through: a BEGIN_REQ for a busy output waits, without END_REQ, until the
// output's END_REQ; a BEGIN_RESP for an input that has a response in flight
// waits, without END_RESP, until that input's END_RESP. Each traversal, request
// and response, costs `latency` cycles. A transaction to an unmapped address (or
// straddling two ranges or interleave chunks) gets TLM_ADDRESS_ERROR_RESPONSE.
// The input side's protocol (one BEGIN_RESP in flight per input, the
// requesters' phases, their checks) is the shared AtMultiTargetPort
// (models/mem/at_multi_target_port.h); the output side's (one BEGIN_REQ in
// flight per output, the targets' answers, their checks) is the shared
// AtInitiatorPort (models/mem/at_initiator_port.h).
#pragma once
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/flat_map.h"
#include "models/mem/at_initiator_port.h"
#include "models/mem/at_multi_target_port.h"
#include "models/mem/socket_table.h"
#include "models/mem/timed_queue.h"
#include "models/noc/address_map.h"
#include "platform/block.h"
#include "platform/param_table.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

// The values of a router's parameters, each filled by its one declaration in
// router_param_table() (router.cpp). The address map is declared there as
// well and parsed by the block type's create.
struct RouterConfig {
  uint64_t latency = 0;  // cycles
};
const ParamTable<RouterConfig>& router_param_table();

class Router : public Block {
 public:
  SC_HAS_PROCESS(Router);
  using TargetSocket = tlm_utils::simple_target_socket_tagged<Router>;
  using InitiatorSocket = tlm_utils::simple_initiator_socket_tagged<Router>;

  // `map` is already validated against ctx.socket_counts["out"].
  Router(const BlockContext& ctx, AddressMap map);

  std::vector<std::unique_ptr<TargetSocket>> in;
  std::vector<std::unique_ptr<InitiatorSocket>> out;

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;

  const AddressMap& address_map() const { return map_; }

 private:
  struct Route {
    int in = -1, out = -1;
    bool target_done = false;  // the target completed early: no END_RESP goes back to it
  };
  struct QueuedResponse {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time ready;
  };

  // Forward path (from in[id]).
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  // Backward path (from out[id]).
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  // The client of out_port_ (AtInitiatorPort).
  friend class AtInitiatorPort;
  void request_taken(int out_port, tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay,
                     bool on_call);
  void end_req(int out_port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay, bool on_call);
  tlm::tlm_sync_enum begin_resp(int out_port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay,
                                bool target_done, bool on_call);
  bool expects(tlm::tlm_generic_payload& trans) const;
  // The client of in_port_ (AtMultiTargetPort).
  friend class AtMultiTargetPort;
  tlm::tlm_sync_enum begin_req(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                               sc_core::sc_time& delay);
  void end_resp(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  void request_method();   // sends queued requests to free outputs
  void response_method();  // sends queued responses to free inputs
  void forward_request(int out_port);
  // A response from the target for `trans`; returns what to tell the target.
  tlm::tlm_sync_enum accept_response(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // Sends a response to its input now; true if the input took it at once.
  bool send_response(tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay);
  void finish(tlm::tlm_generic_payload& trans);
  void address_error(int id, tlm::tlm_generic_payload& trans);

  AddressMap map_;
  sc_core::sc_time latency_;

  FlatMap<tlm::tlm_generic_payload*, Route> routes_;
  Activity request_{this, &Router::request_method};
  Activity response_{this, &Router::response_method};
  TimedQueue<tlm::tlm_generic_payload*> req_peq_;
  Trigger output_free_event_{request_}, input_free_event_{response_};
  AtMultiTargetPort in_port_{path(), "in"};
  AtInitiatorPort out_port_{path(), "out", true};
  std::vector<std::deque<tlm::tlm_generic_payload*>> req_queue_;  // per output
  std::vector<std::deque<QueuedResponse>> resp_queue_;     // per input
  bool error_logged_ = false;

  Counter &forwarded_, &decode_errors_, &request_waits_, &response_waits_, &dmi_grants_;

  // Used at elaboration only: kept after the state the simulation touches.
  SocketTable<tlm::tlm_target_socket<>> targets_;
  SocketTable<tlm::tlm_initiator_socket<>> initiators_;
};

BlockType router_block_type();

}  // namespace tessera
