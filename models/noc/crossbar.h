// "crossbar": an address-decoding switch between `in[]` initiators and `out[]`
// targets with finite bandwidth per port, a pipeline latency and finite
// buffers, so that traffic contends where it meets.
//
// Every port is a full-duplex link: requests flow in[i] -> out[o], responses
// out[o] -> in[i]. A message occupies each link it crosses for
// max(1, ceil(bytes / width)) cycles, where bytes is the data it carries
// (a write's or atomic's data on the request, a read's or atomic's data on the
// response; 0 for the others, which still take one cycle). in_width/out_width
// 0 means an unlimited link (no cycles, no serialization).
//
// A request is store-and-forward through three stages:
//   input link   serialized per input; END_REQ goes back to the initiator when
//                the request has crossed it and has a place in its output's
//                buffer (`queue_depth` per output). With the buffer full,
//                END_REQ is withheld: the initiator's next request waits.
//   latency      `latency` cycles through the switch.
//   output link  serialized per output, in arrival order; one BEGIN_REQ in
//                flight per output (the target's END_REQ frees it), delivered
//                when its last byte has crossed (annotated delay).
// A response crosses the output link, the latency, and the input link
// the same way, into a buffer of `response_queue_depth` per input; the
// target's END_RESP is withheld while that buffer is full. A request that
// finds room and nothing ahead of it is admitted inside nb_transport_fw. An
// initiator that takes early responses (GpuAccess::early_response) gets its
// BEGIN_RESP when the response is taken with nothing unsent ahead of it,
// annotated with its input-link crossing; its place is held until then.
// Uncontended, a request costs x_in + latency + x_out cycles and so does its
// response. Transactions to unmapped addresses get TLM_ADDRESS_ERROR_RESPONSE
// at once. LT costs the uncontended time; DMI and debug are forwarded as by
// the router. The input side's protocol (one BEGIN_RESP in flight per input,
// the requesters' phases, their checks) is the shared AtMultiTargetPort
// (models/mem/at_multi_target_port.h); the output side's (one BEGIN_REQ in
// flight per output, the targets' answers, their checks) is the shared
// AtInitiatorPort (models/mem/at_initiator_port.h).
#pragma once
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/flat_map.h"
#include "models/mem/at_initiator_port.h"
#include "models/mem/at_multi_target_port.h"
#include "common/ring.h"
#include "models/mem/socket_table.h"
#include "models/mem/timed_queue.h"
#include "models/noc/address_map.h"
#include "models/noc/chiplet_fabric.h"
#include "platform/page_homes.h"
#include "platform/block.h"
#include "platform/param_table.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

// The values of a crossbar's parameters (a chiplet_network's too), each filled
// by its one declaration in crossbar_param_table() (crossbar.cpp). The
// address map is declared there as well and parsed by the block type's create.
struct CrossbarConfig {
  uint64_t latency = 0;  // cycles
  unsigned in_width = 0, out_width = 0, queue_depth = 0, response_queue_depth = 0;
  // A chiplet's crossbar placing pages by first touch (crossbar only, not the
  // chiplet network): page size (0: off), its chiplet, and how many of its last
  // outputs lead into the chiplet network.
  uint64_t first_touch_page = 0;
  unsigned chiplet = 0, remote_outputs = 0;
};
// The parameters every crossbar has (the chiplet network includes them).
const ParamTable<CrossbarConfig>& crossbar_param_table();
// A crossbar block's: those and its first-touch placement.
const ParamTable<CrossbarConfig>& crossbar_block_param_table();

class Crossbar : public Block {
 public:
  SC_HAS_PROCESS(Crossbar);
  using TargetSocket = tlm_utils::simple_target_socket_tagged<Crossbar>;
  using InitiatorSocket = tlm_utils::simple_initiator_socket_tagged<Crossbar>;

  // `map` is already validated against ctx.socket_counts["out"]. With
  // first_touch_page, a page first touched through this crossbar becomes
  // `chiplet`'s, and a request for a page homed on another chiplet goes to
  // one of the last `remote_outputs` outputs (the map's port modulo their
  // number) instead of the map's port.
  Crossbar(const BlockContext& ctx, AddressMap map);
  // A chiplet network: the switch stage is `fabric`'s links. Inputs and outputs
  // belong to chiplets in order, an equal number each (in[i] to chiplet
  // i * chiplets / inputs). With `first_touch_page` > 0 an address's home
  // chiplet is the chiplet of the first input that touched its page; the map
  // then only chooses among that chiplet's outputs.
  Crossbar(const BlockContext& ctx, AddressMap map, std::unique_ptr<ChipletFabric> fabric, uint64_t first_touch_page);
  ~Crossbar() override;

