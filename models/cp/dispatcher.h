// "dispatcher": hands the workgroups of a kernel launch to compute units and
// performs the kernel-boundary cache maintenance around it.
//
// A launch (launch(), from the device that owns the platform) goes through
// three steps, all in simulated time:
//   acquire   the baseline policy's acquire commands (below): the caches bound
//             to `acquire[]` (L1V, scalar and instruction caches) and to
//             `release[]` (L2 slices) are invalidated, so no CU reads data
//             cached by an earlier kernel;
//   dispatch  workgroups in grid order (x fastest), each offered to the CUs
//             round-robin starting after the CU that took the previous one;
//             a CU without the resources refuses and is skipped until it
//             announces free resources (models/cu/workgroup_task.h). At most
//             one workgroup leaves every `workgroup_interval` cycles;
//   release   when every workgroup has finished, the baseline policy's release
//             commands: the caches on `release[]` write back their dirty lines
//             (and keep clean copies), so the host reads current data.
//             A release that writes back is preceded by a Writeback of the
//             acquire-side caches that may hold dirty lines (write_policy
//             write_back, found before the simulation starts through their
//             ctrl's debug transport), so their writes reach the L2 before its
//             own write-back; write-through caches get nothing.
// The commands are those of the one baseline policy, sw/firmware/policy/
// baseline.c, compiled for the host (models/cp/direct_policy.h) and given the
// launch's AQL header and `debug_flags` (CP_DEBUG_*), as the firmware gives it
// its packet's header and cp.debug_flags; under a command processor the policy
// is its firmware's. The launch ends when the release is acknowledged:
// done_event() fires and the simulation pauses (sc_pause), so the device's
// sc_start() returns.
//
// Each workgroup in flight gets its own private-segment (scratch) region from
// a pool in the shared device memory, reused once the workgroup finishes.
//
// A functional launch hands out workgroups with `functional` set (the CU runs
// them to completion at once, against device memory directly) and skips the
// cache maintenance: functional accesses bypass the caches.
//
// A wave fault reported by a CU stops the hand-out; the launch ends when the
// workgroups in flight have finished, with fault() holding the CU's report.
//
// Under a command processor (CP mode) the same dispatcher is driven through
// its `regs` target socket instead, with the DISP_REG_* registers of
// sw/firmware/include/tessera/cp_regs.h: the CP's firmware names an AQL
// packet in device memory and a contiguous range of its workgroups (START),
// or sends a cache command to the caches on the acquire[] or release[] side
// (CACHE_OP; one that writes back the release side first writes back the
// acquire side's write-back caches, as above). The dispatcher reads the
// packet, finds its kernel object in the platform's KernelObjectTable, hands
// out the range, and raises its `irq` line (a write on the `irq` socket) when
// the range has finished or the cache command has been acknowledged. The
// kernel-boundary policy is then the firmware's; debug_flags applies only to
// launch().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include <tlm_utils/simple_target_socket.h>

#include "platform/kernel_object_table.h"
#include "models/cu/isa/decode_cache.h"
#include "common/device_memory.h"
#include "models/cu/isa/dispatch.h"
#include "models/cu/isa/prepared_dispatch.h"
#include "models/cu/workgroup_task.h"
#include "models/mem/gpu_access.h"
#include "platform/block.h"
#include "platform/gpu_control.h"
#include "platform/param_table.h"
#include "platform/registry.h"

namespace tessera {

// The values of a dispatcher's parameters, each filled by its one declaration
// in dispatcher_param_table() (dispatcher.cpp).
struct DispatcherConfig {
  uint32_t debug_flags = 0;  // CP_DEBUG_* for the baseline policy of launch()
  uint64_t workgroup_interval = 0, register_latency = 0;  // cycles
};
const ParamTable<DispatcherConfig>& dispatcher_param_table();

class Dispatcher : public Block, public DispatcherControl {
 public:
  SC_HAS_PROCESS(Dispatcher);
  using InitiatorSocket = tlm_utils::simple_initiator_socket_tagged<Dispatcher>;

  explicit Dispatcher(const BlockContext& ctx) : Dispatcher(ctx, dispatcher_param_table().read(ctx.params)) {}
  Dispatcher(const BlockContext& ctx, const DispatcherConfig& config);
  ~Dispatcher() override;

  using TargetSocket = tlm_utils::simple_target_socket<Dispatcher>;

  std::vector<std::unique_ptr<InitiatorSocket>> cu, acquire, release;
  std::unique_ptr<TargetSocket> regs;     // CP mode: register accesses from the CP core (if bound)
  std::unique_ptr<InitiatorSocket> irq;   // CP mode: the completion interrupt to the CP core (if bound)

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  std::string summary() const override;
  void describe_pending(std::vector<std::string>& lines) const override;

  Block& block() override { return *this; }
  const Block& block() const override { return *this; }

  // Starts a launch at the current simulated time. Throws std::logic_error if
  // a launch is in progress, UserError for a job without context or program.
  void launch(const DispatchJob& job) override;
  const sc_core::sc_event& done_event() const { return done_event_; }
  bool busy() const override { return phase_ != Phase::Idle; }
  // Of the last finished launch.
  const LaunchResult& result() const override { return result_; }
  const std::string& fault() const { return result_.fault; }

  // CP mode: ranges run with no timing (functional) or timed; set by the device.
  void set_functional(bool functional) override { functional_ = functional; }
  // Everything this dispatcher has handed out and seen finish, over all launches and ranges.
  using Totals = DispatcherTotals;
  Totals totals() const override;
  // The first wave fault of the last range that had one (CP mode), and of any
  // range that named a bad packet; empty if none.
  const std::string& last_fault() const override { return last_fault_; }
  // When the last range (or launch) started and finished.
  const sc_core::sc_time& last_start() const override { return start_; }
  const sc_core::sc_time& last_end() const override { return end_; }

