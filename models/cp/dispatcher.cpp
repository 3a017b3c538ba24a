#include "models/cp/dispatcher.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "models/cp/direct_policy.h"
#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"
#include "platform/trace.h"
#include "sw/firmware/include/tessera/cp_regs.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

static_assert(std::is_base_of_v<tlm::tlm_initiator_socket<>, Dispatcher::InitiatorSocket>);

namespace {

// The cache operation of a DISP_CACHE_* command (checked by the caller).
CacheOp cache_op_of(uint32_t command) {
  const uint32_t op = command & 0xff;
  return op == DISP_CACHE_INVALIDATE ? CacheOp::Invalidate
         : op == DISP_CACHE_WRITEBACK ? CacheOp::Writeback
                                      : CacheOp::WritebackInvalidate;
}

bool to_release_side(uint32_t command) { return (command & DISP_CACHE_TO_RELEASE) != 0; }

std::string wg_text(const uint32_t wg[3]) {
  return "(" + std::to_string(wg[0]) + "," + std::to_string(wg[1]) + "," + std::to_string(wg[2]) + ")";
}

}  // namespace

Dispatcher::Dispatcher(const BlockContext& ctx, const DispatcherConfig& c)
    : Block(ctx),
      memory_(shared().get<isa::DeviceMemory>("device")),
      debug_flags_(uint32_t(c.debug_flags)),
      interval_cycles_(c.workgroup_interval),
      kernel_objects_(shared().get<KernelObjectTable>("kernel_objects")),
      register_latency_(cycles(c.register_latency)),
      launches_(stats().counter("launches", "kernel launches finished")),
      workgroups_(stats().counter("workgroups", "workgroups handed to CUs")),
      waves_(stats().counter("waves", "waves of the workgroups handed to CUs")),
      wave_instructions_(
          stats().counter("wave_instructions", "wave-instructions CUs reported for finished workgroups")),
      refusals_(stats().counter("refusals", "workgroup offers a CU refused for lack of resources")),
      cycles_(stats().counter("launch_cycles",
                              "cycles from launch to the release's acknowledgement, summed over launches")),
      acquire_cycles_(stats().counter("acquire_cycles", "cycles spent waiting for acquire (invalidate) commands")),
      release_cycles_(stats().counter("release_cycles", "cycles spent waiting for release (write-back) commands")),
      lines_written_back_(stats().counter("lines_written_back", "dirty lines caches wrote back for release/acquire")),
      lines_invalidated_(stats().counter("lines_invalidated", "lines caches dropped for acquire/release")),
      faults_(stats().counter("faults", "launches and ranges that ended with a wave fault")),
      ranges_(stats().counter("ranges", "workgroup ranges the command processor started (CP mode)")),
      cache_commands_(stats().counter("cache_commands", "cache commands the command processor sent (CP mode)")),
      bad_packets_(stats().counter("bad_packets", "ranges refused: unknown kernel object or impossible geometry")),
      peak_in_flight_(
          stats().scalar("peak_workgroups_in_flight", "most workgroups in flight at once, over all launches")),
      in_flight_hist_(stats().histogram("workgroups_in_flight", "workgroups in flight when one more is handed out", 1,
                                        64)) {
  const int n_cu = ctx.socket_count("cu");
  for (int i = 0; i < n_cu; ++i) {
    cu.push_back(std::make_unique<InitiatorSocket>(("cu_" + std::to_string(i)).c_str()));
    cu.back()->register_nb_transport_bw(this, &Dispatcher::cu_bw, i);
    cu.back()->register_invalidate_direct_mem_ptr(this, &Dispatcher::invalidate_dmi, i);
    per_cu_.push_back(&stats().counter("workgroups_to_cu" + std::to_string(i), "workgroups handed to cu[" +
                                                                                   std::to_string(i) + "]"));
  }
  refused_.assign(n_cu, false);
  // Acquire sockets are ids 0..n-1 of ctrl_bw, release sockets n.. (one handler for both).
  const int n_acq = ctx.socket_count("acquire"), n_rel = ctx.socket_count("release");
  auto make_ctrl = [&](std::vector<std::unique_ptr<InitiatorSocket>>& v, CtrlPort& port, const char* name, int n,
                       int first_id) {
    for (int i = 0; i < n; ++i) {
      v.push_back(std::make_unique<InitiatorSocket>((std::string(name) + "_" + std::to_string(i)).c_str()));
      v.back()->register_nb_transport_bw(this, &Dispatcher::ctrl_bw, first_id + i);
      v.back()->register_invalidate_direct_mem_ptr(this, &Dispatcher::invalidate_dmi, first_id + i);
      auto t = std::make_unique<tlm_generic_payload>();
      t->set_extension(new CacheCommand);
      port.trans.push_back(std::move(t));
    }
  };
  make_ctrl(acquire, acquire_port_, "acquire", n_acq, 0);
  make_ctrl(release, release_port_, "release", n_rel, n_acq);
  if (ctx.socket_count("regs")) {
    regs = std::make_unique<TargetSocket>("regs");
    regs->register_b_transport(this, &Dispatcher::regs_b_transport);
  }
  if (ctx.socket_count("irq")) irq = std::make_unique<InitiatorSocket>("irq");

  SC_METHOD(step_method);
  sensitive << step_event_;
  dont_initialize();
}

