#include "models/noc/crossbar.h"

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

static_assert(std::is_base_of_v<tlm::tlm_target_socket<>, Crossbar::TargetSocket>);
static_assert(std::is_base_of_v<tlm::tlm_initiator_socket<>, Crossbar::InitiatorSocket>);

namespace {
bool is_atomic(const tlm_generic_payload& t) {
  const GpuAccess* a = t.get_extension<GpuAccess>();
  return a && a->kind == AccessKind::Atomic;
}
// Data a request carries towards the target, and a response back: compressed
// lines (GpuAccess::wire) cross at their compressed size.
uint64_t request_bytes(const tlm_generic_payload& t) { return t.is_write() ? wire_bytes(t) : 0; }
uint64_t response_bytes(const tlm_generic_payload& t) {
  return t.is_read() || is_atomic(t) ? wire_bytes(t) : 0;
}
}  // namespace

Crossbar::PortStats Crossbar::make_port_stats(StatRegistry& registry, const std::string& name, size_t depth) {
  StatGroup& g = registry.group(path() + "." + name);
  const bool output = name.rfind("out", 0) == 0;
  PortStats s;
  s.req_bytes = &g.counter("req_bytes", "request data bytes that crossed this port's link");
  s.resp_bytes = &g.counter("resp_bytes", "response data bytes that crossed this port's link");
  s.req_busy_cycles = &g.counter("req_busy_cycles", "cycles the request direction of the link was transferring");
  s.resp_busy_cycles = &g.counter("resp_busy_cycles", "cycles the response direction of the link was transferring");
  s.stalls = &g.counter("stalls", output ? "requests that found this output's buffer full (END_REQ withheld)"
                                         : "responses that found this input's buffer full (END_RESP withheld)");
  s.bandwidth = &g.scalar("bandwidth", "bytes over the link / time from its first to its last transfer, B/s");
  s.occupancy = &g.histogram("queue_occupancy",
                             output ? "requests in this output's buffer, weighted by time in cycles"
                                    : "responses in this input's buffer, weighted by time in cycles",
                             1, depth + 1);
  return s;
}

Crossbar::Crossbar(const BlockContext& ctx, AddressMap map)
    : Crossbar(ctx, std::move(map), crossbar_block_param_table().read(ctx.params)) {}

Crossbar::Crossbar(const BlockContext& ctx, AddressMap map, const CrossbarConfig& c)
    : Block(ctx),
      map_(std::move(map)),
      latency_(cycles(c.latency)),
      never_(sc_core::sc_max_time()),
      one_cycle_(cycles(1)),
      queue_depth_(c.queue_depth),
      response_queue_depth_(c.response_queue_depth),
      req_peq_(admit_),
      forwarded_(stats().counter("forwarded", "transactions sent to an output")),
      decode_errors_(stats().counter("decode_errors", "transactions to unmapped addresses (address error)")),
      request_stalls_(stats().counter("request_stalls", "requests whose END_REQ waited for room in an output buffer")),
      response_stalls_(stats().counter("response_stalls", "responses whose END_RESP waited for room in an input buffer")),
      dmi_grants_(stats().counter("dmi_grants", "DMI requests granted by a target through the crossbar")) {
  const int n_in = ctx.socket_count("in"), n_out = ctx.socket_count("out");
  const unsigned in_width = c.in_width;
  const unsigned out_width = c.out_width;
  for (int i = 0; i < n_in; ++i) {
    in.push_back(std::make_unique<TargetSocket>(("in_" + std::to_string(i)).c_str()));
    in.back()->register_b_transport(this, &Crossbar::b_transport, i);
    in.back()->register_nb_transport_fw(this, &Crossbar::nb_transport_fw, i);
    in.back()->register_get_direct_mem_ptr(this, &Crossbar::get_direct_mem_ptr, i);
    in.back()->register_transport_dbg(this, &Crossbar::transport_dbg, i);
    in_port_.add(*in.back());
    in_stats_.push_back(make_port_stats(*ctx.stats, "in[" + std::to_string(i) + "]", response_queue_depth_));
  }
  for (int o = 0; o < n_out; ++o) {
    out.push_back(std::make_unique<InitiatorSocket>(("out_" + std::to_string(o)).c_str()));
    out.back()->register_nb_transport_bw(this, &Crossbar::nb_transport_bw, o);
    out.back()->register_invalidate_direct_mem_ptr(this, &Crossbar::invalidate_direct_mem_ptr, o);
    out_port_.add(*out.back());
    out_stats_.push_back(make_port_stats(*ctx.stats, "out[" + std::to_string(o) + "]", queue_depth_));
  }
  targets_.add("in", in);
  initiators_.add("out", out);
  blocked_.resize(n_out);
  out_buffer_.resize(n_out);
  out_req_link_.assign(n_out, Link{out_width, SC_ZERO_TIME});
  out_resp_link_.assign(n_out, Link{out_width, SC_ZERO_TIME});
  resp_blocked_.resize(n_in);
  in_buffer_.resize(n_in);
  sent_early_.assign(n_in, 0);
  in_req_link_.assign(n_in, Link{in_width, SC_ZERO_TIME});
  in_resp_link_.assign(n_in, Link{in_width, SC_ZERO_TIME});
  admit_work_.member.assign(n_out, 0);
  forward_work_.member.assign(n_out, 0);
  respond_work_.member.assign(n_in, 0);
  if (c.first_touch_page) place_by_first_touch(ctx, c);
}

