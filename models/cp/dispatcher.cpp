#include "models/cp/dispatcher.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <type_traits>

#include "models/mem/tlm_helpers.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

static_assert(std::is_base_of_v<tlm::tlm_initiator_socket<>, Dispatcher::InitiatorSocket>);

namespace {

int count_of(const BlockContext& ctx, const char* name) {
  auto it = ctx.socket_counts.find(name);
  return it == ctx.socket_counts.end() ? 0 : it->second;
}

std::optional<CacheOp> maintenance_op(const std::string& name) {
  if (name == "invalidate") return CacheOp::Invalidate;
  if (name == "writeback") return CacheOp::Writeback;
  if (name == "writeback_invalidate") return CacheOp::WritebackInvalidate;
  return std::nullopt;  // "none"
}

std::string wg_text(const uint32_t wg[3]) {
  return "(" + std::to_string(wg[0]) + "," + std::to_string(wg[1]) + "," + std::to_string(wg[2]) + ")";
}

}  // namespace

Dispatcher::Dispatcher(const BlockContext& ctx)
    : Block(ctx),
      memory_(shared().get<isa::DeviceMemory>("device")),
      acquire_op_(maintenance_op(ctx.params.string("acquire_op"))),
      release_op_(maintenance_op(ctx.params.string("release_op"))),
      interval_cycles_(static_cast<uint64_t>(ctx.params.integer("workgroup_interval"))),
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
      faults_(stats().counter("faults", "launches that ended with a wave fault")),
      peak_in_flight_(
          stats().scalar("peak_workgroups_in_flight", "most workgroups in flight at once, over all launches")),
      in_flight_hist_(stats().histogram("workgroups_in_flight", "workgroups in flight when one more is handed out", 1,
                                        64)) {
  const int n_cu = count_of(ctx, "cu");
  for (int i = 0; i < n_cu; ++i) {
    cu.push_back(std::make_unique<InitiatorSocket>(("cu_" + std::to_string(i)).c_str()));
    cu.back()->register_nb_transport_bw(this, &Dispatcher::cu_bw, i);
    cu.back()->register_invalidate_direct_mem_ptr(this, &Dispatcher::invalidate_dmi, i);
    per_cu_.push_back(&stats().counter("workgroups_to_cu" + std::to_string(i), "workgroups handed to cu[" +
                                                                                   std::to_string(i) + "]"));
  }
  refused_.assign(n_cu, false);
  // Acquire sockets are ids 0..n-1 of ctrl_bw, release sockets n.. (one handler for both).
  const int n_acq = count_of(ctx, "acquire"), n_rel = count_of(ctx, "release");
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
  return nullptr;
}

std::string Dispatcher::summary() const {
  if (!launches_.value) return "";
  return std::to_string(launches_.value) + " launches, " + std::to_string(workgroups_.value) + " workgroups, " +
         std::to_string(cycles_.value) + " cycles (" + std::to_string(acquire_cycles_.value) + " acquiring, " +
         std::to_string(release_cycles_.value) + " releasing)";
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
  running_ = LaunchResult();
  start_ = sc_core::sc_time_stamp();
  next_offer_ = start_;
  next_linear_ = 0;
  next_wg_[0] = next_wg_[1] = next_wg_[2] = 0;
  next_wave_ = 0;
  rr_ = 0;
  std::fill(refused_.begin(), refused_.end(), false);
  ctrl_started_ = false;
  phase_ = Phase::Acquire;
  step_event_.notify(SC_ZERO_TIME);
}

void Dispatcher::step_method() {
  retired_.clear();
  if (phase_ == Phase::Acquire && step_acquire()) return;
  if (phase_ == Phase::Dispatch && step_dispatch()) return;
  if (phase_ == Phase::Release && step_release()) return;
}

bool Dispatcher::step_acquire() {
  if (!ctrl_started_) {
    ctrl_started_ = true;
    if (!job_.functional && acquire_op_ && send_maintenance(acquire, acquire_port_, *acquire_op_)) return true;
  }
  if (ctrl_pending_) return true;
  acquire_end_ = sc_core::sc_time_stamp();
  running_.acquire_cycles = cycles_between(start_, acquire_end_);
  ctrl_started_ = false;
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
  release_start_ = now;
  phase_ = Phase::Release;
  return false;
}

bool Dispatcher::step_release() {
  if (!ctrl_started_) {
    ctrl_started_ = true;
    if (!job_.functional && release_op_ && send_maintenance(release, release_port_, *release_op_)) return true;
  }
  if (ctrl_pending_) return true;
  ctrl_started_ = false;
  running_.release_cycles = cycles_between(release_start_, sc_core::sc_time_stamp());
  finish_launch();
  return false;
}

void Dispatcher::finish_launch() {
  running_.cycles = cycles_between(start_, sc_core::sc_time_stamp());
  result_ = running_;
  ++launches_;
  cycles_ += result_.cycles;
  acquire_cycles_ += result_.acquire_cycles;
  release_cycles_ += result_.release_cycles;
  if (!result_.fault.empty()) ++faults_;
  // Scratch regions go back to device memory: the next launch may need another size.
  free_scratch_.clear();
  scratch_.clear();
  phase_ = Phase::Idle;
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

bool Dispatcher::send_maintenance(std::vector<std::unique_ptr<InitiatorSocket>>& sockets, CtrlPort& port,
                                  CacheOp op) {
  if (sockets.empty()) return false;
  ctrl_pending_ = static_cast<unsigned>(sockets.size());
  ctrl_done_at_ = sc_core::sc_time_stamp();
  for (size_t i = 0; i < sockets.size(); ++i) {
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

// ---- registration ----------------------------------------------------------------

BlockType dispatcher_block_type() {
  const std::vector<std::string> ops = {"invalidate", "writeback", "writeback_invalidate", "none"};
  BlockType t;
  t.name = "dispatcher";
  t.doc = "Hands a kernel launch's workgroups to compute units round-robin as their resources allow, with "
          "cache maintenance before (acquire) and after (release) the launch";
  t.params = {
      enum_param("acquire_op", "invalidate", ops,
                 "command sent to every cache on acquire[] before the first workgroup (kernel-start acquire)"),
      enum_param("release_op", "writeback_invalidate", ops,
                 "command sent to every cache on release[] after the last workgroup finished (kernel-end release)"),
      int_param("workgroup_interval", 1, "cycles between two workgroups handed out (0: as many as CUs take at once)",
                0.0, 1e6, "cycles"),
  };
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
  t.sockets = {cu, acq, rel};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    if (count_of(ctx, "cu") <= 0) throw UserError("dispatcher '" + ctx.path + "': no cu sockets are bound");
    return std::make_unique<Dispatcher>(ctx);
  };
  return t;
}

TESSERA_REGISTER_BLOCK(dispatcher_block_type);

}  // namespace tessera