Dispatcher::~Dispatcher() = default;

tlm::tlm_initiator_socket<>* Dispatcher::initiator_socket(const std::string& name, int index) {
  auto pick = [&](std::vector<std::unique_ptr<InitiatorSocket>>& v) -> tlm::tlm_initiator_socket<>* {
    return index >= 0 && index < static_cast<int>(v.size()) ? v[index].get() : nullptr;
  };
  if (name == "cu") return pick(cu);
  if (name == "acquire") return pick(acquire);
  if (name == "release") return pick(release);
  if (name == "irq" && index < 0) return irq.get();
  return nullptr;
}

tlm::tlm_target_socket<>* Dispatcher::target_socket(const std::string& name, int index) {
  return name == "regs" && index < 0 ? regs.get() : nullptr;
}

Dispatcher::Totals Dispatcher::totals() const {
  return Totals{workgroups_.value, waves_.value, wave_instructions_.value, faults_.value, bad_packets_.value,
                ranges_.value};
}

std::string Dispatcher::summary() const {
  if (!launches_.value) return "";
  return std::to_string(launches_.value) + " launches, " + std::to_string(workgroups_.value) + " workgroups, " +
         std::to_string(cycles_.value) + " cycles (" + std::to_string(acquire_cycles_.value) + " acquiring, " +
         std::to_string(release_cycles_.value) + " releasing)";
}

void Dispatcher::describe_pending(std::vector<std::string>& lines) const {
  if (!busy()) return;
  static const char* const phases[] = {"idle", "acquiring", "dispatching", "releasing"};
  lines.push_back(path() + ": " + phases[static_cast<int>(phase_)] + "; " +
                  std::to_string(grid_done() ? 0 : end_linear_ - next_linear_) + " workgroups not handed out, " +
                  std::to_string(in_flight_.size()) + " on compute units" +
                  (ctrl_pending_ ? ", " + std::to_string(ctrl_pending_) + " cache commands unanswered" : ""));
}

uint64_t Dispatcher::cycles_between(const sc_time& from, const sc_time& to) const {
  return static_cast<uint64_t>(std::llround((to - from) / clock_period()));
}

// ---- launch ------------------------------------------------------------------

void Dispatcher::launch(const DispatchJob& job) {
  if (busy()) throw std::logic_error(path() + ": launch while the previous launch is still running");
  if (!job.ctx || !job.program || !job.ctx->kernel)
    throw UserError(path() + ": a launch needs a dispatch context with its kernel and a program");
  if (cu.empty()) throw UserError(path() + ": no compute unit is bound to cu[]");
  job_ = job;
  mode_ = Mode::Launch;
  running_ = LaunchResult();
  start_ = sc_core::sc_time_stamp();
  next_offer_ = start_;
  next_linear_ = 0;
  end_linear_ = job.ctx->workgroup_total();
  next_wg_[0] = next_wg_[1] = next_wg_[2] = 0;
  next_wave_ = 0;
  rr_ = 0;
  std::fill(refused_.begin(), refused_.end(), false);
  maint_step_ = MaintStep::Start;
  phase_ = Phase::Acquire;
  policy_commands_ = job.functional ? std::vector<uint32_t>()
                                    : baseline_acquire_commands(direct_launch_header(), debug_flags_);
  next_policy_command_ = 0;
  step_event_.notify(SC_ZERO_TIME);
}