void Crossbar::place_by_first_touch(const BlockContext& ctx, const CrossbarConfig& c) {
  const int n_out = static_cast<int>(out.size());
  const int remote = static_cast<int>(c.remote_outputs);
  if (remote < 1 || remote >= n_out)
    throw UserError(path() + ": first_touch_page needs remote_outputs between 1 and " + std::to_string(n_out - 1) +
                    " (the last outputs, into the chiplet network), not " + std::to_string(remote));
  local_outputs_ = n_out - remote;
  remote_outputs_ = remote;
  for (const AddressRegion& r : map_.regions())
    for (int p : r.ports)
      if (p >= local_outputs_)
        throw UserError(path() + ": address_map names out[" + std::to_string(p) + "], one of the remote_outputs (" +
                        std::to_string(local_outputs_) + ".." + std::to_string(n_out - 1) +
                        "): with first_touch_page the map chooses among the chiplet's own outputs");
  home_chiplet_ = c.chiplet;
  use_page_homes(ctx, c.first_touch_page);
}

void Crossbar::use_page_homes(const BlockContext& ctx, uint64_t page) {
  homes_ = &ctx.shared->get<PageHomes>(kPageHomesName, page);
  homes_->check_page_size(page, path());
}

Crossbar::Crossbar(const BlockContext& ctx, AddressMap map, std::unique_ptr<ChipletFabric> fabric,
                   uint64_t first_touch_page)
    : Crossbar(ctx, std::move(map), crossbar_param_table().read(ctx.params)) {
  fabric_ = std::move(fabric);
  const unsigned n = fabric_->chiplets();
  if (in.size() % n || out.size() % n)
    throw UserError(path() + ": " + std::to_string(in.size()) + " inputs and " + std::to_string(out.size()) +
                    " outputs do not divide evenly among " + std::to_string(n) + " chiplets");
  if (first_touch_page) use_page_homes(ctx, first_touch_page);
}

Crossbar::~Crossbar() = default;

unsigned Crossbar::chiplet_of_in(int i) const { return static_cast<unsigned>(i * fabric_->chiplets() / in.size()); }
unsigned Crossbar::chiplet_of_out(int o) const {
  return static_cast<unsigned>(o * fabric_->chiplets() / out.size());
}

int Crossbar::route(int id, const tlm_generic_payload& trans) {
  const int port = map_.decode(trans.get_address(), trans.get_data_length());
  if (port < 0 || !homes_) return port;
  return placed_output(homes_->touch(trans.get_address(), toucher(id)), port);
}

