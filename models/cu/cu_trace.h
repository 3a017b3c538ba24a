// What a compute unit records into a trace (platform/trace.h): workgroups
// resident, wave lifetimes per wave slot, stall intervals by reason (inside
// their wave's slice), and its memory requests from send to response. The
// CU holds one only when one of those kinds is traced for it, and calls it
// behind a null-pointer test.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm>

#include "models/cu/mem_request.h"
#include "models/cu/wave_slot.h"
#include "platform/trace.h"

namespace tessera {

class CuTrace {
 public:
  CuTrace(Tracer& tracer, TraceKinds kinds, const std::string& path, const sc_core::sc_time& period, size_t slots);

  void workgroup_started(const Workgroup& wg, uint64_t cycle);
  void workgroup_ended(const Workgroup& wg, uint64_t cycle, bool unfinished = false);
  void wave_started(const WaveSlot& w, uint64_t cycle);
  void wave_ended(const WaveSlot& w, uint64_t cycle, bool unfinished = false);
  // Cycles [from, to) charged to `reason` (None: the wave issued). Adjacent
  // intervals of one reason become one slice.
  void stall(const WaveSlot& w, Stall reason, uint64_t from, uint64_t to) {
    if (kinds_ & TraceKinds(TraceKind::Stall)) add_stall(w.index, reason, from, to);
  }
  // A request on port `port` (0 vmem, 1 smem, 2 ifetch) answered at `cycle`.
  void request(int port, const MemRequest& r, const tlm::tlm_generic_payload& trans, uint64_t cycle);

 private:
  struct OpenStall {
    Stall reason = Stall::None;
    uint64_t from = 0, to = 0;
  };
  void add_stall(unsigned slot, Stall reason, uint64_t from, uint64_t to);
  void close_stall(unsigned slot);

  // Every AccessKind has a slice name; ZeroMask is the last of them.
  static constexpr size_t kAccessKinds = size_t(AccessKind::ZeroMask) + 1;

  Tracer& t_;
  TraceKinds kinds_;
  sc_core::sc_time period_;
  uint32_t wg_track_ = 0, port_track_[3] = {};
  std::vector<uint32_t> slot_track_;
  std::vector<uint64_t> wave_start_;
  std::vector<OpenStall> open_;
  std::unordered_map<const Workgroup*, uint64_t> wg_start_;
  uint32_t stall_names_[size_t(Stall::Count)] = {};
  uint32_t kind_names_[kAccessKinds] = {};
  uint32_t workgroup_, wave_, x_, y_, z_, waves_, instructions_, wave_in_group_, dispatch_wave_, unfinished_,
      address_, bytes_, latency_;
};

}  // namespace tessera