void Dispatcher::step_method() {
  retired_.clear();
  if (irq_due_) {
    irq_due_ = false;
    raise_irq();
  }
  if (cache_cmd_active_ && step_cache_command()) return;
  if (phase_ == Phase::Acquire && step_acquire()) return;
  if (phase_ == Phase::Dispatch && step_dispatch()) return;
  if (phase_ == Phase::Release && step_release()) return;
}

// A slice per launch or range on this dispatcher's track, named after the kernel.
void Dispatcher::trace_launch(Tracer& t) {
  const uint32_t track = t.track(path(), mode_ == Mode::Range ? "ranges" : "launches");
  t.outline(track, t.text(job_ctx().kernel->name), start_.value(), end_.value(),
            {{t.text("workgroups"), double(result_.workgroups)},
             {t.text("first_workgroup"), double(mode_ == Mode::Range ? regs_.wg_first : 0)},
             {t.text("waves"), double(result_.waves)},
             {t.text("wave_instructions"), double(result_.wave_instructions)},
             {t.text("acquire_cycles"), double(result_.acquire_cycles)},
             {t.text("release_cycles"), double(result_.release_cycles)},
             {t.text("fault"), result_.fault.empty() ? 0.0 : 1.0}});
}

// Carries out the policy's commands of the current step one after the other.
bool Dispatcher::step_policy_commands() {
  for (; next_policy_command_ < policy_commands_.size(); ++next_policy_command_) {
    const uint32_t command = policy_commands_[next_policy_command_];
    if (maintain(to_release_side(command), cache_op_of(command))) return true;
  }
  return false;
}

bool Dispatcher::step_acquire() {
  if (step_policy_commands()) return true;
  acquire_end_ = sc_core::sc_time_stamp();
  running_.acquire_cycles = cycles_between(start_, acquire_end_);
  phase_ = Phase::Dispatch;
  return false;
}

bool Dispatcher::step_dispatch() {
  const sc_time now = sc_core::sc_time_stamp();
  const bool paced = !job_.functional && interval_cycles_ > 0;
  while (!grid_done() && running_.fault.empty()) {
    if (paced && now < next_offer_) {
      step_event_.notify(next_offer_ - now);
      return true;
    }
    if (!offer_next()) {
      if (in_flight_.empty()) {
        // Nothing runs, so no CU will ever announce free resources.
        uint32_t wg[3] = {next_wg_[0], next_wg_[1], next_wg_[2]};
        running_.fault = "kernel '" + job_ctx().kernel->name + "': workgroup " + wg_text(wg) +
                         " does not fit on any compute unit (" + std::to_string(job_ctx().waves_per_workgroup) +
                         " waves, " + std::to_string(job_ctx().lds_bytes) + " bytes of LDS)";
        break;
      }
      return true;  // a CU's announcement wakes us
    }
    if (paced) next_offer_ = now + cycles(interval_cycles_);
  }
  if (!in_flight_.empty()) return true;  // finishing workgroups wake us
  if (mode_ == Mode::Range) {  // the kernel-boundary policy is the firmware's
    finish_launch();
    return true;
  }
  release_start_ = now;
  phase_ = Phase::Release;
  policy_commands_ = job_.functional ? std::vector<uint32_t>()
                                     : baseline_release_commands(direct_launch_header(), debug_flags_);
  next_policy_command_ = 0;
  return false;
}

bool Dispatcher::step_release() {
  if (step_policy_commands()) return true;
  running_.release_cycles = cycles_between(release_start_, sc_core::sc_time_stamp());
  finish_launch();
  return false;
}

void Dispatcher::finish_launch() {
  end_ = sc_core::sc_time_stamp();
  running_.cycles = cycles_between(start_, end_);
  running_.kernel_cycles = running_.cycles - running_.acquire_cycles - running_.release_cycles;
  result_ = running_;
  if (Tracer* t = tracer(TraceKind::Dispatch)) trace_launch(*t);
  if (!result_.fault.empty()) ++faults_;
  // Scratch regions go back to device memory: the next launch may need another size.
  free_scratch_.clear();
  scratch_.clear();
  phase_ = Phase::Idle;
  if (mode_ == Mode::Range) {
    regs_.fault = !result_.fault.empty();
    if (regs_.fault) last_fault_ = result_.fault;
    raise_irq();
    return;
  }
  ++launches_;
  cycles_ += result_.cycles;
  acquire_cycles_ += result_.acquire_cycles;
  release_cycles_ += result_.release_cycles;
  done_event_.notify(SC_ZERO_TIME);
  sc_core::sc_pause();
}