int Crossbar::placed_output(unsigned home, int port) const {
  if (fabric_) {  // the map's choice among the home chiplet's outputs keeps its interleave inside the chiplet
    const int per_chiplet = static_cast<int>(out.size() / fabric_->chiplets());
    return static_cast<int>(home) * per_chiplet + port % per_chiplet;
  }
  return home == home_chiplet_ ? port : local_outputs_ + port % remote_outputs_;
}

sc_time Crossbar::through_switch(int i, int o, uint64_t bytes, const sc_time& at, bool response) {
  if (!fabric_) return at + latency_;
  const unsigned a = chiplet_of_in(i), b = chiplet_of_out(o);
  return response ? fabric_->traverse(b, a, bytes, at) : fabric_->traverse(a, b, bytes, at);
}

sc_time Crossbar::switch_time(int i, int o, uint64_t bytes, bool) const {
  if (!fabric_) return latency_;
  return fabric_->uncontended(chiplet_of_in(i), chiplet_of_out(o), bytes);
}

void Crossbar::end_of_simulation() {
  if (fabric_) fabric_->finish(sim_now());
  for (int i = 0; i < static_cast<int>(in.size()); ++i) release_sent(i, sim_now());
  // Bandwidth from the final byte counts and transfer span (here rather than
  // at every crossing: the statistics are read only after the simulation).
  for (std::vector<PortStats>* ports : {&in_stats_, &out_stats_})
    for (PortStats& port : *ports) {
      const double span = (port.last - port.first).to_seconds();
      if (span > 0) port.bandwidth->value = static_cast<double>(port.req_bytes->value + port.resp_bytes->value) / span;
    }
}

tlm::tlm_initiator_socket<>* Crossbar::initiator_socket(const std::string& name, int index) {
  return initiators_.find(name, index);
}

tlm::tlm_target_socket<>* Crossbar::target_socket(const std::string& name, int index) {
  return targets_.find(name, index);
}

