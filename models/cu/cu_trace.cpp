#include "models/cu/cu_trace.h"

namespace tessera {

CuTrace::CuTrace(Tracer& tracer, TraceKinds kinds, const std::string& path, const sc_core::sc_time& period,
                 size_t slots)
    : t_(tracer),
      kinds_(kinds),
      period_(period),
      slot_track_(slots),
      wave_start_(slots),
      open_(slots),
      workgroup_(t_.text("workgroup")),
      wave_(t_.text("wave")),
      x_(t_.text("x")),
      y_(t_.text("y")),
      z_(t_.text("z")),
      waves_(t_.text("waves")),
      instructions_(t_.text("wave_instructions")),
      wave_in_group_(t_.text("wave_in_workgroup")),
      dispatch_wave_(t_.text("dispatch_wave")),
      unfinished_(t_.text("unfinished")),
      address_(t_.text("address")),
      bytes_(t_.text("bytes")),
      latency_(t_.text("latency_cycles")) {
  // Tracks in the order a reader wants them: workgroups, then wave slots, then ports.
  if (kinds_ & TraceKinds(TraceKind::Workgroup)) wg_track_ = t_.track(path, "workgroups", true);
  if (kinds_ & (TraceKinds(TraceKind::Wave) | TraceKinds(TraceKind::Stall)))
    for (size_t i = 0; i < slots; ++i) slot_track_[i] = t_.track(path, "wave slot " + std::to_string(i));
  if (kinds_ & TraceKinds(TraceKind::Memory)) {
    const char* ports[] = {"vmem", "smem", "ifetch"};
    for (int p = 0; p < 3; ++p) port_track_[p] = t_.track(path, ports[p], true);
  }
  for (size_t s = 1; s < size_t(Stall::Count); ++s) stall_names_[s] = t_.text(stall_name(Stall(s)));
  for (size_t k = 0; k < kAccessKinds; ++k) kind_names_[k] = t_.text(access_kind_name(AccessKind(k)));
}

void CuTrace::workgroup_started(const Workgroup& wg, uint64_t cycle) {
  if (kinds_ & TraceKinds(TraceKind::Workgroup)) wg_start_[&wg] = cycle;
}

void CuTrace::workgroup_ended(const Workgroup& wg, uint64_t cycle, bool unfinished) {
  if (!(kinds_ & TraceKinds(TraceKind::Workgroup))) return;
  const uint32_t* g = wg.task.workgroup;
  const uint64_t start = wg_start_[&wg];
  if (unfinished)
    t_.slice_cycles(wg_track_, workgroup_, start, cycle, period_,
                    {{x_, double(g[0])}, {y_, double(g[1])}, {z_, double(g[2])}, {unfinished_, 1}});
  else
    t_.slice_cycles(wg_track_, workgroup_, start, cycle, period_,
                    {{x_, double(g[0])}, {y_, double(g[1])}, {z_, double(g[2])}, {waves_, double(wg.waves.size())},
                     {instructions_, double(wg.instructions)}});
}

void CuTrace::wave_started(const WaveSlot& w, uint64_t cycle) { wave_start_[w.index] = cycle; }

void CuTrace::wave_ended(const WaveSlot& w, uint64_t cycle, bool unfinished) {
  close_stall(w.index);
  if (!(kinds_ & TraceKinds(TraceKind::Wave))) return;
  const uint32_t* g = w.wg->task.workgroup;
  t_.slice_cycles(slot_track_[w.index], wave_, wave_start_[w.index], cycle, period_,
                  {{x_, double(g[0])},
                   {y_, double(g[1])},
                   {z_, double(g[2])},
                   {wave_in_group_, double(w.wave->id.wave_in_group)},
                   {dispatch_wave_, double(w.wave->id.dispatch_wave)},
                   {unfinished_, unfinished ? 1.0 : 0.0}});
}

void CuTrace::add_stall(unsigned slot, Stall reason, uint64_t from, uint64_t to) {
  OpenStall& o = open_[slot];
  if (o.reason == reason && o.to == from) {
    o.to = to;
    return;
  }
  close_stall(slot);
  if (reason != Stall::None && reason != Stall::Drain) o = OpenStall{reason, from, to};
}

void CuTrace::close_stall(unsigned slot) {
  OpenStall& o = open_[slot];
  if (o.reason == Stall::None) return;
  t_.slice_cycles(slot_track_[slot], stall_names_[size_t(o.reason)], o.from, o.to, period_);
  o.reason = Stall::None;
}

void CuTrace::request(int port, const MemRequest& r, const tlm::tlm_generic_payload& trans, uint64_t cycle) {
  if (!(kinds_ & TraceKinds(TraceKind::Memory))) return;
  const size_t kind = r.access ? size_t(r.access->kind) : 0;
  t_.slice_cycles(port_track_[port], kind_names_[kind < kAccessKinds ? kind : 0], r.sent, cycle, period_,
                  {{address_, double(trans.get_address()), true},
                   {bytes_, double(trans.get_data_length())},
                   {latency_, double(cycle - std::min(cycle, r.sent))}});
}

}  // namespace tessera