// ---- handing out workgroups ------------------------------------------------------

bool Dispatcher::offer_next() {
  const int n = static_cast<int>(cu.size());
  for (int k = 0; k < n; ++k) {
    const int i = (rr_ + k) % n;
    if (refused_[i]) continue;
    if (offer_to(i)) {
      rr_ = (i + 1) % n;
      return true;
    }
    refused_[i] = true;
    ++refusals_;
  }
  return false;
}

// The record goes into in_flight_ before the CU sees the offer: a functional
// CU runs the workgroup inside b_transport and may report it finished there.
bool Dispatcher::offer_to(int i) {
  const isa::DispatchContext& ctx = job_ctx();
  uint32_t ext[3];
  isa::workgroup_extent(ctx, next_wg_, ext);
  const uint64_t items = uint64_t(ext[0]) * ext[1] * ext[2];
  const uint32_t nwaves = static_cast<uint32_t>((items + isa::kWaveSize - 1) / isa::kWaveSize);

  InFlight rec;
  rec.cu = i;
  rec.trans = std::make_unique<tlm_generic_payload>();
  auto* task = new WorkgroupTask;
  rec.trans->set_extension(task);
  rec.trans->set_command(tlm::TLM_IGNORE_COMMAND);
  rec.trans->set_data_length(0);
  task->ctx = job_.ctx;
  task->program = job_.program;
  std::copy(next_wg_, next_wg_ + 3, task->workgroup);
  task->first_dispatch_wave = next_wave_;
  task->functional = job_.functional;
  task->code_address = job_.code_address;
  if (ctx.scratch_wave_bytes) {
    rec.scratch = take_scratch();
    task->scratch_address = scratch_[rec.scratch]->address();
  }
  tlm_generic_payload* trans = rec.trans.get();
  const int scratch = rec.scratch;
  const uint64_t key = next_wave_;
  in_flight_hist_.sample(in_flight_.size());
  in_flight_.emplace(key, std::move(rec));
  // Taken now: a functional CU may finish the workgroup inside the offer.
  const uint64_t holding = in_flight_.size();

  sc_time delay = SC_ZERO_TIME;
  (*cu[i])->b_transport(*trans, delay);
  if (!task->accepted) {
    in_flight_.erase(key);
    if (scratch >= 0) free_scratch_.push_back(scratch);
    return false;
  }
  ++workgroups_;
  ++*per_cu_[i];
  waves_ += nwaves;
  ++running_.workgroups;
  running_.waves += nwaves;
  running_.peak_workgroups = std::max(running_.peak_workgroups, holding);
  peak_in_flight_.value = std::max(peak_in_flight_.value, double(running_.peak_workgroups));
  // A CU that finishes during the offer may say so in the task instead of calling back.
  if (task->finished && in_flight_.count(key)) workgroup_finished(*task);
  retired_.clear();  // the CU's calls for this offer have returned
  next_wave_ += nwaves;
  advance_grid();
  return true;
}

void Dispatcher::advance_grid() {
  const isa::DispatchContext& ctx = job_ctx();
  ++next_linear_;
  if (++next_wg_[0] < ctx.workgroup_count[0]) return;
  next_wg_[0] = 0;
  if (++next_wg_[1] < ctx.workgroup_count[1]) return;
  next_wg_[1] = 0;
  ++next_wg_[2];
}

int Dispatcher::take_scratch() {
  if (!free_scratch_.empty()) {
    const int r = free_scratch_.back();
    free_scratch_.pop_back();
    return r;
  }
  const uint64_t bytes = uint64_t(job_ctx().scratch_wave_bytes) * job_ctx().waves_per_workgroup;
  scratch_.push_back(std::make_unique<isa::ScopedAllocation>(memory_, bytes));
  return static_cast<int>(scratch_.size()) - 1;
}

