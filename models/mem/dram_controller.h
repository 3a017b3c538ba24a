// "dram_controller": an HBM/DRAM memory controller with `channels` channels of
// `banks` banks each, open-page row buffers, per-channel data buses of finite
// bandwidth, a FCFS or FR-FCFS scheduler per channel (models/mem/dram_channel.h
// has the command timing: refresh, write recovery, tRRD/tFAW, turnaround, bank
// groups and a starvation cap besides the row timings, set one by one or from
// a `timing_preset`) and a finite request queue per channel.
//
// The data lives in the platform's isa::DeviceMemory (shared object named by
// `store`): reads of bytes outside every allocation return zeros, writes there
// are dropped, byte enables are honoured, and atomics (GpuAccess kind Atomic)
// are applied here in lane order, filling each lane's `old`, for platforms
// where no cache owns the data. The data is read or written when the request
// is accepted, so it follows arrival order even when the scheduler reorders
// the DRAM commands.
//
// Address mapping, on the offset from `base`: channel = (offset /
// channel_interleave) % channels; within the channel, banks take turns every
// bank_interleave bytes, and a bank's consecutive bytes fill rows of row_size.
// A request is timed entirely in the channel, bank and row of its first byte.
//
// AT, on the shared AtTargetPort (models/mem/at_target_port.h) in its Ready
// order: a request is accepted (END_REQ) when its channel has fewer than
// queue_depth requests accepted and not yet retired (END_RESP); otherwise
// END_REQ is withheld and requests behind it wait too. A request arriving on
// an instant with nothing waiting ahead of it is accepted inside
// nb_transport_fw (TLM_UPDATED, END_REQ). Responses leave in the order their
// data finishes, controller_latency after the data's last beat, one
// BEGIN_RESP in flight at a time. A requester that sets
// GpuAccess::early_response (a cache's fills and writebacks) instead gets its
// BEGIN_RESP as soon as the column command is issued, annotated with that
// time, and completes it at once; the request keeps its queue place until the
// annotated time. Nothing runs while nothing is queued: the scheduler wakes on
// arrivals and at the times the channels name.
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/device_memory.h"
#include "models/mem/dram_channel.h"
#include "models/mem/dram_compression.h"
#include "common/due_queue.h"
#include "common/flat_map.h"
#include "models/mem/gpu_access.h"
#include "models/mem/at_target_port.h"
#include "models/mem/socket_table.h"
#include "models/mem/tlm_helpers.h"
#include "platform/block.h"
#include "platform/param_table.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

// The values of a DRAM controller's parameters, each filled by its one
// declaration in dram_controller_param_table() (dram_controller.cpp).
struct DramControllerConfig {
  uint64_t base = 0, size = 0;
  unsigned channels = 0, banks = 0;
  uint64_t row_size = 0, channel_interleave = 0, bank_interleave = 0, burst_size = 0;
  double bandwidth = 0;  // bytes per second, one channel
  sc_core::sc_time tCL, tRCD, tRP, tRAS, controller_latency;
  std::string scheduler;
  std::string timing_preset;
  bool refresh = true;
  std::string refresh_mode;  // "all_bank" or "per_bank"
  sc_core::sc_time tREFI, tRFC, tRFCsb, tWR, tRRD, tFAW, tWTR, tRTW, tCCD_S, tCCD_L;
  unsigned bank_groups = 0, starvation_cap = 0;
  unsigned queue_depth = 0;
  std::string queue_place, bank_hash, act_order;
  unsigned interleave_ways = 1;
  uint64_t interleave_size = 0;
  std::string store;
  // BDI compression (docs/CABA.md): "off", "memory" (this controller
  // compresses and decompresses, answers leave uncompressed) or "hierarchy"
  // (lines arrive and leave compressed); the metadata cache's geometry and,
  // for "memory", the codec's latencies.
  std::string compression;
  uint64_t metadata_cache = 0;
  unsigned metadata_ways = 0;
  sc_core::sc_time decompress_latency, compress_latency;
};
const ParamTable<DramControllerConfig>& dram_controller_param_table();

class DramController : public Block, private AtTargetPort::Server {
 public:
  SC_HAS_PROCESS(DramController);
  explicit DramController(const BlockContext& ctx)
      : DramController(ctx, dram_controller_param_table().read(ctx.params)) {}
  DramController(const BlockContext& ctx, const DramControllerConfig& config);

  tlm_utils::simple_target_socket<DramController> in;

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  std::string summary() const override;

  struct Location {
    unsigned channel, bank;
    uint64_t row;
  };
  // Where `addr` (inside [base, base+size)) lives.
  Location locate(uint64_t addr) const;

 private:
  // Times kept as sc_time values (units of the time resolution): the
  // per-request bookkeeping then needs no sc_time built by the library.
  // Accepted, not yet retired, and answered by respond_method. A request
  // answered early has no entry: its channel and arrival travel with its
  // DramRequest, and it is done when its column is issued.
  struct Pending {
    int channel;    // -1: answered without a DRAM access (an error)
    uint64_t arrived;
    bool queued = true;  // holds a queue place (false once its column issued, with queue_place "column")
  };

