#include "models/noc/router.h"

#include <algorithm>
#include <type_traits>

#include "models/mem/gpu_access.h"
#include "models/mem/tlm_helpers.h"
#include "models/noc/forwarding.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

// The generic binder works on the base socket types; the tagged sockets must be them.
static_assert(std::is_base_of_v<tlm::tlm_target_socket<>, Router::TargetSocket>);
static_assert(std::is_base_of_v<tlm::tlm_initiator_socket<>, Router::InitiatorSocket>);

Router::Router(const BlockContext& ctx, AddressMap map)
    : Block(ctx),
      map_(std::move(map)),
      latency_(cycles(router_param_table().read(ctx.params).latency)),
      req_peq_(request_),
      forwarded_(stats().counter("forwarded", "transactions sent to an output")),
      decode_errors_(stats().counter("decode_errors", "transactions to unmapped addresses (address error)")),
      request_waits_(stats().counter("request_waits", "requests that waited for a busy output")),
      response_waits_(stats().counter("response_waits", "responses that waited for a busy input")),
      dmi_grants_(stats().counter("dmi_grants", "DMI requests granted by a target through the router")) {
  const int n_in = ctx.socket_count("in"), n_out = ctx.socket_count("out");
  for (int i = 0; i < n_in; ++i) {
    in.push_back(std::make_unique<TargetSocket>(("in_" + std::to_string(i)).c_str()));
    in.back()->register_b_transport(this, &Router::b_transport, i);
    in.back()->register_nb_transport_fw(this, &Router::nb_transport_fw, i);
    in.back()->register_get_direct_mem_ptr(this, &Router::get_direct_mem_ptr, i);
    in.back()->register_transport_dbg(this, &Router::transport_dbg, i);
    in_port_.add(*in.back());
  }
  for (int o = 0; o < n_out; ++o) {
    out.push_back(std::make_unique<InitiatorSocket>(("out_" + std::to_string(o)).c_str()));
    out.back()->register_nb_transport_bw(this, &Router::nb_transport_bw, o);
    out.back()->register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr, o);
    out_port_.add(*out.back());
  }
  targets_.add("in", in);
  initiators_.add("out", out);
  req_queue_.resize(n_out);
  resp_queue_.resize(n_in);
}

tlm::tlm_initiator_socket<>* Router::initiator_socket(const std::string& name, int index) {
  return initiators_.find(name, index);
}

tlm::tlm_target_socket<>* Router::target_socket(const std::string& name, int index) {
  return targets_.find(name, index);
}