void Dispatcher::workgroup_finished(const WorkgroupTask& task) {
  auto it = in_flight_.find(task.first_dispatch_wave);
  if (it == in_flight_.end()) {
    SC_REPORT_ERROR(path().c_str(), ("a CU reported workgroup " + wg_text(task.workgroup) +
                                     " finished, but it is not in flight").c_str());
    return;
  }
  running_.wave_instructions += task.wave_instructions;
  ++regs_.wg_done;
  wave_instructions_ += task.wave_instructions;
  if (!task.fault.empty() && running_.fault.empty()) running_.fault = task.fault;
  if (it->second.scratch >= 0) free_scratch_.push_back(it->second.scratch);
  retired_.push_back(std::move(it->second.trans));
  in_flight_.erase(it);
}

tlm::tlm_sync_enum Dispatcher::cu_bw(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time&) {
  WorkgroupTask* task = trans.get_extension<WorkgroupTask>();
  if (phase != tlm::BEGIN_RESP || !task) {
    SC_REPORT_ERROR(path().c_str(), ("protocol violation on cu[" + std::to_string(id) +
                                     "]: expected BEGIN_RESP with a WorkgroupTask").c_str());
    return tlm::TLM_COMPLETED;
  }
  refused_[id] = false;
  if (task->finished) workgroup_finished(*task);
  if (phase_ == Phase::Dispatch) step_event_.notify(SC_ZERO_TIME);
  return tlm::TLM_COMPLETED;
}

// ---- cache maintenance -------------------------------------------------------------

// Which acquire-side caches may hold dirty lines, asked once through their
// ctrl sockets' debug transport (no time, no side effects). A target that does
// not answer it (no CacheCommand filled) counts as write-through.
void Dispatcher::start_of_simulation() {
  acquire_write_back_.assign(acquire.size(), false);
  size_t atomics_here = 0;
  std::string paths;  // of the caches atomics_here counts
  for (size_t i = 0; i < acquire.size(); ++i) {
    tlm_generic_payload t;
    CacheCommand cmd;
    t.set_extension(&cmd);
    t.set_command(tlm::TLM_IGNORE_COMMAND);
    t.set_data_length(0);
    (*acquire[i])->transport_dbg(t);
    t.clear_extension(&cmd);
    acquire_write_back_[i] = cmd.write_back;
    if (!cmd.atomics_here) continue;
    paths += (atomics_here++ ? ", " : "") + (cmd.path ? *cmd.path : "acquire[" + std::to_string(i) + "]");
  }
  // The CUs behind two such caches update their own copies of one address.
  if (atomics_here > 1)
    warn("acquire-side caches " + paths +
         " are write-back and apply atomics in their own copies (atomics: here): atomics of CUs behind different "
         "caches on one address do not see each other; set their atomics to below for device-wide results");
}

// One step of a cache command on one side; true while waiting for answers.
// A command that writes back the release side (the L2s) first writes back the
// acquire-side caches that may hold dirty lines (a write-back L1): otherwise
// their dirty lines would reach the L2 after its write-back, or never. With
// write-through caches above, nothing is sent to them and nothing is waited for.
bool Dispatcher::maintain(bool release_side, CacheOp op) {
  if (ctrl_pending_) return true;
  switch (maint_step_) {
    case MaintStep::Start:
      maint_step_ = MaintStep::Above;
      if (release_side && op != CacheOp::Invalidate &&
          send_maintenance(acquire, acquire_port_, CacheOp::Writeback, &acquire_write_back_))
        return true;
      [[fallthrough]];
    case MaintStep::Above:
      maint_step_ = MaintStep::Side;
      if (send_maintenance(release_side ? release : acquire, release_side ? release_port_ : acquire_port_, op))
        return true;
      [[fallthrough]];
    case MaintStep::Side:
      break;
  }
  maint_step_ = MaintStep::Start;
  return false;
}