  // The timing constraints beyond tCL/tRCD/tRP/tRAS: the preset's, or the parameters'.
  void set_constraints(const DramControllerConfig& c);
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);

  // AtTargetPort::Server.
  void serve(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) override;
  void responding(tlm::tlm_generic_payload& trans, const sc_core::sc_time& arrived) override;
  bool admits(const tlm::tlm_generic_payload& trans) override { return has_room(trans); }
  void accepting() override { release_early(sim_now().value()); }
  void held(const tlm::tlm_generic_payload& trans) override;
  bool retired(tlm::tlm_generic_payload& trans) override;

  void schedule_method();

  // Checks the request and moves its data; sets the response status exactly
  // once; returns false for an error response. `access` is the request's
  // GpuAccess or null (looked up once per request by the caller).
  bool execute(tlm::tlm_generic_payload& trans, GpuAccess* access);
  void apply_atomic(tlm::tlm_generic_payload& trans, GpuAccess& access);
  unsigned bursts_of(const tlm::tlm_generic_payload& trans, const GpuAccess* access) const;
  // dram_compression.cpp: the bursts a request occupies with compression on
  // (a whole line's compressed bursts, plus one per metadata-cache miss and
  // dirty metadata eviction), marking a read's answer compressed in mode
  // "hierarchy"; `codec` is the latency the controller's own codec adds.
  unsigned bursts_for(tlm::tlm_generic_payload& trans, GpuAccess* access, sc_core::sc_time& codec);
  void setup_compression(const DramControllerConfig& c);
  // Whether the request's channel has a queue place for it (unmapped requests always do).
  bool has_room(const tlm::tlm_generic_payload& trans) const;
  // Takes an accepted request, arrived at `arrived` (an sc_time value), into
  // its channel's queue (or answers an error); END_REQ is the port's.
  void enqueue(tlm::tlm_generic_payload& trans, uint64_t arrived);
  // A request of `channel` that arrived at `arrived` (an sc_time value), answered at `at`.
  void respond_early(tlm::tlm_generic_payload& trans, unsigned channel, uint64_t arrived, const sc_core::sc_time& at);
  void trace_request(Tracer& t, const tlm::tlm_generic_payload& trans, uint64_t start, uint64_t end);
  // Frees the queue places of early responses due by `now`, at their times.
  // Inline: asked on every arrival and acceptance, mostly with none due.
  void release_early(uint64_t now) {
    if (!early_due_.empty() && early_due_.front().when <= now) release_due(now);
  }
  void release_due(uint64_t now);
  void end_of_simulation() override;
  void count_outcome(RowOutcome outcome);
  void free_place_at_column(tlm::tlm_generic_payload& trans, unsigned channel, bool early, uint64_t now);
  void set_occupancy(unsigned n, uint64_t at);
  void record_done(uint64_t start, uint64_t end);

  isa::DeviceMemory& store_;
  uint64_t base_, size_;
  unsigned channels_, banks_;
  uint64_t row_size_, channel_interleave_, bank_interleave_;
  double bandwidth_;  // per channel
  DramTiming timing_;
  sc_core::sc_time controller_latency_;
  unsigned queue_depth_;  // per channel
  uint64_t interleave_ways_, interleave_size_;
  bool bank_xor_;
  bool place_freed_at_column_;

  std::vector<DramChannel> channel_;
  std::vector<unsigned> channel_count_;  // accepted and not retired, per channel
  std::vector<sc_core::sc_time> channel_next_;  // when each channel wants scheduling again (never_: idle)
  sc_core::sc_time never_;                      // sc_max_time(), a library call
  AtTargetPort port_;
  Activity schedule_{this, &DramController::schedule_method};
  Trigger schedule_event_{schedule_};
  FlatMap<tlm::tlm_generic_payload*, Pending> pending_;
  DueQueue<int> early_due_;    // early responses' queue places by due time: their channels
  std::vector<DramIssued> issued_;  // scratch for schedule_method
  uint64_t seq_ = 0;
  unsigned occupancy_ = 0;
  uint64_t occupancy_since_ = 0;
  uint64_t first_activity_ = 0, last_activity_ = 0;
  bool active_ = false;
  bool error_logged_ = false;

  Counter &reads_, &writes_, &atomics_, &bytes_read_, &bytes_written_, &errors_;
  Counter &row_hits_, &row_misses_, &row_conflicts_, &request_stalls_, &queue_wait_ps_, &bus_busy_ps_, &refreshes_;
  Scalar &bandwidth_achieved_, &latency_mean_ns_;
  Histogram &latency_ns_, &occupancy_hist_, &channel_hist_, &bank_hist_;
  uint64_t latency_sum_ps_ = 0, latency_count_ = 0;

  // BDI compression; null when off (its counters are then not registered).
  std::unique_ptr<DramCompression> compression_;

  // Used at elaboration only: kept after the state the simulation touches.
  SocketTable<tlm::tlm_target_socket<>> targets_;
};

BlockType dram_controller_block_type();

}  // namespace tessera
