// Test support for memory-side blocks: builds blocks from the registry with
// hand-filled BlockContexts (statistics and shared objects owned by the test),
// and a scripted AT/LT initiator that records when each phase arrives.
#pragma once
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/mem/gpu_access.h"
#include "platform/block.h"
#include "platform/errors.h"
#include "platform/registry.h"

namespace tessera::test {

// Owns the statistics, shared objects and blocks of one small platform.
class MiniPlatform {
 public:
  // Parameters not in `overrides` take the type's default; values are checked
  // and converted exactly as the netlist loader does.
  BlockContext context(const std::string& type, const std::string& path, const json& overrides,
                       std::map<std::string, int> socket_counts = {}) {
    const BlockType* t = Registry::instance().find(type);
    if (!t) throw UserError("no block type '" + type + "'");
    std::map<std::string, json> values;
    for (const auto& spec : t->params) {
      json v = overrides.contains(spec.name) ? overrides[spec.name] : spec.default_value;
      if (v.is_null()) throw UserError(path + ": parameter '" + spec.name + "' is required");
      values[spec.name] = convert_param(spec, v);
    }
    for (const auto& item : overrides.items())
      if (!t->param(item.key())) throw UserError(path + ": unknown parameter '" + item.key() + "'");
    BlockContext ctx;
    ctx.path = path;
    ctx.type = type;
    ctx.params = Params(std::move(values));
    ctx.clock_period = sc_core::sc_time(1, sc_core::SC_NS);
    ctx.socket_counts = std::move(socket_counts);
    ctx.stats = &stats;
    ctx.shared = &shared;
    return ctx;
  }

  template <class T = Block>
  T& create(const std::string& type, const std::string& path, const json& overrides = json::object(),
            std::map<std::string, int> socket_counts = {}) {
    const BlockType* t = Registry::instance().find(type);
    if (!t) throw UserError("no block type '" + type + "'");
    blocks.push_back(t->create(context(type, path, overrides, std::move(socket_counts))));
    T* typed = dynamic_cast<T*>(blocks.back().get());
    if (!typed) throw std::logic_error("block '" + path + "' is not of the requested class");
    return *typed;
  }

  uint64_t stat(const std::string& group, const std::string& name) const {
    const StatGroup* g = stats.find(group);
    return g ? g->to_json().value(name, uint64_t{0}) : 0;
  }