bool Dispatcher::send_maintenance(std::vector<std::unique_ptr<InitiatorSocket>>& sockets, CtrlPort& port,
                                  CacheOp op, const std::vector<bool>* only) {
  size_t targets = 0;
  for (size_t i = 0; i < sockets.size(); ++i) targets += !only || (*only)[i];
  if (!targets) return false;
  ctrl_pending_ = static_cast<unsigned>(targets);
  ctrl_done_at_ = sc_core::sc_time_stamp();
  for (size_t i = 0; i < sockets.size(); ++i) {
    if (only && !(*only)[i]) continue;
    tlm_generic_payload& t = *port.trans[i];
    CacheCommand* cmd = t.get_extension<CacheCommand>();
    cmd->op = op;
    cmd->lines_written_back = cmd->lines_invalidated = 0;
    t.set_command(tlm::TLM_IGNORE_COMMAND);
    t.set_address(0);
    t.set_data_ptr(nullptr);
    t.set_data_length(0);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = (*sockets[i])->nb_transport_fw(t, phase, delay);
    if (r == tlm::TLM_COMPLETED) {
      maintenance_acked(t, sc_core::sc_time_stamp() + delay);
    } else if (r == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
      tlm::tlm_phase end = tlm::END_RESP;
      sc_time end_delay = delay;
      (*sockets[i])->nb_transport_fw(t, end, end_delay);
      maintenance_acked(t, sc_core::sc_time_stamp() + delay);
    }
    // TLM_ACCEPTED or END_REQ: the response comes on the backward path.
  }
  return true;
}

void Dispatcher::maintenance_acked(tlm_generic_payload& trans, const sc_time& at) {
  const CacheCommand* cmd = trans.get_extension<CacheCommand>();
  lines_written_back_ += cmd->lines_written_back;
  lines_invalidated_ += cmd->lines_invalidated;
  regs_.lines_wb += static_cast<uint32_t>(cmd->lines_written_back);
  regs_.lines_inv += static_cast<uint32_t>(cmd->lines_invalidated);
  if (!trans.is_response_ok())
    warn(std::string("cache command ") + cache_op_name(cmd->op) + " answered " + trans.get_response_string());
  ctrl_done_at_ = std::max(ctrl_done_at_, at);
  if (--ctrl_pending_ == 0) step_event_.notify(ctrl_done_at_ - sc_core::sc_time_stamp());
}