void Crossbar::address_error(int id, tlm_generic_payload& trans) {
  ++decode_errors_;
  if (!error_logged_) {
    warn("no route for " + describe(trans) + " from in[" + std::to_string(id) +
         "]: unmapped, or straddling two ranges or interleave chunks (further errors are only counted)");
    error_logged_ = true;
  }
  trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// ---- links -------------------------------------------------------------------

uint64_t Crossbar::cycles_for(uint64_t bytes, unsigned width) const {
  if (width == 0) return 0;
  return std::max<uint64_t>(1, (bytes + width - 1) / width);
}

sc_time Crossbar::cross(Link& link, uint64_t bytes, const sc_time& earliest, Counter& bytes_stat, Counter& busy_stat,
                        PortStats& port) {
  const uint64_t n = cycles_for(bytes, link.width);
  const sc_time start = std::max(earliest, link.free);
  const sc_time done = start + (n == 1 ? one_cycle_ : cycles(n));  // cycles() multiplies in floating point
  link.free = done;
  bytes_stat += bytes;
  busy_stat += n;
  if (!port.active) port.first = start;
  port.active = true;
  port.last = std::max(port.last, done);
  return done;
}

void Crossbar::set_occupancy(PortStats& port, unsigned n, const sc_time& at) {
  port.occupancy->sample(port.occupancy_now, static_cast<uint64_t>((at - port.occupancy_since) / clock_period()));
  port.occupancy_now = n;
  port.occupancy_since = at;
}

// ---- LT, DMI, debug ----------------------------------------------------------

void Crossbar::b_transport(int id, tlm_generic_payload& trans, sc_time& delay) {
  const int port = route(id, trans);
  if (port < 0) {
    delay += latency_;
    return address_error(id, trans);
  }
  // Uncontended: the links are not reserved, LT traffic only pays for crossing them.
  const uint64_t req = request_bytes(trans);
  delay += cycles(cycles_for(req, in_req_link_[id].width) + cycles_for(req, out_req_link_[port].width)) +
           switch_time(id, port, req, false);
  *in_stats_[id].req_bytes += req;
  *out_stats_[port].req_bytes += req;
  ++forwarded_;
  (*out[port])->b_transport(trans, delay);
  const uint64_t resp = response_bytes(trans);
  delay += cycles(cycles_for(resp, out_resp_link_[port].width) + cycles_for(resp, in_resp_link_[id].width)) +
           switch_time(id, port, resp, true);
  *in_stats_[id].resp_bytes += resp;
  *out_stats_[port].resp_bytes += resp;
}

bool Crossbar::get_direct_mem_ptr(int, tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const bool granted = forward_dmi(
      map_, [this](int p) -> tlm::tlm_fw_transport_if<>& { return *(*out[p]).operator->(); }, trans, dmi,
      2 * latency_);
  if (granted) ++dmi_grants_;
  return granted;
}

// A debug access follows the pages' placement without placing a page.
unsigned int Crossbar::transport_dbg(int id, tlm_generic_payload& trans) {
  PortOf place;
  if (homes_)
    place = [this, id](uint64_t addr, int port) { return placed_output(homes_->home_or(addr, toucher(id)), port); };
  return forward_dbg(
      map_, [this](int p) -> tlm::tlm_fw_transport_if<>& { return *(*out[p]).operator->(); }, trans, place,
      homes_ ? homes_->page_size() : 0);
}

void Crossbar::invalidate_direct_mem_ptr(int, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (auto& socket : in) (*socket)->invalidate_direct_mem_ptr(start, end);
}

// ---- AT: requests ------------------------------------------------------------

tlm::tlm_sync_enum Crossbar::nb_transport_fw(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                             sc_time& delay) {
  return in_port_.nb_transport_fw(*this, id, trans, phase, delay);
}

tlm::tlm_sync_enum Crossbar::begin_req(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  const int port = route(id, trans);
  if (port < 0) {
    address_error(id, trans);
    delay += latency_;
    return tlm::TLM_COMPLETED;
  }
  const GpuAccess* access = trans.get_extension<GpuAccess>();
  routes_[&trans] = Route{id, port, access && access->early_response};
  take_four_phase(trans);  // responses wait in our buffers: we cannot take them at once
  // Arriving now with nothing ahead of it and room in its output's buffer, a
  // request is admitted as admit_method would admit it in this instant; END_REQ
  // goes back on the return path instead of waking admit_method.
  if (delay == SC_ZERO_TIME && req_peq_.empty() && blocked_[port].empty() &&
      out_buffer_[port].size() < queue_depth_) {
    delay = enter_output(id, port, trans) - sim_now();
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }
  req_peq_.push(&trans, delay);
  return tlm::TLM_ACCEPTED;
}

void Crossbar::admit_method() {
  const sc_time now = sim_now();
  for (tlm_generic_payload* t; req_peq_.pop(t);) {
    const int o = routes_.at(t).out;
    blocked_[o].push_back(Arrived{t, now});
    admit_work_.add(o);
  }
  admit_work_.visit([&](int o) {
    while (!blocked_[o].empty() && out_buffer_[o].size() < queue_depth_) {
      const Arrived a = blocked_[o].front();
      blocked_[o].pop_front();
      // A stall is a wait in time; room freed later in the same instant is none.
      if (a.at < now) {
        ++request_stalls_;
        ++*out_stats_[o].stalls;
      }
      admit(o, *a.trans);
    }
    return !blocked_[o].empty();
  });
}

void Crossbar::admit(int o, tlm_generic_payload& trans) {
  const int i = routes_.at(&trans).in;
  const sc_time crossed = enter_output(i, o, trans);
  in_port_.end_req(i, trans, crossed - sim_now());  // the initiator may send its next request after this
}

sc_time Crossbar::enter_output(int i, int o, tlm_generic_payload& trans) {
  const sc_time now = sim_now();
  PortStats& ps = in_stats_[i];
  const sc_time crossed = cross(in_req_link_[i], request_bytes(trans), now, *ps.req_bytes, *ps.req_busy_cycles, ps);
  const sc_time ready = through_switch(i, o, request_bytes(trans), crossed, false);
  out_buffer_[o].push_back(Queued{&trans, ready});
  forward_work_.add(o);
  set_occupancy(out_stats_[o], static_cast<unsigned>(out_buffer_[o].size()));
  forward_event_.notify(ready - now);
  return crossed;
}

void Crossbar::forward_method() {
  const sc_time now = sim_now();
  sc_time next = never_;
  forward_work_.visit([&](int o) {
    if (out_buffer_[o].empty()) return false;
    if (out_port_.busy(o)) return true;  // its END_REQ will wake us
    const Queued q = out_buffer_[o].front();
    const sc_time start = std::max(q.ready, out_req_link_[o].free);
    if (start > now) {
      next = std::min(next, start);
      return true;
    }
    forward(o, *q.trans);
    return !out_buffer_[o].empty();
  });
  if (next != never_) forward_.next_trigger(next - now);
}

void Crossbar::forward(int o, tlm_generic_payload& trans) {
  const sc_time now = sim_now();
  PortStats& ps = out_stats_[o];
  const sc_time arrives = cross(out_req_link_[o], request_bytes(trans), now, *ps.req_bytes, *ps.req_busy_cycles, ps);
  ++forwarded_;
  out_port_.begin_req(*this, o, trans, arrives - now);
}

void Crossbar::request_taken(int o, tlm_generic_payload&, const sc_time&, bool) { release_output(o); }

void Crossbar::release_output(int o) {
  out_buffer_[o].pop_front();
  set_occupancy(out_stats_[o], static_cast<unsigned>(out_buffer_[o].size()));
  // Wake only what the freed output matters to: requests waiting for its buffer, its next request.
  if (!blocked_[o].empty()) admit_event_.notify(SC_ZERO_TIME);
  if (!out_buffer_[o].empty()) forward_event_.notify(SC_ZERO_TIME);
}

// ---- AT: responses -----------------------------------------------------------

tlm::tlm_sync_enum Crossbar::nb_transport_bw(int o, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  return out_port_.nb_transport_bw(*this, o, trans, phase, delay);
}

bool Crossbar::expects(tlm_generic_payload& trans) const { return routes_.count(&trans) != 0; }

tlm::tlm_sync_enum Crossbar::begin_resp(int o, tlm_generic_payload& trans, sc_time& delay, bool target_done, bool) {
  if (!target_done) return take_or_hold_response(o, trans, routes_.at(&trans), delay);
  // The target is done with it (on the call); the response still has to travel back.
  const sc_time now = sim_now();
  const Route route = routes_.at(&trans);
  const int i = route.in;
  release_sent(i, now);
  if (resp_blocked_[i].empty() && in_buffer_[i].size() < response_queue_depth_) {
    take_response(o, trans, route, now + delay);
  } else {
    hold_response(i, HeldResponse{o, &trans, true, now + delay});
  }
  return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum Crossbar::take_or_hold_response(int o, tlm_generic_payload& trans, Route route, sc_time& delay) {
  const sc_time now = sim_now();
  const int i = route.in;
  release_sent(i, now);
  if (resp_blocked_[i].empty() && in_buffer_[i].size() < response_queue_depth_) {
    const sc_time crossed = take_response(o, trans, route, now + delay);
    delay = crossed - now;  // the target's response path is busy until its data has crossed
    return tlm::TLM_COMPLETED;
  }
  hold_response(i, HeldResponse{o, &trans, false, now + delay});
  return tlm::TLM_ACCEPTED;  // END_RESP withheld: back-pressure to the target
}

void Crossbar::hold_response(int i, const HeldResponse& h) {
  resp_blocked_[i].push_back(h);
  respond_work_.add(i);
  // Room comes with a finished response, or when the first one sent early leaves.
  if (sent_early_[i]) respond_event_.notify(in_buffer_[i].front().ready - sim_now());
}

sc_time Crossbar::take_response(int o, tlm_generic_payload& trans, Route route, const sc_time& arrival) {
  const sc_time now = sim_now();
  const int i = route.in;
  PortStats& ps = out_stats_[o];
  const uint64_t bytes = response_bytes(trans);
  const sc_time crossed = cross(out_resp_link_[o], bytes, arrival, *ps.resp_bytes, *ps.resp_busy_cycles, ps);
  const sc_time ready = through_switch(i, o, bytes, crossed, true);
  in_buffer_[i].push_back(Queued{&trans, ready});
  set_occupancy(in_stats_[i], static_cast<unsigned>(in_buffer_[i].size()));
  // With nothing unsent ahead of it, when it crosses the input link is known now.
  if (route.early && sent_early_[i] + 1 == in_buffer_[i].size()) {
    respond_early(i, bytes);
    return crossed;
  }
  respond_work_.add(i);
  respond_event_.notify(ready - now);
  return crossed;
}

void Crossbar::respond_early(int i, uint64_t bytes) {
  const sc_time now = sim_now();
  Queued& q = in_buffer_[i].back();
  tlm_generic_payload& trans = *q.trans;
  PortStats& ps = in_stats_[i];
  const sc_time start = std::max(q.ready, in_resp_link_[i].free);  // when respond_method would send it
  const sc_time arrives = cross(in_resp_link_[i], bytes, q.ready, *ps.resp_bytes, *ps.resp_busy_cycles, ps);
  q.trans = nullptr;
  q.ready = start;  // its place frees then, as if it had been sent then
  ++sent_early_[i];
  routes_.erase(&trans);  // the initiator may reuse the payload as soon as it is due
  in_port_.respond_early(i, trans, arrives - now);
}

void Crossbar::release_sent(int i, const sc_time& now) {
  while (sent_early_[i] && in_buffer_[i].front().ready <= now) {
    const sc_time left = in_buffer_[i].front().ready;
    in_buffer_[i].pop_front();
    --sent_early_[i];
    set_occupancy(in_stats_[i], static_cast<unsigned>(in_buffer_[i].size()), left);
  }
}

void Crossbar::respond_method() {
  const sc_time now = sim_now();
  in_respond_method_ = true;
  sc_time next = never_;
  respond_work_.visit([&](int i) {
    release_sent(i, now);
    // Held responses first take the room freed since.
    while (!resp_blocked_[i].empty() && in_buffer_[i].size() < response_queue_depth_) {
      const HeldResponse h = resp_blocked_[i].front();
      resp_blocked_[i].pop_front();
      if (h.arrival < now) {
        ++response_stalls_;
        ++*in_stats_[i].stalls;
      }
      release_sent(i, now);  // a response taken just before may have been sent early, due now
      const sc_time crossed = take_response(h.out, *h.trans, routes_.at(h.trans), std::max(now, h.arrival));
      if (!h.target_done) {
        sc_time delay = crossed - now;
        out_port_.end_resp(h.out, *h.trans, delay);
      }
    }
    // A response sent early ahead still holds its place (and the input link): wait for it to leave.
    if (sent_early_[i] && (in_buffer_[i].size() > sent_early_[i] || !resp_blocked_[i].empty()))
      next = std::min(next, in_buffer_[i].front().ready);
    while (!sent_early_[i] && !in_port_.busy(i) && !in_buffer_[i].empty()) {
      const Queued q = in_buffer_[i].front();
      const sc_time start = std::max(q.ready, in_resp_link_[i].free);
      if (start > now) {
        next = std::min(next, start);
        break;
      }
      PortStats& ps = in_stats_[i];
      const sc_time arrives =
          cross(in_resp_link_[i], response_bytes(*q.trans), now, *ps.resp_bytes, *ps.resp_busy_cycles, ps);
      if (!in_port_.begin_resp(i, *q.trans, arrives - now)) break;  // its END_RESP comes on the forward path
      finish_response(i);
    }
    return in_buffer_[i].size() > sent_early_[i] || !resp_blocked_[i].empty();
  });
  in_respond_method_ = false;
  if (next != never_) respond_.next_trigger(next - now);
}

void Crossbar::finish_response(int i) {
  routes_.erase(in_buffer_[i].front().trans);
  in_buffer_[i].pop_front();
  set_occupancy(in_stats_[i], static_cast<unsigned>(in_buffer_[i].size()));
  // The input's next response, or one held for room in its buffer, may go now. Inside
  // respond_method, its own loop sends the next response; only a held one needs another pass.
  if (in_respond_method_ ? !resp_blocked_[i].empty() : !in_buffer_[i].empty() || !resp_blocked_[i].empty())
    respond_event_.notify(SC_ZERO_TIME);
}

// ---- registration ------------------------------------------------------------

const ParamTable<CrossbarConfig>& crossbar_param_table() {
  using C = CrossbarConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(address_map_param())
          .add(&C::latency, int_param("latency", 1, "cycles through the switch, for a request and again for its "
                                      "response", 0.0, 1e6, "cycles"))
          .add(&C::in_width, int_param("in_width", 64, "bytes per cycle of each input port's link, each direction "
                                       "(0 = unlimited)", 0.0, 1048576.0, "bytes/cycle"))
          .add(&C::out_width, int_param("out_width", 64, "bytes per cycle of each output port's link, each direction "
                                        "(0 = unlimited)", 0.0, 1048576.0, "bytes/cycle"))
          .add(&C::queue_depth, int_param("queue_depth", 4, "requests buffered per output port before END_REQ is "
                                          "withheld", 1.0, 1048576.0, "requests"))
          .add(&C::response_queue_depth, int_param("response_queue_depth", 4, "responses buffered per input port "
                                                   "before END_RESP is withheld", 1.0, 1048576.0, "responses"));
  return table;
}

const ParamTable<CrossbarConfig>& crossbar_block_param_table() {
  using C = CrossbarConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .include(crossbar_param_table())
          .add(&C::first_touch_page,
               size_param("first_touch_page", "0 B",
                          "a chiplet's crossbar placing pages by first touch: the page size (0: off; the chiplet "
                          "network's page_size when it places by first touch too, as they share one page table)",
                          0.0, 1099511627776.0))
          .add(&C::chiplet, int_param("chiplet", 0, "first_touch_page: the chiplet this crossbar belongs to", 0.0,
                                      63.0))
          .add(&C::remote_outputs,
               int_param("remote_outputs", 0,
                         "first_touch_page: the last outputs, which lead into the chiplet network; a request for "
                         "a page homed on another chiplet goes to one of them (the address map's port modulo "
                         "their number), one for a page of this chiplet (or untouched) to the map's port",
                         0.0, 1048576.0, "outputs"));
  return table;
}

BlockType crossbar_block_type() {
  BlockType t;
  t.name = "crossbar";
  t.doc = "Address-decoding switch with per-port link bandwidth, pipeline latency and finite buffers: requests to "
          "one output serialize on its link, full buffers withhold END_REQ/END_RESP. LT, AT, DMI and debug.";
  t.params = crossbar_block_param_table().specs();
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
    AddressMap map = AddressMap::from_json(ctx.params.raw("address_map"), ctx.socket_count("out"),
                                           "crossbar '" + ctx.path + "'");
    if (ctx.socket_count("in") <= 0) throw UserError("crossbar '" + ctx.path + "': no in sockets are bound");
    return std::make_unique<Crossbar>(ctx, std::move(map));
  };
  return t;
}

TESSERA_REGISTER_BLOCK(crossbar_block_type);

}  // namespace tessera