  std::vector<std::unique_ptr<TargetSocket>> in;
  std::vector<std::unique_ptr<InitiatorSocket>> out;

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;

 private:
  Crossbar(const BlockContext& ctx, AddressMap map, const CrossbarConfig& config);
  struct Route {
    int in = -1, out = -1;
    bool early = false;  // the initiator takes early responses (GpuAccess::early_response)
  };
  struct Queued {
    tlm::tlm_generic_payload* trans;  // null once sent early
    sc_core::sc_time ready;           // may leave the buffer from then; once sent early, leaves then
  };
  // One direction of one link: busy until `free`; statistics.
  struct Link {
    unsigned width = 0;  // bytes per cycle, 0 = unlimited
    sc_core::sc_time free;
  };
  // The ports that have something to do, so that processes never scan idle ports.
  struct PortSet {
    std::vector<int> list;
    std::vector<uint8_t> member;
    void add(int p) {
      if (member[p]) return;
      member[p] = 1;
      list.push_back(p);
    }
    // Calls work(p) for every member (including ones added meanwhile); keeps those for which it returns true.
    template <class F>
    void visit(F work) {
      size_t kept = 0;
      for (size_t k = 0; k < list.size(); ++k) {
        const int p = list[k];
        if (work(p))
          list[kept++] = p;
        else
          member[p] = 0;
      }
      list.resize(kept);
    }
  };
  struct PortStats {
    Counter *req_bytes, *resp_bytes, *req_busy_cycles, *resp_busy_cycles, *stalls;
    Scalar* bandwidth;
    Histogram* occupancy;  // outputs: request buffer; inputs: response buffer
    sc_core::sc_time first, last;
    bool active = false;
    unsigned occupancy_now = 0;
    sc_core::sc_time occupancy_since;
  };

  void end_of_simulation() override;
  // The output for a request from input `id`, or -1 (unmapped).
  int route(int id, const tlm::tlm_generic_payload& trans);
  void place_by_first_touch(const BlockContext& ctx, const CrossbarConfig& c);
  void use_page_homes(const BlockContext& ctx, uint64_t page);
  // First-touch placement: the chiplet a request from input `id` places an untouched page on.
  unsigned toucher(int id) const { return fabric_ ? chiplet_of_in(id) : home_chiplet_; }
  // First-touch placement: the output for the map's `port` of a page homed on `home`.
  int placed_output(unsigned home, int port) const;
  // When a message that has crossed its first link at `at` reaches the far side
  // of the switch stage: `latency` later, or across the chiplet fabric.
  sc_core::sc_time through_switch(int in_port, int out_port, uint64_t bytes, const sc_core::sc_time& at,
                                  bool response);
  // The same, uncontended (loosely-timed accesses).
  sc_core::sc_time switch_time(int in_port, int out_port, uint64_t bytes, bool response) const;

  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
  // The client of out_port_ (AtInitiatorPort).
  friend class AtInitiatorPort;
  void request_taken(int out_port, tlm::tlm_generic_payload& trans, const sc_core::sc_time& delay,
                     bool on_call);
  void end_req(int, tlm::tlm_generic_payload&, sc_core::sc_time&, bool) {}  // request_taken freed the output
  tlm::tlm_sync_enum begin_resp(int out_port, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay,
                                bool target_done, bool on_call);
  bool expects(tlm::tlm_generic_payload& trans) const;
  // The client of in_port_ (AtMultiTargetPort).
  friend class AtMultiTargetPort;
  tlm::tlm_sync_enum begin_req(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                               sc_core::sc_time& delay);
  void end_resp(int id, tlm::tlm_generic_payload&, sc_core::sc_time&) { finish_response(id); }

  void admit_method();    // arrived requests into output buffers (END_REQ)
  void forward_method();  // output buffers to targets (BEGIN_REQ)
  void respond_method();  // responses into input buffers, and to initiators (BEGIN_RESP)