tlm::tlm_sync_enum Dispatcher::ctrl_bw(int, tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time& delay) {
  if (phase == tlm::END_REQ) return tlm::TLM_ACCEPTED;
  if (phase == tlm::BEGIN_RESP) {
    maintenance_acked(trans, sc_core::sc_time_stamp() + delay);
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(path().c_str(), "protocol violation: unexpected phase on a cache-control backward path");
  return tlm::TLM_COMPLETED;
}

// ---- CP mode: registers, ranges, cache commands ------------------------------------

void Dispatcher::regs_b_transport(tlm_generic_payload& trans, sc_time& delay) {
  const uint64_t offset = trans.get_address();
  if (trans.get_data_length() != 4 || (offset & 3) || !trans.get_data_ptr()) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  bool known = false;
  if (trans.is_read()) {
    known = read_register(static_cast<uint32_t>(offset), value);
    std::memcpy(trans.get_data_ptr(), &value, 4);
  } else if (trans.is_write()) {
    std::memcpy(&value, trans.get_data_ptr(), 4);
    known = write_register(static_cast<uint32_t>(offset), value, delay);
  }
  if (!known) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += register_latency_;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

// Returns false for an offset that is no readable register.
bool Dispatcher::read_register(uint32_t offset, uint32_t& out) const {
  auto lo = [](uint64_t v) { return static_cast<uint32_t>(v); };
  auto hi = [](uint64_t v) { return static_cast<uint32_t>(v >> 32); };
  out = 0;
  switch (offset) {
    case DISP_REG_CUS: out = static_cast<uint32_t>(cu.size()); return true;
    case DISP_REG_PACKET_LO: out = lo(regs_.packet); return true;
    case DISP_REG_PACKET_HI: out = hi(regs_.packet); return true;
    case DISP_REG_QUEUE_LO: out = lo(regs_.queue); return true;
    case DISP_REG_QUEUE_HI: out = hi(regs_.queue); return true;
    case DISP_REG_ID_LO: out = lo(regs_.dispatch_id); return true;
    case DISP_REG_ID_HI: out = hi(regs_.dispatch_id); return true;
    case DISP_REG_WG_FIRST: out = regs_.wg_first; return true;
    case DISP_REG_WG_COUNT: out = regs_.wg_count; return true;
    case DISP_REG_STATUS:
      out = (mode_ == Mode::Range && busy() ? DISP_STATUS_BUSY : 0) | (cache_cmd_active_ ? DISP_STATUS_CACHE_BUSY : 0) |
             (regs_.fault ? DISP_STATUS_FAULT : 0) | (regs_.bad_packet ? DISP_STATUS_BAD_PACKET : 0);
      return true;
    case DISP_REG_WG_DONE: out = regs_.wg_done; return true;
    case DISP_REG_LINES_WB: out = regs_.lines_wb; return true;
    case DISP_REG_LINES_INV: out = regs_.lines_inv; return true;
    default: return false;
  }
}

// Returns false for an offset that is no writable register.
bool Dispatcher::write_register(uint32_t offset, uint32_t value, const sc_time& delay) {
  auto set_lo = [value](uint64_t& r) { r = (r & ~uint64_t{0xffffffff}) | value; };
  auto set_hi = [value](uint64_t& r) { r = (r & 0xffffffffu) | (uint64_t(value) << 32); };
  switch (offset) {
    case DISP_REG_PACKET_LO: set_lo(regs_.packet); return true;
    case DISP_REG_PACKET_HI: set_hi(regs_.packet); return true;
    case DISP_REG_QUEUE_LO: set_lo(regs_.queue); return true;
    case DISP_REG_QUEUE_HI: set_hi(regs_.queue); return true;
    case DISP_REG_ID_LO: set_lo(regs_.dispatch_id); return true;
    case DISP_REG_ID_HI: set_hi(regs_.dispatch_id); return true;
    case DISP_REG_WG_FIRST: regs_.wg_first = value; return true;
    case DISP_REG_WG_COUNT: regs_.wg_count = value; return true;
    case DISP_REG_START: start_range(delay); return true;
    case DISP_REG_CACHE_OP: start_cache_command(value, delay); return true;
    default: return false;
  }
}

// Reads the packet and starts handing out [wg_first, wg_first + wg_count).
// A packet that cannot run is refused with DISP_STATUS_BAD_PACKET and an
// interrupt, so the firmware never waits for a range that will not finish.
void Dispatcher::start_range(const sc_time& delay) {
  ++ranges_;
  regs_.bad_packet = regs_.fault = false;
  regs_.wg_done = 0;
  const LoadedKernel* k = nullptr;
  try {
    if (busy() || cache_cmd_active_)
      throw UserError("START while a range or a cache command is still running");
    isa::AqlDispatchPacket packet;
    memory_.read(&packet, regs_.packet, sizeof packet);
    k = kernel_objects_.find(packet.kernel_object);
    if (!k)
      throw UserError("the packet at " + hex(regs_.packet) + " names kernel object " +
                      hex(packet.kernel_object) + ", where no kernel is loaded");
    range_ctx_ = isa::context_from_packet(packet, regs_.packet, regs_.queue, regs_.dispatch_id, k->program->code(),
                                          *k->kernel);
    range_ctx_.code_base = k->code_base;
    if (uint64_t(regs_.wg_first) + regs_.wg_count > range_ctx_.workgroup_total())
      throw UserError("range of " + std::to_string(regs_.wg_count) + " workgroups from " +
                      std::to_string(regs_.wg_first) + " exceeds the grid's " +
                      std::to_string(range_ctx_.workgroup_total()));
  } catch (const UserError& e) {
    regs_.bad_packet = true;
    ++bad_packets_;
    last_fault_ = path() + ": bad dispatch: " + e.what();
    warn(last_fault_);
    irq_due_ = true;
    step_event_.notify(delay);
    return;
  }
  job_ = DispatchJob{&range_ctx_, k->program, functional_, k->code_address};
  mode_ = Mode::Range;
  running_ = LaunchResult();
  start_ = sc_core::sc_time_stamp() + delay;
  next_offer_ = start_;
  next_linear_ = regs_.wg_first;
  end_linear_ = uint64_t(regs_.wg_first) + regs_.wg_count;
  uint64_t rest = regs_.wg_first;
  for (int d = 0; d < 3; ++d) {
    next_wg_[d] = static_cast<uint32_t>(rest % range_ctx_.workgroup_count[d]);
    rest /= range_ctx_.workgroup_count[d];
  }
  // Wave indices stay unique across the ranges of one dispatch.
  next_wave_ = uint64_t(regs_.wg_first) * range_ctx_.waves_per_workgroup;
  rr_ = 0;
  std::fill(refused_.begin(), refused_.end(), false);
  phase_ = Phase::Dispatch;
  step_event_.notify(delay);
}

void Dispatcher::start_cache_command(uint32_t value, const sc_time& delay) {
  const uint32_t op = value & 0xff;
  regs_.lines_wb = regs_.lines_inv = 0;
  ++cache_commands_;
  if (op < DISP_CACHE_INVALIDATE || op > DISP_CACHE_WB_INVALIDATE || cache_cmd_active_) {
    regs_.bad_packet = true;
    warn("cache command " + hex(value) + (cache_cmd_active_ ? " while another is running" : " is unknown"));
    irq_due_ = true;
    step_event_.notify(delay);
    return;
  }
  cache_cmd_op_ = cache_op_of(value);
  cache_cmd_release_side_ = to_release_side(value);
  cache_cmd_active_ = true;
  maint_step_ = MaintStep::Start;
  step_event_.notify(delay);
}

// Functional ranges bypass the caches, so their commands have nothing to do.
bool Dispatcher::step_cache_command() {
  if (!functional_ && maintain(cache_cmd_release_side_, cache_cmd_op_)) return true;
  cache_cmd_active_ = false;
  raise_irq();
  return false;
}

void Dispatcher::raise_irq() {
  if (!irq) return;
  tlm_generic_payload t;
  uint32_t one = 1;
  t.set_command(tlm::TLM_WRITE_COMMAND);
  t.set_address(0);
  t.set_data_ptr(reinterpret_cast<unsigned char*>(&one));
  t.set_data_length(4);
  t.set_streaming_width(4);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_time delay = SC_ZERO_TIME;
  (*irq)->b_transport(t, delay);
}

// ---- registration ----------------------------------------------------------------

const ParamTable<DispatcherConfig>& dispatcher_param_table() {
  using C = DispatcherConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .add(&C::debug_flags, int_param("debug_flags", 0, "CP_DEBUG_* flags (cp_regs.h) the baseline policy of a "
                                          "launch without a command processor is given, as the firmware is given "
                                          "cp.debug_flags: 1 skips the release's write-back, 2 the L2 invalidation "
                                          "at the start", 0.0, 4294967295.0))
          .add(&C::workgroup_interval, int_param("workgroup_interval", 1, "cycles between two workgroups handed out "
                                                 "(0: as many as CUs take at once)", 0.0, 1e6, "cycles"))
          .add(&C::register_latency, int_param("register_latency", 10, "cycles a register access from the command "
                                               "processor takes (CP mode)", 0.0, 1e6, "cycles"));
  return table;
}

BlockType dispatcher_block_type() {
  BlockType t;
  t.name = "dispatcher";
  t.doc = "Hands a kernel launch's workgroups to compute units round-robin as their resources allow, with "
          "cache maintenance before (acquire) and after (release) the launch";
  t.params = dispatcher_param_table().specs();
  SocketSpec cu;
  cu.name = "cu";
  cu.dir = SocketDir::Initiator;
  cu.protocol = "dispatch";
  cu.vector = true;
  cu.doc = "to each compute unit's dispatch socket, in round-robin order";
  SocketSpec acq;
  acq.name = "acquire";
  acq.dir = SocketDir::Initiator;
  acq.protocol = "cache_ctrl";
  acq.vector = true;
  acq.required = false;
  acq.doc = "to the ctrl socket of each cache acquired at kernel start (L1V, scalar, instruction caches)";
  SocketSpec rel = acq;
  rel.name = "release";
  rel.doc = "to the ctrl socket of each cache released at kernel end (L2 slices)";
  // name, direction, protocol, vector, required, doc (no request sizes)
  const SocketSpec regs{"regs", SocketDir::Target, "cp_mmio", false, false,
                        "from the command processor's dispatcher[d] socket: the DISP_REG_* registers (CP mode)",
                        {}, {}};
  const SocketSpec irq{"irq", SocketDir::Initiator, "irq", false, false,
                       "to the command processor's irq[d] socket: raised when a range or a cache command has finished",
                       {}, {}};
  t.sockets = {cu, acq, rel, regs, irq};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    if (ctx.socket_count("cu") <= 0) throw UserError("dispatcher '" + ctx.path + "': no cu sockets are bound");
    return std::make_unique<Dispatcher>(ctx);
  };
  return t;
}

TESSERA_REGISTER_BLOCK(dispatcher_block_type);

}  // namespace tessera
