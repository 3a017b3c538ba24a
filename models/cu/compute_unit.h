// "compute_unit": a cycle-level CDNA2 compute unit.
//
// One SystemC module, one process (tick, an Activity of platform/scheduler.h)
// that runs once per cycle while something can happen and otherwise sleeps
// until the next known event (a wave's ready time, an LDS completion) or an
// outside one (a memory response, an END_REQ, a new workgroup). It is built
// from parts, plain C++ objects with narrow interfaces: wave slots
// (wave_slot.h) each with its scoreboard (scoreboard.h), the issue policy
// (issue_policy.h), the LDS pipeline (models/lds/lds_pipeline.h), the
// coalescer (coalescer.h), instruction information and static marks
// (inst_class.h, inst_marks.h). Mechanisms attach through observers
// (cu_observer.h) and inject routines as waves (inject). Every wave is woken
// through one path, wake(wave, reason).
//
// Each tick at cycle c: account the cycles slept, retire LDS operations due,
// let the issue arbiter pick at most one instruction per unit from different
// waves in priority order (one VALU/MFMA per SIMD, one SALU, one SMEM, one
// VMEM, one LDS, one branch; sequencer instructions need no unit), send at
// most one request per memory socket (ifetch, smem, vmem) subject to END_REQ
// back-pressure and the in-flight limits, retire finished waves and
// workgroups, and compute when to run next. docs/CU.md has every rule.
//
// Instructions execute with real values at issue through the same semantics
// as the functional executor; memory instructions go through their two-phase
// plan: their registers are written when the data is back.
#pragma once
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/cu/assist_warp_controller.h"
#include "models/cu/cu_config.h"
#include "models/cu/cu_observer.h"
#include "models/cu/cu_stats.h"
#include "models/cu/cu_trace.h"
#include "models/cu/darsie_unit.h"
#include "models/cu/issue_policy.h"
#include "models/cu/lazy_unit.h"
#include "models/cu/wave_slot.h"
#include "models/lds/lds_multicast.h"
#include "models/lds/lds_pipeline.h"
#include "common/ring.h"
#include "platform/block.h"
#include "platform/limits.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

// Why a wave is looked at again (ComputeUnit::wake).
enum class WakeReason : uint8_t {
  MemoryResponse,  // a memory instruction completed: counters, registers
  LdsDone,         // an LDS instruction's lgkmcnt dropped
  Fetch,           // an instruction fetch returned
  BarrierRelease,  // its workgroup's barrier opened
  Fault,           // its workgroup faulted: it ends
};

class ComputeUnit : public Block {
 public:
  SC_HAS_PROCESS(ComputeUnit);
  explicit ComputeUnit(const BlockContext& ctx);
  ~ComputeUnit() override;

  tlm_utils::simple_target_socket<ComputeUnit> dispatch;
  tlm_utils::simple_initiator_socket_tagged<ComputeUnit> vmem, smem, ifetch;

  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  std::string summary() const override;
  void describe_pending(std::vector<std::string>& lines) const override;

  const CuConfig& config() const { return cfg_; }
  unsigned resident_waves() const { return resident_; }

  // Attaches a mechanism's hooks (cu_observer.h); the CU does not own it.
  void attach(CuObserver& observer) { observers_.push_back(&observer); }
  // Injects a short routine: `task` (one workgroup of a kernel, usually one
  // wave) runs as waves of class `priority`, counted against occupancy like
  // any workgroup. False if it does not fit now. `on_end` is called when its
  // last wave ends, with the waves still holding their registers; the
  // dispatcher is not told about it. Called from a SystemC process.
  bool inject(const WorkgroupTask& task, PriorityClass priority, std::function<void(const Workgroup&)> on_end);