  StatRegistry stats;
  SharedObjects shared;
  std::vector<std::unique_ptr<Block>> blocks;
};

// One thing the probe saw on its backward path (or as a return value).
struct PhaseEvent {
  const tlm::tlm_generic_payload* trans;
  tlm::tlm_phase phase;
  sc_core::sc_time at;    // including the annotated delay
  sc_core::sc_time sent;  // when the call carrying it was made
};

// A scripted initiator. The script runs in an SC_THREAD and drives the socket
// with the helpers below; every phase received is logged with its time.
class Probe : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Probe);
  Probe(sc_core::sc_module_name name, std::function<void(Probe&)> script)
      : sc_module(name), socket("socket"), script_(std::move(script)) {
    socket.register_nb_transport_bw(this, &Probe::nb_transport_bw);
    SC_THREAD(run);
  }

  tlm_utils::simple_initiator_socket<Probe> socket;
  std::vector<PhaseEvent> log;
  bool hold_responses = false;  // true: answer BEGIN_RESP with TLM_ACCEPTED and let the script END_RESP
  sc_core::sc_event changed;

  tlm::tlm_sync_enum begin_req(tlm::tlm_generic_payload& t) {
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tlm::tlm_sync_enum r = socket->nb_transport_fw(t, phase, delay);
    if (r != tlm::TLM_ACCEPTED) record(t, r == tlm::TLM_COMPLETED ? tlm::BEGIN_RESP : phase, delay);
    return r;
  }
  void end_resp(tlm::tlm_generic_payload& t) { send_phase(t, tlm::END_RESP); }
  // Sends `phase` for `t` on the forward path as it is, right or wrong: the
  // protocol tests play broken requesters with it.
  tlm::tlm_sync_enum send_phase(tlm::tlm_generic_payload& t, tlm::tlm_phase phase,
                                sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return socket->nb_transport_fw(t, phase, delay);
  }
  // Waits until `phase` of `t` has been seen; returns when it happened.
  sc_core::sc_time wait_for(const tlm::tlm_generic_payload& t, tlm::tlm_phase phase) {
    for (;;) {
      for (const auto& e : log)
        if (e.trans == &t && e.phase == phase) {
          const sc_core::sc_time at = e.at;  // the log may grow (and move) while waiting
          if (at > sc_core::sc_time_stamp()) wait(at - sc_core::sc_time_stamp());
          return at;
        }
      wait(changed);
    }
  }
  bool seen(const tlm::tlm_generic_payload& t, tlm::tlm_phase phase) const {
    for (const auto& e : log)
      if (e.trans == &t && e.phase == phase && e.at <= sc_core::sc_time_stamp()) return true;
    return false;
  }
  sc_core::sc_time time_of(const tlm::tlm_generic_payload& t, tlm::tlm_phase phase) const {
    for (const auto& e : log)
      if (e.trans == &t && e.phase == phase) return e.at;
    return sc_core::sc_max_time();  // never seen
  }
  // When the call that carried `phase` of `t` was made (earlier than time_of when annotated).
  sc_core::sc_time sent_at(const tlm::tlm_generic_payload& t, tlm::tlm_phase phase) const {
    for (const auto& e : log)
      if (e.trans == &t && e.phase == phase) return e.sent;
    return sc_core::sc_max_time();
  }

 private:
  void run() { script_(*this); }
  void record(const tlm::tlm_generic_payload& t, tlm::tlm_phase phase, const sc_core::sc_time& delay) {
    log.push_back(PhaseEvent{&t, phase, sc_core::sc_time_stamp() + delay, sc_core::sc_time_stamp()});
    changed.notify(delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    record(t, phase, delay);
    if (phase == tlm::BEGIN_RESP && !hold_responses) return tlm::TLM_COMPLETED;
    return tlm::TLM_ACCEPTED;
  }

  std::function<void(Probe&)> script_;
};

// A thread with no sockets, for actions at chosen times (e.g. corrupting a store).
class Script : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Script);
  Script(sc_core::sc_module_name name, std::function<void()> body) : sc_module(name), body_(std::move(body)) {
    SC_THREAD(run);
  }

 private:
  void run() { body_(); }
  std::function<void()> body_;
};

// A payload with its own buffer.
struct Payload : tlm::tlm_generic_payload {
  Payload(tlm::tlm_command cmd, uint64_t addr, unsigned len) : buffer(len, 0) {
    set_command(cmd);
    set_address(addr);
    set_data_ptr(buffer.data());
    set_data_length(len);
    set_streaming_width(len);
    set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
  std::vector<uint8_t> buffer;
};

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

// A `memory` block's parameters: 64 bytes at 25.6 GB/s take 2.5 ns, 256 bytes
// 10 ns; `extra` adds or overrides parameters.
inline json memory_params(json extra = json::object()) {
  json p = {{"latency", "40 ns"}, {"bandwidth", "25.6 GB/s"}, {"size", "1 MiB"}};
  for (auto& item : extra.items()) p[item.key()] = item.value();
  return p;
}

// Marks payloads as coming from a requester that completes every BEGIN_RESP at
// once (GpuAccess::early_response), as caches and compute units do.
inline void take_early_responses(std::initializer_list<tlm::tlm_generic_payload*> payloads) {
  for (tlm::tlm_generic_payload* t : payloads) {
    auto* ext = new GpuAccess;  // owned by the payload from here on
    ext->early_response = true;
    t->set_extension(ext);
  }
}

// Captures what is printed on std::cout (the CP console, for one) while it is alive.
class CaptureStdout {
 public:
  CaptureStdout() : old_(std::cout.rdbuf(buffer_.rdbuf())) {}
  ~CaptureStdout() { std::cout.rdbuf(old_); }
  CaptureStdout(const CaptureStdout&) = delete;
  CaptureStdout& operator=(const CaptureStdout&) = delete;
  std::string text() const { return buffer_.str(); }

 private:
  std::ostringstream buffer_;
  std::streambuf* old_;
};

}  // namespace tessera::test