  void admit(int out_port, tlm::tlm_generic_payload& trans);
  // Crosses the request's input link (from input `in_port`) into output `out_port`'s buffer; returns when it has
  // crossed (END_REQ's time).
  sc_core::sc_time enter_output(int in_port, int out_port, tlm::tlm_generic_payload& trans);
  void forward(int out_port, tlm::tlm_generic_payload& trans);
  void release_output(int out_port);
  // A response from output `o`'s target (`route`: a copy of its entry in routes_, which
  // may move as entries come and go): take it into its input's buffer if there is room.
  tlm::tlm_sync_enum take_or_hold_response(int o, tlm::tlm_generic_payload& trans, Route route,
                                           sc_core::sc_time& delay);
  // Puts a response into input route.in's buffer; returns when it has crossed the output
  // link. The caller has released that buffer's places due by now (release_sent).
  sc_core::sc_time take_response(int o, tlm::tlm_generic_payload& trans, Route route,
                                 const sc_core::sc_time& arrival);
  // Sends the response at the back of input i's buffer now, annotated with the time its
  // last byte crosses the input link, to an initiator that takes early responses; its
  // place stays taken until it would have started across the link. `bytes`: its response_bytes().
  void respond_early(int i, uint64_t bytes);
  // Frees the places of responses sent early that have left input i's buffer by `now`.
  void release_sent(int i, const sc_core::sc_time& now);
  void finish_response(int i);
  // Starts a message on a link no earlier than `earliest`; returns when its last byte has crossed.
  sc_core::sc_time cross(Link& link, uint64_t bytes, const sc_core::sc_time& earliest, Counter& bytes_stat,
                         Counter& busy_stat, PortStats& port);
  uint64_t cycles_for(uint64_t bytes, unsigned width) const;
  void set_occupancy(PortStats& port, unsigned n, const sc_core::sc_time& at = sim_now());
  void address_error(int id, tlm::tlm_generic_payload& trans);
  PortStats make_port_stats(StatRegistry& registry, const std::string& name, size_t depth);

  AddressMap map_;
  sc_core::sc_time latency_;
  sc_core::sc_time never_;  // sc_max_time(), a library call
  sc_core::sc_time one_cycle_;  // cycles(1): most messages take one cycle on a link
  std::unique_ptr<ChipletFabric> fabric_;
  PageHomes* homes_ = nullptr;  // first-touch placement (the platform's), or null
  unsigned home_chiplet_ = 0;   // a chiplet's crossbar: its chiplet
  int local_outputs_ = 0, remote_outputs_ = 0;  // a chiplet's crossbar: outputs to its own pages, into the network
  unsigned chiplet_of_in(int i) const;
  unsigned chiplet_of_out(int o) const;
  unsigned queue_depth_, response_queue_depth_;

  FlatMap<tlm::tlm_generic_payload*, Route> routes_;
  Activity admit_{this, &Crossbar::admit_method};
  Activity forward_{this, &Crossbar::forward_method};
  Activity respond_{this, &Crossbar::respond_method};
  TimedQueue<tlm::tlm_generic_payload*> req_peq_;
  Trigger admit_event_{admit_}, forward_event_{forward_}, respond_event_{respond_};
  bool in_respond_method_ = false;  // finish_response need not wake respond_method for its own loop
  // Per output.
  struct Arrived {
    tlm::tlm_generic_payload* trans;
    sc_core::sc_time at;
  };
  std::vector<Ring<Arrived>> blocked_;  // arrived, waiting for room; END_REQ not yet sent
  std::vector<Ring<Queued>> out_buffer_;                        // admitted; the front may be in flight
  AtInitiatorPort out_port_{path(), "out", true};     // BEGIN_REQ sent, END_REQ awaited
  std::vector<Link> out_req_link_, out_resp_link_;
  std::vector<PortStats> out_stats_;
  // Per input.
  struct HeldResponse {
    int out;
    tlm::tlm_generic_payload* trans;
    bool target_done;  // the target completed the transaction: it waits for no END_RESP
    sc_core::sc_time arrival;
  };
  std::vector<Ring<HeldResponse>> resp_blocked_;        // no room in the input's buffer yet
  void hold_response(int i, const HeldResponse& h);     // into resp_blocked_, with the wake-up it needs
  std::vector<Ring<Queued>> in_buffer_;                  // responses taken; the front may be in flight
  std::vector<unsigned> sent_early_;                     // how many of in_buffer_'s first entries were sent early
  AtMultiTargetPort in_port_{path(), "in"};              // BEGIN_RESP sent, END_RESP awaited
  std::vector<Link> in_req_link_, in_resp_link_;
  std::vector<PortStats> in_stats_;
  PortSet admit_work_, forward_work_;  // outputs with blocked requests / buffered requests
  PortSet respond_work_;               // inputs with buffered or held responses
  bool error_logged_ = false;

  Counter &forwarded_, &decode_errors_, &request_stalls_, &response_stalls_, &dmi_grants_;

  // Used at elaboration only: kept after the state the simulation touches.
  SocketTable<tlm::tlm_target_socket<>> targets_;
  SocketTable<tlm::tlm_initiator_socket<>> initiators_;
};

BlockType crossbar_block_type();

}  // namespace tessera