 private:
  enum PortId { kVmem = 0, kSmem = 1, kFetch = 2 };
  struct Port {
    Port(tlm_utils::simple_initiator_socket_tagged<ComputeUnit>& s, unsigned line, unsigned lim)
        : socket(s), pool(line), limit(lim) {}
    tlm_utils::simple_initiator_socket_tagged<ComputeUnit>& socket;
    RequestPool pool;
    Ring<MemRequest*> queue;                      // coalesced, not sent yet
    tlm::tlm_generic_payload* blocked = nullptr;  // BEGIN_REQ sent, END_REQ awaited
    unsigned outstanding = 0, limit;
    uint64_t send_from = 0;                       // END_REQ seen: the next BEGIN_REQ from this cycle
    bool can_send(uint64_t c) const { return !blocked && c >= send_from && outstanding < limit; }
  };
  // A response, taken in at its arrival but seen by the CU from `cycle` on:
  // the first clock edge strictly after it arrived.
  struct Arrival {
    Port* port;
    tlm::tlm_generic_payload* trans;
    uint64_t cycle;
  };

  // --- dispatch (compute_unit.cpp) ---
  void b_transport_dispatch(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  bool try_accept(WorkgroupTask& task, PriorityClass priority = PriorityClass::Normal, Workgroup** launched = nullptr);
  bool place(unsigned waves, unsigned vgpr, unsigned sgpr, unsigned& first_simd) const;
  Workgroup& launch(const WorkgroupTask& task, unsigned waves, unsigned vgpr, unsigned sgpr, uint32_t lds, unsigned first_simd,
                    PriorityClass priority);
  void insert_wave(WaveSlot& w);
  void place_wave(WaveSlot& w, uint64_t eval_at);
  uint64_t unplace_wave(WaveSlot& w);
  void apply_priorities();
  void rebuild_fetch_bits();
  WaveSlot* free_slot(unsigned simd);
  void run_functional(WorkgroupTask& task);
  void notify_dispatcher(const WorkgroupTask& note);
  void flush_notifications();

  // --- the cycle loop (compute_unit.cpp) ---
  void tick();
  uint64_t now_cycle() const;
  void wake_at(uint64_t cycle);
  void account_until(uint64_t cycle);
  void settle(WaveSlot& w, uint64_t cycle);
  void retire_lds(uint64_t c);
  void send_stage(uint64_t c);
  uint64_t fetch_stage(uint64_t c);
  void send(Port& p, MemRequest* r, uint64_t c);
  void retire_stage();
  void retire_wave(WaveSlot& w);
  void finish_workgroup(Workgroup& wg);
  void schedule_next(uint64_t c, uint64_t fetch_next);
  void end_of_simulation() override;
  void trace_unfinished(uint64_t c);

  // --- memory responses (compute_unit.cpp) ---
  tlm::tlm_sync_enum nb_transport_bw(int id, tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  void arrive(Port& p, tlm::tlm_generic_payload& trans, uint64_t cycle);
  void take_arrivals(uint64_t c);
  void take_response(Port& p, tlm::tlm_generic_payload& trans, uint64_t c);
  uint64_t next_edge() const;  // the first cycle strictly after now
  uint64_t cycle_after(const sc_core::sc_time& delay) const;  // the first cycle strictly after now + delay
  void fetch_returned(MemRequest& r, const tlm::tlm_generic_payload& trans);
  void inst_returned(MemInst& m);
  void complete(MemInst& m);
  void drain_vm(WaveSlot& w);
  void maybe_retire(WaveSlot& w);

  // --- issue (compute_unit_issue.cpp) ---
  void issue_stage(uint64_t c);
  size_t collect_due(uint64_t c, size_t start, bool queue_moved, uint64_t& skipped_earliest);
  void look_at(WaveSlot& w, uint64_t c);
  bool observers_allow(WaveSlot& w, const isa::DecodedOp& op, uint64_t c);
  bool still_waits_for_unit(WaveSlot& w, uint64_t c);
  void plan_next_cycle(WaveSlot& w, uint64_t c);
  void wake(WaveSlot& w, WakeReason why);
  Stall evaluate(WaveSlot& w, uint64_t c, uint64_t& earliest, const isa::DecodedOp*& op, const InstInfo*& info);
  Stall reevaluate(WaveSlot& w, uint64_t c, uint64_t& earliest, const isa::DecodedOp*& op, const InstInfo*& info);
  bool look_up_next(WaveSlot& w);
  Stall waitcnt_stall(const WaveSlot& w, const isa::Instruction& inst) const;
  uint64_t unit_free(const WaveSlot& w, const InstInfo& info) const;
  uint64_t next_turn(unsigned simd, uint64_t c) const;
  bool turns() const { return cfg_.issue_period > 1; }
  void take_issue_slot(IssueClass cls, uint64_t c);
  void issue(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  void issue_lds(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  void issue_memory(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  void serve_lds_chunks(WaveSlot& w, MemInst& m);
  void read_values_now(const WaveSlot& w, Port& p, MemInst& m);
  // --- the lazy unit's hooks (compute_unit_lazy.cpp), only with lazy_loads ---
  void lazy_overwritten(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info);
  bool defer_load(WaveSlot& w, MemInst& m, const InstInfo& info, uint64_t c);
  Stall lazy_stall(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c, uint64_t& earliest);
  void lazy_returned(MemInst& m);
  bool eager_zero_queries(const WaveSlot& w, MemInst& m);
  void check_barrier(Workgroup& wg, uint64_t c);
  // --- CABA's assist warps (compute_unit_assist.cpp, docs/CABA.md), only with assist_warps ---
  bool assist_line(MemRequest& r, MemInst& m, uint64_t c);
  void issue_assist(uint64_t c);
  void issue_assist_idle(uint64_t c);
  void assist_store(WaveSlot& w, uint64_t c);
  size_t next_past_held(Port& p);

  // --- DARSIE's hooks (compute_unit_darsie.cpp, darsie_unit.h), with darsie or darsie_count ---
  Stall darsie_skip(WaveSlot& w, uint64_t c, uint64_t& earliest, const isa::DecodedOp*& op, const InstInfo*& info);
  void darsie_issued(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  void darsie_ended(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  unsigned darsie_rename_budget(unsigned waves, unsigned vgpr, unsigned sgpr, uint32_t lds) const;

  // --- the LDS multicast unit (compute_unit_multicast.cpp, docs/IWMA.md) ---
  void serve_lds_read(const lds::LdsRequest& r, uint64_t c, lds::LdsPipeline::Tag tag,
                      const lds::LdsPipeline::Tag* second = nullptr);
  uint64_t multicast_accepts_at(const WaveSlot& w) const;
  bool multicast_candidate(const WaveSlot& w, const isa::DecodedOp& op, const lds::LdsRequest& r) const;
  void multicast_read(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, const lds::LdsRequest& r, uint64_t c);
  void report_mismatch(const WaveSlot& w, const lds::HeldRead& partner, const isa::DecodedOp& op);
  void expire_multicast(uint64_t c);
  void release_multicast(Workgroup& wg, uint64_t c);
  void fault_wave(WaveSlot& w);
  IbBlock ib_state(const WaveSlot& w, uint64_t pc, unsigned size) const;
  void fault_fetch(WaveSlot& w);
  void fault_spinning(WaveSlot& w, const isa::DecodedOp& op);
  void ib_reset(WaveSlot& w, uint64_t pc);
  void ib_advance(WaveSlot& w);
  void refresh_fetch(WaveSlot& w);
  size_t next_fetch_candidate(size_t from) const;

  CuConfig cfg_;
  int cu_id_;
  isa::DeviceMemory& device_;
  CuStats st_;
  lds::LdsPipeline lds_;
  std::unique_ptr<lds::LdsMulticast> multicast_;  // with lds_multicast on
  IssuePolicy policy_;
  std::vector<CuObserver*> observers_;

  std::vector<WaveSlot> slots_;                // simds * wave_slots; slot i lives on SIMD i / wave_slots
  std::vector<WaveSlot*> order_;               // resident waves, oldest first
  std::vector<uint64_t> eval_at_;              // per order_ entry: first cycle the issue stage must look at it again
  std::vector<uint32_t> due_;                  // scratch: order_ positions the issue stage looks at this cycle
  std::vector<uint64_t> fetch_bits_;           // bit p: order_[p] wants a fetch (wants_fetch)
  std::vector<std::unique_ptr<Workgroup>> workgroups_;
  std::vector<Workgroup*> free_workgroups_;
  std::unordered_map<const isa::DecodeCache*, std::unique_ptr<ProgramInfo>> programs_;
  std::vector<unsigned> slots_used_, vgprs_used_, sgprs_used_;
  uint32_t lds_used_ = 0;
  unsigned next_simd_ = 0;
  uint64_t next_age_ = 0;
  const uint64_t wave_instruction_limit_ = limits().wave_instructions;  // read once: the issue loop tests it
  uint64_t launcher_free_ = 0;                 // cycle the wave launcher is free again
  unsigned resident_ = 0;
  bool refused_ = false;                       // a workgroup was refused: tell the dispatcher when space frees
  std::vector<WorkgroupTask> notes_;           // notifications to send at the end of the tick
  std::vector<WaveSlot*> to_retire_;
  std::vector<WaveSlot*> reprioritized_;  // waves whose s_setprio issued this cycle
  std::vector<Workgroup*> finished_;

  // Units: the first cycle each is free again.
  std::vector<uint64_t> simd_free_, mfma_free_;
  uint64_t salu_free_ = 0, smem_free_ = 0, vmem_free_ = 0, branch_free_ = 0;
  uint64_t scalar_slot_ = 0;                    // SALU/SMEM issue slot (issue turns only)
  std::vector<Arrival> arrivals_;               // responses not yet seen by the tick

  Port vmem_port_, smem_port_, fetch_port_;
  MemInstPool inst_pool_;
  std::vector<MemRequest*> coalesced_;          // scratch for the coalescer
  std::vector<uint64_t> held_lines_;            // scratch for next_past_held
  isa::LdsAccess lds_access_;                   // scratch for the LDS bank model

  Activity tick_{this, &ComputeUnit::tick};  // runs once per cycle while there is work
  uint64_t last_tick_ = 0;
  bool ticked_ = false;
  uint64_t occ_since_ = 0;
  uint64_t earliest_wave_ = kNever;             // the earliest any resident wave may issue, as of this tick
  unsigned fetch_wanted_ = 0;                  // waves with wants_fetch
  bool queue_moved_ = false;                   // a memory queue shrank: waves stalled on it may issue
  bool waves_changed_ = true;                  // a wave became dirty or ended since the issue stage last looked
  bool others_changed_ = false;                // this pass, a wave changed waves it had passed over
  std::vector<WaveSlot*> evaluated_;           // scratch: waves the issue stage's first pass looked at
  uint64_t unit_waiters_earliest_ = kNever;    // this pass: the earliest of waves left waiting for a unit

  // Functional mode: waves and LDS reused from workgroup to workgroup.
  std::vector<std::unique_ptr<isa::Wave>> functional_waves_;
  std::vector<uint8_t> functional_lds_;

  tlm::tlm_generic_payload note_trans_;
  WorkgroupTask* note_task_;                   // owned by note_trans_

  std::unique_ptr<CuTrace> trace_;             // only when something of this CU is traced
  std::unique_ptr<ZeroQueryStats> zero_;      // only with zero_queries
  std::unique_ptr<LazyUnit> lazy_;             // only with lazy_loads
  std::unique_ptr<DarsieUnit> darsie_;         // only with darsie or darsie_count
  uint64_t darsie_cycle_ = kNever;             // the cycle darsie_probes_ counts in
  unsigned darsie_probes_ = 0;                 // skips this cycle (the PC coalescer's probe ports)
  std::unique_ptr<AssistWarpController> assist_;  // only with assist_warps
};

BlockType compute_unit_block_type();

}  // namespace tessera