 private:
  void trace_launch(Tracer& t);
  enum class Phase { Idle, Acquire, Dispatch, Release };
  enum class Mode { Launch, Range };

  struct InFlight {
    int cu = -1;
    int scratch = -1;  // region index in scratch_, -1 for none
    std::unique_ptr<tlm::tlm_generic_payload> trans;  // owns its WorkgroupTask
  };

  // Cache-maintenance commands on one socket vector.
  struct CtrlPort {
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> trans;  // one per socket, owning a CacheCommand
  };

  // CP mode.
  void regs_b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool read_register(uint32_t offset, uint32_t& out) const;
  bool write_register(uint32_t offset, uint32_t value, const sc_core::sc_time& delay);
  void start_range(const sc_core::sc_time& delay);
  void start_cache_command(uint32_t value, const sc_core::sc_time& delay);
  void raise_irq();
  bool step_cache_command();  // true: waiting for acknowledgements

  void step_method();
  bool step_acquire();   // true: waiting
  bool step_policy_commands();  // true: waiting
  bool step_dispatch();  // true: waiting
  bool step_release();   // true: waiting
  void finish_launch();

  // Dispatch.
  bool grid_done() const { return next_linear_ >= end_linear_; }
  const isa::DispatchContext& job_ctx() const { return *job_.ctx; }
  // Offers the next workgroup to the CUs in round-robin order; true if one took it.
  bool offer_next();
  bool offer_to(int cu_index);
  void workgroup_finished(const WorkgroupTask& task);
  int take_scratch();
  void advance_grid();

  // Cache maintenance. start_of_simulation finds the acquire side's write-back
  // caches; maintain steps one command (true: waiting); send_maintenance sends
  // `op` on every socket of `sockets` (those `only` marks, if given), false if
  // nothing was sent.
  void start_of_simulation() override;
  bool maintain(bool release_side, CacheOp op);
  bool send_maintenance(std::vector<std::unique_ptr<InitiatorSocket>>& sockets, CtrlPort& port, CacheOp op,
                        const std::vector<bool>* only = nullptr);
  void maintenance_acked(tlm::tlm_generic_payload& trans, const sc_core::sc_time& at);

  // Backward paths.
  tlm::tlm_sync_enum cu_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  tlm::tlm_sync_enum ctrl_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_dmi(int, sc_dt::uint64, sc_dt::uint64) {}

  uint64_t cycles_between(const sc_core::sc_time& from, const sc_core::sc_time& to) const;

  isa::DeviceMemory& memory_;
  uint32_t debug_flags_;
  std::vector<uint32_t> policy_commands_;  // launch(): the acquire's or release's, in order
  size_t next_policy_command_ = 0;
  uint64_t interval_cycles_;

  Phase phase_ = Phase::Idle;
  Mode mode_ = Mode::Launch;
  bool functional_ = false;
  DispatchJob job_;
  LaunchResult running_, result_;
  sc_core::sc_time start_, end_, acquire_end_, release_start_, next_offer_;
  sc_core::sc_event step_event_, done_event_;

  // Grid walk.
  uint64_t next_linear_ = 0, end_linear_ = 0;
  uint32_t next_wg_[3] = {0, 0, 0};
  uint64_t next_wave_ = 0;  // dispatch-wide index of the next workgroup's first wave
  int rr_ = 0;              // the CU offered the next workgroup first
  std::vector<bool> refused_;
  std::unordered_map<uint64_t, InFlight> in_flight_;  // by first_dispatch_wave
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> retired_;  // finished, freed when no call uses them

  // Scratch regions, one per workgroup in flight at most.
  std::vector<std::unique_ptr<isa::ScopedAllocation>> scratch_;
  std::vector<int> free_scratch_;

  // Cache maintenance in progress.
  CtrlPort acquire_port_, release_port_;
  // A command's steps: the acquire side's write-back caches first (only before
  // a write-back of the release side), then the side it is for.
  enum class MaintStep : uint8_t { Start, Above, Side };
  MaintStep maint_step_ = MaintStep::Start;
  std::vector<bool> acquire_write_back_;  // acquire[i] may hold dirty lines
  unsigned ctrl_pending_ = 0;
  sc_core::sc_time ctrl_done_at_;

  // CP mode: the registers and what a range or command needs while it runs.
  struct Registers {
    uint64_t packet = 0, queue = 0, dispatch_id = 0;
    uint32_t wg_first = 0, wg_count = 0;
    uint32_t wg_done = 0, lines_wb = 0, lines_inv = 0;
    bool bad_packet = false, fault = false;
  } regs_;
  KernelObjectTable& kernel_objects_;
  isa::DispatchContext range_ctx_;
  bool cache_cmd_active_ = false, irq_due_ = false;
  CacheOp cache_cmd_op_ = CacheOp::Invalidate;
  bool cache_cmd_release_side_ = false;
  sc_core::sc_time register_latency_;
  std::string last_fault_;

  Counter &launches_, &workgroups_, &waves_, &wave_instructions_, &refusals_, &cycles_, &acquire_cycles_,
      &release_cycles_, &lines_written_back_, &lines_invalidated_, &faults_, &ranges_,
      &cache_commands_, &bad_packets_;
  std::vector<Counter*> per_cu_;
  Scalar& peak_in_flight_;
  Histogram& in_flight_hist_;
};

BlockType dispatcher_block_type();

}  // namespace tessera