void Router::address_error(int id, tlm_generic_payload& trans) {
  ++decode_errors_;
  if (!error_logged_) {
    warn("no route for " + describe(trans) + " from in[" + std::to_string(id) +
         "]: unmapped, or straddling two ranges or interleave chunks (further errors are only counted)");
    error_logged_ = true;
  }
  trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// ---- LT, DMI, debug --------------------------------------------------------

void Router::b_transport(int id, tlm_generic_payload& trans, sc_time& delay) {
  const int port = map_.decode(trans.get_address(), trans.get_data_length());
  delay += latency_;
  if (port < 0) return address_error(id, trans);
  ++forwarded_;
  (*out[port])->b_transport(trans, delay);
  delay += latency_;
}

bool Router::get_direct_mem_ptr(int, tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const bool granted = forward_dmi(map_, [this](int p) -> tlm::tlm_fw_transport_if<>& { return *(*out[p]).operator->(); },
                                   trans, dmi, 2 * latency_);
  if (granted) ++dmi_grants_;
  return granted;
}

unsigned int Router::transport_dbg(int, tlm_generic_payload& trans) {
  return forward_dbg(map_, [this](int p) -> tlm::tlm_fw_transport_if<>& { return *(*out[p]).operator->(); }, trans);
}

void Router::invalidate_direct_mem_ptr(int, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (auto& socket : in) (*socket)->invalidate_direct_mem_ptr(start, end);
}

// ---- AT: requests ----------------------------------------------------------

tlm::tlm_sync_enum Router::nb_transport_fw(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  return in_port_.nb_transport_fw(*this, id, trans, phase, delay);
}

tlm::tlm_sync_enum Router::begin_req(int id, tlm_generic_payload& trans, tlm::tlm_phase&, sc_time& delay) {
  const int port = map_.decode(trans.get_address(), trans.get_data_length());
  if (port < 0) {
    // Answer at once: TLM_COMPLETED ends the transaction for the initiator.
    address_error(id, trans);
    delay += latency_;
    return tlm::TLM_COMPLETED;
  }
  routes_[&trans] = Route{id, port, false};
  take_four_phase(trans);  // responses wait in our buffers: we cannot take them at once
  req_peq_.push(&trans, delay);
  return tlm::TLM_ACCEPTED;
}

// The input is free again: the target waiting for our END_RESP is released.
void Router::end_resp(int, tlm_generic_payload& trans, sc_time& delay) {
  const Route route = routes_.at(&trans);
  if (!route.target_done) out_port_.end_resp(route.out, trans, delay);
  finish(trans);
  input_free_event_.notify(SC_ZERO_TIME);
}

void Router::request_method() {
  for (tlm_generic_payload* t; req_peq_.pop(t);) {
    const int port = routes_.at(t).out;
    if (out_port_.busy(port) || !req_queue_[port].empty()) ++request_waits_;
    req_queue_[port].push_back(t);
  }
  for (size_t p = 0; p < req_queue_.size(); ++p)
    while (!out_port_.busy(static_cast<int>(p)) && !req_queue_[p].empty()) forward_request(static_cast<int>(p));
}

void Router::forward_request(int port) {
  tlm_generic_payload& trans = *req_queue_[port].front();
  req_queue_[port].pop_front();
  ++forwarded_;
  out_port_.begin_req(*this, port, trans, latency_);
}

// ---- AT: responses ---------------------------------------------------------

tlm::tlm_sync_enum Router::nb_transport_bw(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  return out_port_.nb_transport_bw(*this, id, trans, phase, delay);
}

// On the call's return the request loop goes on by itself; later, it is woken.
void Router::request_taken(int, tlm_generic_payload&, const sc_time&, bool on_call) {
  if (!on_call) output_free_event_.notify(SC_ZERO_TIME);
}

void Router::end_req(int, tlm_generic_payload& trans, sc_time& delay, bool) {
  in_port_.end_req(routes_.at(&trans).in, trans, delay);
}

tlm::tlm_sync_enum Router::begin_resp(int, tlm_generic_payload& trans, sc_time& delay, bool target_done,
                                      bool on_call) {
  if (target_done) routes_.at(&trans).target_done = true;
  const tlm::tlm_sync_enum r = accept_response(trans, delay);
  if (on_call) delay = SC_ZERO_TIME;  // an END_RESP owed to the target goes back at once
  return r;
}

bool Router::expects(tlm_generic_payload& trans) const { return routes_.count(&trans) != 0; }

tlm::tlm_sync_enum Router::accept_response(tlm_generic_payload& trans, sc_time& delay) {
  Route& route = routes_.at(&trans);
  const int i = route.in;
  if (!in_port_.busy(i) && resp_queue_[i].empty()) {
    if (!send_response(trans, delay + latency_)) return tlm::TLM_ACCEPTED;
    // The input completed it at once: so do we, towards the target.
    finish(trans);
    return tlm::TLM_COMPLETED;
  }
  ++response_waits_;
  resp_queue_[i].push_back(QueuedResponse{&trans, sim_now() + delay});
  return tlm::TLM_ACCEPTED;  // END_RESP withheld: back-pressure to the target
}

bool Router::send_response(tlm_generic_payload& trans, const sc_time& delay) {
  return in_port_.begin_resp(routes_.at(&trans).in, trans, delay);
}

void Router::response_method() {
  const sc_time now = sim_now();
  sc_time next_ready = sc_core::SC_ZERO_TIME;
  bool waiting = false;
  for (size_t i = 0; i < resp_queue_.size(); ++i) {
    while (!in_port_.busy(static_cast<int>(i)) && !resp_queue_[i].empty()) {
      QueuedResponse q = resp_queue_[i].front();
      if (q.ready > now) {
        if (!waiting || q.ready < next_ready) next_ready = q.ready;
        waiting = true;
        break;
      }
      resp_queue_[i].pop_front();
      if (!send_response(*q.trans, latency_)) break;
      // Taken at once: release the target, which is waiting for our END_RESP.
      Route route = routes_.at(q.trans);
      if (!route.target_done) {
        sc_time delay = SC_ZERO_TIME;
        out_port_.end_resp(route.out, *q.trans, delay);
      }
      finish(*q.trans);
    }
  }
  if (waiting) response_.next_trigger(next_ready - now);
}

void Router::finish(tlm_generic_payload& trans) { routes_.erase(&trans); }

// ---- registration ----------------------------------------------------------

const ParamTable<RouterConfig>& router_param_table() {
  using C = RouterConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(address_map_param())
          .add(&C::latency, int_param("latency", 1, "cycles added to each traversal, request and response", 0.0, 1e6,
                                      "cycles"));
  return table;
}

BlockType router_block_type() {
  BlockType t;
  t.name = "router";
  t.doc = "Address decoder: forwards LT, AT (with back-pressure), DMI and debug transactions from in[] to the out[] "
          "port its address_map names; addresses are not translated.";
  t.params = router_param_table().specs();
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.vector = true;
  in.doc = "requests from initiators";
  in.forwards_to = "out";
  SocketSpec out;
  out.name = "out";
  out.dir = SocketDir::Initiator;
  out.vector = true;
  out.doc = "to targets; address_map ports index these";
  t.sockets = {in, out};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    AddressMap map =
        AddressMap::from_json(ctx.params.raw("address_map"), ctx.socket_count("out"), "router '" + ctx.path + "'");
    if (ctx.socket_count("in") <= 0) throw UserError("router '" + ctx.path + "': no in sockets are bound");
    return std::make_unique<Router>(ctx, std::move(map));
  };
  return t;
}

TESSERA_REGISTER_BLOCK(router_block_type);

}  // namespace tessera
