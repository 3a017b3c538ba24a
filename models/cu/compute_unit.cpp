#include "models/cu/compute_unit.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "models/cu/coalescer.h"
#include "models/cu/isa/prepared_dispatch.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

namespace {

uint64_t round_up(uint64_t v, uint64_t granule) { return (v + granule - 1) / granule * granule; }

// "chiplet[1].cu[17]" -> 17: the CU's number in GpuAccess::cu.
int index_from_path(const std::string& path) {
  if (path.empty() || path.back() != ']') return 0;
  const size_t open = path.rfind('[');
  if (open == std::string::npos) return 0;
  try {
    return std::stoi(path.substr(open + 1));
  } catch (...) {
    return 0;
  }
}

}  // namespace

ComputeUnit::ComputeUnit(const BlockContext& ctx)
    : Block(ctx),
      dispatch("dispatch"),
      vmem("vmem"),
      smem("smem"),
      ifetch("ifetch"),
      cfg_(CuConfig::from(ctx.params, ctx.path)),
      cu_id_(index_from_path(ctx.path)),
      device_(shared().get<isa::DeviceMemory>("device")),
      st_(stats(), cfg_.simds * cfg_.wave_slots),
      lds_(cfg_.lds_banks, cfg_.lds_latency),
      multicast_(cfg_.lds_multicast ? new lds::LdsMulticast(cfg_.lds_multicast_table, cfg_.lds_multicast_wait)
                                    : nullptr),
      policy_(cfg_.scheduler),
      slots_(cfg_.simds * cfg_.wave_slots),
      due_(cfg_.simds * cfg_.wave_slots),
      fetch_bits_((cfg_.simds * cfg_.wave_slots + 63) / 64),
      slots_used_(cfg_.simds),
      vgprs_used_(cfg_.simds),
      sgprs_used_(cfg_.simds),
      simd_free_(cfg_.simds),
      mfma_free_(cfg_.simds),
      vmem_port_(vmem, cfg_.vmem_line, cfg_.max_vmem_requests),
      smem_port_(smem, cfg_.smem_line, cfg_.max_smem_requests),
      fetch_port_(ifetch, cfg_.fetch_bytes, cfg_.max_fetches),
      note_task_(new WorkgroupTask()) {
  for (unsigned i = 0; i < slots_.size(); ++i) {
    slots_[i].simd = i / cfg_.wave_slots;
    slots_[i].index = i;
  }
  note_trans_.set_extension(note_task_);
  if (multicast_) lds::register_multicast_marker();
  constexpr TraceKinds kCuKinds = TraceKinds(TraceKind::Workgroup) | TraceKinds(TraceKind::Wave) |
                                  TraceKinds(TraceKind::Stall) | TraceKinds(TraceKind::Memory);
  if (tracer() && (trace_kinds() & kCuKinds))
    trace_ = std::make_unique<CuTrace>(*tracer(), trace_kinds(), path(), clock_period(), slots_.size());
  if (cfg_.zero_queries) zero_ = std::make_unique<ZeroQueryStats>(stats());
  if (cfg_.lazy_loads)
    lazy_ = std::make_unique<LazyUnit>(stats(), cfg_.simds * cfg_.wave_slots, kVgprSlot + cfg_.vgprs, zero_.get(),
                                       cfg_.zero_query_span);
  if (lazy_) lazy_->set_whole_loads(cfg_.lazy_whole_loads);
  if (cfg_.darsie_count) {
    register_darsie_marker();
    darsie_ = std::make_unique<DarsieUnit>(stats(), cfg_);
  }
  if (cfg_.assist_warps)
    assist_ = std::make_unique<AssistWarpController>(stats(), cfg_, cfg_.simds * cfg_.wave_slots,
                                                     [this](const std::string& m) { SC_REPORT_ERROR(path().c_str(), m.c_str()); });
  dispatch.register_b_transport(this, &ComputeUnit::b_transport_dispatch);
  vmem.register_nb_transport_bw(this, &ComputeUnit::nb_transport_bw, kVmem);
  smem.register_nb_transport_bw(this, &ComputeUnit::nb_transport_bw, kSmem);
  ifetch.register_nb_transport_bw(this, &ComputeUnit::nb_transport_bw, kFetch);
}

ComputeUnit::~ComputeUnit() = default;

tlm::tlm_target_socket<>* ComputeUnit::target_socket(const std::string& name, int index) {
  return name == "dispatch" && index < 0 ? &dispatch : nullptr;
}

tlm::tlm_initiator_socket<>* ComputeUnit::initiator_socket(const std::string& name, int index) {
  if (index >= 0) return nullptr;
  if (name == "vmem") return &vmem;
  if (name == "smem") return &smem;
  if (name == "ifetch") return &ifetch;
  return nullptr;
}

std::string ComputeUnit::summary() const {
  if (!st_.instructions.value && !st_.functional_instructions.value) return "";
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %llu workgroups, %llu wave-instructions, %llu active cycles", path().c_str(),
                static_cast<unsigned long long>(st_.workgroups.value + st_.workgroups_functional.value),
                static_cast<unsigned long long>(st_.instructions.value + st_.functional_instructions.value),
                static_cast<unsigned long long>(st_.active_cycles.value));
  return buf;
}

// The requests not yet answered, then every resident wave: where it is and
// what it waits for, as the last evaluation found it.
void ComputeUnit::describe_pending(std::vector<std::string>& lines) const {
  const Port* ports[] = {&vmem_port_, &smem_port_, &fetch_port_};
  const char* names[] = {"vmem", "smem", "ifetch"};
  for (int i = 0; i < 3; ++i) {
    const Port& p = *ports[i];
    if (p.queue.empty() && !p.outstanding && !p.blocked) continue;
    lines.push_back(path() + ": " + names[i] + ": " + std::to_string(p.queue.size()) + " requests not sent, " +
                    std::to_string(p.outstanding) + " sent and unanswered" +
                    (p.blocked ? ", one waiting for END_REQ" : ""));
  }
  for (const WaveSlot* w : order_) {
    const isa::Wave& wave = *w->wave;
    const uint32_t* g = w->wg->task.workgroup;
    std::string line = path() + ": wave " + std::to_string(wave.id.wave_in_group) + " of workgroup (" +
                       std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]) + ") at PC " +
                       hex(wave.pc);
    if (w->looked_op && w->looked_pc == wave.pc) line += std::string(" (") + w->looked_op->inst.mnemonic() + ")";
    line += w->ended ? ": ended, draining" : std::string(": ") + stall_name(w->reason);
    lines.push_back(line + "; vmcnt " + std::to_string(w->vm) + ", lgkmcnt " + std::to_string(w->lgkm));
  }
}

// ---- dispatch ----------------------------------------------------------------

void ComputeUnit::b_transport_dispatch(tlm_generic_payload& trans, sc_time&) {
  WorkgroupTask* task = trans.get_extension<WorkgroupTask>();
  if (!task || !task->ctx || !task->program || !task->ctx->kernel) {
    SC_REPORT_ERROR(path().c_str(), "dispatch: a transaction without a complete WorkgroupTask");
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  if (task->functional) {
    run_functional(*task);
    return;
  }
  task->accepted = try_accept(*task);
  if (!task->accepted) {
    refused_ = true;
    ++st_.refusals;
  }
}

// Resources of one wave and of the workgroup; a workgroup that can never fit
// this CU is answered at once with a fault rather than refused forever.
bool ComputeUnit::try_accept(WorkgroupTask& task, PriorityClass priority, Workgroup** launched) {
  const isa::DispatchContext& ctx = *task.ctx;
  const isa::KernelInfo& k = *ctx.kernel;
  uint32_t ext[3];
  isa::workgroup_extent(ctx, task.workgroup, ext);
  const uint64_t items = uint64_t(ext[0]) * ext[1] * ext[2];
  const unsigned waves = static_cast<unsigned>((items + isa::kWaveSize - 1) / isa::kWaveSize);
  unsigned vgpr = static_cast<unsigned>(round_up(k.descriptor.arch_vgprs() + k.descriptor.agprs(), cfg_.vgpr_granule));
  if (cfg_.assist_warps)  // reserved, for the assist warps a wave may run at once
    vgpr += cfg_.assist_register_sets() * static_cast<unsigned>(round_up(cfg_.assist_warp_vgprs, cfg_.vgpr_granule));
  const unsigned sgpr = static_cast<unsigned>(round_up(std::max<uint32_t>(k.sgpr_count, 1), cfg_.sgpr_granule));
  const uint32_t lds = ctx.lds_bytes ? static_cast<uint32_t>(round_up(ctx.lds_bytes, cfg_.lds_granule)) : 0;
  std::string never;
  if (vgpr > cfg_.vgprs)
    never = "needs " + std::to_string(vgpr) + " VGPRs per wave, a SIMD has " + std::to_string(cfg_.vgprs);
  else if (sgpr > cfg_.sgprs)
    never = "needs " + std::to_string(sgpr) + " SGPRs per wave, a SIMD has " + std::to_string(cfg_.sgprs);
  else if (lds > cfg_.lds_size)
    never = "needs " + std::to_string(lds) + " bytes of LDS, the CU has " + std::to_string(cfg_.lds_size);
  else if (waves > cfg_.simds * cfg_.wave_slots)
    never = "has " + std::to_string(waves) + " waves, the CU has " + std::to_string(cfg_.simds * cfg_.wave_slots) +
            " wave slots";
  if (!never.empty()) {
    task.accepted = task.finished = true;
    task.fault = "kernel '" + k.name + "' cannot run on " + path() + ": a workgroup " + never;
    ++st_.faults;
    return true;
  }
  unsigned first_simd = 0;
  if (lds_used_ + lds > cfg_.lds_size || !place(waves, vgpr, sgpr, first_simd)) return false;
  Workgroup& wg = launch(task, waves, vgpr, sgpr, lds, first_simd, priority);
  if (launched) *launched = &wg;
  return true;
}

bool ComputeUnit::inject(const WorkgroupTask& task, PriorityClass priority, std::function<void(const Workgroup&)> on_end) {
  WorkgroupTask t = task;
  t.functional = false;
  Workgroup* wg = nullptr;
  if (!try_accept(t, priority, &wg)) return false;
  if (!wg) {  // it can never fit here: nothing was launched
    if (on_end) {
      Workgroup never;
      never.task = t;
      on_end(never);
    }
    return true;
  }
  wg->on_end = std::move(on_end);
  return true;
}

// Waves go to SIMDs round-robin from a starting SIMD; the first start (from
// the one after the last workgroup's) where every SIMD has the slots, VGPRs
// and SGPRs for its share wins.
bool ComputeUnit::place(unsigned waves, unsigned vgpr, unsigned sgpr, unsigned& first_simd) const {
  for (unsigned k = 0; k < cfg_.simds; ++k) {
    const unsigned s0 = (next_simd_ + k) % cfg_.simds;
    bool fits = true;
    for (unsigned s = 0; s < cfg_.simds && fits; ++s) {
      const unsigned share = waves / cfg_.simds + ((s + cfg_.simds - s0) % cfg_.simds < waves % cfg_.simds ? 1 : 0);
      fits = slots_used_[s] + share <= cfg_.wave_slots && vgprs_used_[s] + share * vgpr <= cfg_.vgprs &&
             sgprs_used_[s] + share * sgpr <= cfg_.sgprs;
    }
    if (fits) {
      first_simd = s0;
      return true;
    }
  }
  return false;
}

WaveSlot* ComputeUnit::free_slot(unsigned simd) {
  for (unsigned i = simd * cfg_.wave_slots; i < (simd + 1) * cfg_.wave_slots; ++i)
    if (!slots_[i].active) return &slots_[i];
  return nullptr;  // unreachable: place() checked the slots
}

Workgroup& ComputeUnit::launch(const WorkgroupTask& task, unsigned waves, unsigned vgpr, unsigned sgpr, uint32_t lds,
                               unsigned first_simd, PriorityClass priority) {
  const isa::DispatchContext& ctx = *task.ctx;
  const isa::KernelDescriptor& kd = ctx.kernel->descriptor;
  const uint64_t c = now_cycle();
  account_until(c);
  Workgroup* wg;
  if (free_workgroups_.empty()) {
    workgroups_.push_back(std::make_unique<Workgroup>());
    wg = workgroups_.back().get();
  } else {
    wg = free_workgroups_.back();
    free_workgroups_.pop_back();
  }
  wg->task = task;
  wg->task.accepted = true;
  wg->waves.clear();
  wg->running = wg->resident = waves;
  wg->at_barrier = 0;
  wg->lds_cost = lds;
  wg->lds.assign(std::max<uint32_t>(ctx.lds_bytes, 1), 0);
  wg->faulted = false;
  wg->instructions = 0;
  wg->on_end = nullptr;
  if (trace_) trace_->workgroup_started(*wg, c);
  lds_used_ += lds;
  // Decode caches belong to launches; one freed while the CU was empty may
  // come back at the same address with another program.
  if (!resident_) programs_.clear();
  auto& prog = programs_[task.program];
  if (!prog) prog = std::make_unique<ProgramInfo>(*task.program, cfg_);
  const InstMarks* marks = prog->marks(*ctx.kernel);

  for (unsigned i = 0; i < waves; ++i) {
    const unsigned simd = (first_simd + i) % cfg_.simds;
    WaveSlot& w = *free_slot(simd);
    if (!w.wave || w.wave->num_vgprs() != kd.arch_vgprs() || w.wave->num_agprs() != kd.agprs())
      w.wave = std::make_unique<isa::Wave>(kd.arch_vgprs(), kd.agprs());
    else
      w.wave->reset();
    isa::Wave& wave = *w.wave;
    wave.attach_memory(&device_);
    wave.attach_lds(wg->lds.data(), ctx.lds_bytes);
    isa::start_wave(wave, ctx, task.workgroup, i, task.scratch_address);
    wave.id.dispatch_wave = task.first_dispatch_wave + i;
    w.board.reset(kVgprSlot + wave.num_vgprs() + wave.num_agprs(), wave.num_vgprs());
    w.marks = marks;
    w.priority = priority;
    w.user_priority = 0;
    w.active = true;
    w.ended = w.retiring = false;
    w.wg = wg;
    w.prog = prog.get();
    w.age = next_age_++;
    w.issued = 0;
    w.fetch_offset = task.code_address ? task.code_address - task.program->code().text_address() : cfg_.fetch_base;
    w.vgpr_cost = vgpr;
    w.sgpr_cost = sgpr;
    // The launcher sets up one wave after another.
    launcher_free_ = std::max(launcher_free_, c) + cfg_.launch_latency;
    w.ready_at = launcher_free_;
    w.ready_reason = Stall::Launch;
    w.vm = w.lgkm = w.lds_out = w.smem_out = 0;
    w.vm_order.clear();
    w.site = isa::FaultSite{wave.pc, nullptr};
    w.reason = Stall::Launch;
    w.accounted = c;
    w.earliest = w.ready_at;
    w.next_info = nullptr;
    w.looked_pc = kNever;
    insert_wave(w);
    ib_reset(w, wave.pc);  // (in the order already: its fetch bit is at its position)
    slots_used_[simd] += 1;
    vgprs_used_[simd] += vgpr;
    sgprs_used_[simd] += sgpr;
    wg->waves.push_back(&w);
    ++resident_;
    if (trace_) trace_->wave_started(w, c);
  }
  if (log_level() <= LogLevel::Debug)
    debug("cycle " + std::to_string(c) + " launches workgroup (" + std::to_string(task.workgroup[0]) + "," +
          std::to_string(task.workgroup[1]) + "," + std::to_string(task.workgroup[2]) + "), " + std::to_string(waves) +
          " waves");
  next_simd_ = (first_simd + waves) % cfg_.simds;
  if (darsie_) darsie_->launched(*wg, extent_of(task), darsie_rename_budget(waves, vgpr, sgpr, lds));
  st_.waves_launched += waves;
  ++st_.workgroups;
  wake_at(c);
  return *wg;
}

// A new wave takes its place in the priority order (issue_policy.h): at the
// end, unless waves of a lower class are there. The issue stage looks at it
// at its next pass.
void ComputeUnit::insert_wave(WaveSlot& w) {
  place_wave(w, 0);
  w.dirty = true;
  waves_changed_ = true;
}

// Puts `w` (not in order_) at its place in the priority order, with the
// cycle its evaluation holds until.
void ComputeUnit::place_wave(WaveSlot& w, uint64_t eval_at) {
  const size_t at = policy_.insert_position(order_, w);
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(at), &w);
  eval_at_.insert(eval_at_.begin() + static_cast<std::ptrdiff_t>(at), eval_at);
  for (size_t k = at; k < order_.size(); ++k) order_[k]->pos = static_cast<unsigned>(k);
  if (at + 1 < order_.size()) rebuild_fetch_bits();  // the waves after it moved down one place
}

// Takes `w` out of the priority order; returns the cycle its evaluation held until.
uint64_t ComputeUnit::unplace_wave(WaveSlot& w) {
  const uint64_t eval_at = eval_at_[w.pos];
  order_.erase(order_.begin() + w.pos);
  eval_at_.erase(eval_at_.begin() + w.pos);
  for (size_t k = w.pos; k < order_.size(); ++k) order_[k]->pos = static_cast<unsigned>(k);
  rebuild_fetch_bits();  // the waves after it moved up one place
  return eval_at;
}

// Waves whose s_setprio issued this cycle move to their new place (after the
// issue stage, whose passes walk the order by position). Their evaluations
// still hold; the issue stage looks at the order again next cycle.
void ComputeUnit::apply_priorities() {
  for (WaveSlot* w : reprioritized_) {
    if (!w->active) continue;
    place_wave(*w, unplace_wave(*w));
    waves_changed_ = true;
  }
  reprioritized_.clear();
}

// The fetch bits of every wave at its position in the priority order.
void ComputeUnit::rebuild_fetch_bits() {
  std::fill(fetch_bits_.begin(), fetch_bits_.end(), 0);
  for (const WaveSlot* x : order_)
    if (x->wants_fetch) fetch_bits_[x->pos / 64] |= uint64_t{1} << (x->pos % 64);
}

// Functional mode: the whole workgroup runs now, with direct memory access,
// waves round-robin in slices as the functional executor runs them.
void ComputeUnit::run_functional(WorkgroupTask& task) {
  const isa::DispatchContext& ctx = *task.ctx;
  const isa::KernelInfo& kernel = *ctx.kernel;
  const isa::KernelDescriptor& kd = kernel.descriptor;
  uint32_t ext[3];
  isa::workgroup_extent(ctx, task.workgroup, ext);
  const uint64_t items = uint64_t(ext[0]) * ext[1] * ext[2];
  const unsigned n = static_cast<unsigned>((items + isa::kWaveSize - 1) / isa::kWaveSize);
  functional_lds_.assign(std::max<uint32_t>(ctx.lds_bytes, 1), 0);
  while (functional_waves_.size() < n) functional_waves_.push_back(nullptr);
  for (unsigned i = 0; i < n; ++i) {
    auto& w = functional_waves_[i];
    if (!w || w->num_vgprs() != kd.arch_vgprs() || w->num_agprs() != kd.agprs())
      w = std::make_unique<isa::Wave>(kd.arch_vgprs(), kd.agprs());
    else
      w->reset();
    w->attach_memory(&device_);
    w->attach_lds(functional_lds_.data(), ctx.lds_bytes);
    isa::start_wave(*w, ctx, task.workgroup, i, task.scratch_address);
    w->id.dispatch_wave = task.first_dispatch_wave + i;
  }
  uint64_t executed = 0;
  std::vector<uint64_t> per_wave(n, 0);  // against the spinning limit
  for (;;) {
    bool any_running = false;
    for (unsigned i = 0; i < n; ++i) {
      isa::Wave& w = *functional_waves_[i];
      if (!w.running()) continue;
      isa::FaultSite site;
      const uint32_t ran = isa::run_wave(*task.program, w, 4096, site);
      executed += ran;
      if ((per_wave[i] += ran) > wave_instruction_limit_ && w.running()) {
        site = isa::FaultSite{w.pc, task.program->at(w.pc)};
        w.fault(isa::spinning_message(wave_instruction_limit_));
      }
      if (w.status() == isa::WaveStatus::Faulted) {
        task.fault = isa::fault_report(kernel, w, site);
        ++st_.faults;
        goto done;
      }
      any_running |= w.running();
    }
    if (any_running) continue;
    bool released = false;  // nobody runs: release a barrier, or everyone ended
    for (unsigned i = 0; i < n; ++i)
      if (functional_waves_[i]->status() == isa::WaveStatus::AtBarrier) {
        functional_waves_[i]->leave_barrier();
        released = true;
      }
    if (!released) break;
  }
done:
  task.accepted = task.finished = true;
  task.wave_instructions = executed;
  st_.functional_instructions += executed;
  ++st_.workgroups_functional;
}

void ComputeUnit::notify_dispatcher(const WorkgroupTask& note) { notes_.push_back(note); }

// The dispatcher may offer the next workgroup from inside nb_transport_bw, so
// notifications go out only after the tick has finished with its lists.
void ComputeUnit::flush_notifications() {
  if (notes_.empty()) return;
  std::vector<WorkgroupTask> notes;
  notes.swap(notes_);
  for (const WorkgroupTask& n : notes) {
    *note_task_ = n;
    note_trans_.set_command(tlm::TLM_IGNORE_COMMAND);
    note_trans_.set_data_length(0);
    note_trans_.set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay = SC_ZERO_TIME;
    dispatch->nb_transport_bw(note_trans_, phase, delay);
  }
}

// ---- the cycle loop ------------------------------------------------------------

uint64_t ComputeUnit::now_cycle() const {
  const uint64_t t = sim_now().value(), p = clock_period().value();
  return (t + p - 1) / p;
}

void ComputeUnit::wake_at(uint64_t cycle) {
  if (ticked_ && cycle <= last_tick_) cycle = last_tick_ + 1;
  const uint64_t at = clock_period().value() * cycle, now = sim_now().value();
  tick_.event().notify_at(std::max(at, now));
}

// Occupancy and active cycles up to `cycle`. Called before the number of
// resident waves changes and at the end: in between it is constant, so ticks
// need not account (a sample of n + m cycles equals one of n and one of m).
void ComputeUnit::account_until(uint64_t cycle) {
  if (cycle <= occ_since_) return;
  const uint64_t n = cycle - occ_since_;
  st_.resident.sample(resident_, n);
  if (resident_) st_.active_cycles += n;
  occ_since_ = cycle;
}

// The one way a wave is woken: something its last evaluation depended on
// changed, so the issue stage evaluates it again at its next pass (not
// before: a wave's last evaluation holds until then). A barrier release or a
// fault may happen inside the issue stage's pass, and wakes waves the pass
// has already gone by: it looks at them again in the same pass.
void ComputeUnit::wake(WaveSlot& w, WakeReason why) {
  w.dirty = true;
  waves_changed_ = true;
  if (w.active) eval_at_[w.pos] = 0;
  if (why == WakeReason::BarrierRelease || why == WakeReason::Fault) others_changed_ = true;
}

// Stall cycles are charged lazily: a wave's reason holds from `accounted`
// until it is evaluated again, so waves that are not evaluated cost nothing.
void ComputeUnit::settle(WaveSlot& w, uint64_t cycle) {
  if (cycle <= w.accounted) return;
  if (Counter* n = st_.stalled[size_t(w.reason)]) *n += cycle - w.accounted;
  if (trace_) trace_->stall(w, w.reason, w.accounted, cycle);
  w.accounted = cycle;
}

void ComputeUnit::tick() {
  const uint64_t c = now_cycle();
  if (ticked_ && c <= last_tick_) {
    wake_at(last_tick_ + 1);
    return;
  }
  ++st_.ticks;
  if (log_level() <= LogLevel::Debug) debug("tick " + std::to_string(c));
  ticked_ = true;
  last_tick_ = c;
  take_arrivals(c);
  retire_lds(c);
  if (multicast_) expire_multicast(c);
  if (assist_) issue_assist(c);  // high priority: ahead of the waves
  const uint64_t issued_before = st_.instructions.value;
  issue_stage(c);
  if (assist_ && st_.instructions.value == issued_before) issue_assist_idle(c);  // low priority: idle cycles only
  if (!reprioritized_.empty()) apply_priorities();
  send_stage(c);
  const uint64_t fetch_next = fetch_stage(c);
  retire_stage();
  schedule_next(c, fetch_next);
  flush_notifications();
}

void ComputeUnit::retire_lds(uint64_t c) {
  lds::LdsPipeline::Tag tag;
  while (lds_.pop_done(c, tag)) {
    WaveSlot& w = *static_cast<WaveSlot*>(const_cast<void*>(tag.owner));
    w.board.memory_completed(*static_cast<const InstInfo*>(tag.what));
    wake(w, WakeReason::LdsDone);
    --w.lgkm;
    --w.lds_out;
    maybe_retire(w);
  }
}

void ComputeUnit::send_stage(uint64_t c) {
  for (Port* p : {&vmem_port_, &smem_port_}) {
    if (p->queue.empty() || !p->can_send(c)) continue;
    // In order, except past stores held for compression (CABA).
    const size_t i = p->queue.front()->held ? next_past_held(*p) : 0;
    if (i == p->queue.size()) continue;
    MemRequest* r = p->queue[i];
    // Waves stall on a full queue (unit_free): only leaving that state matters.
    queue_moved_ |= p->queue.size() == (p == &vmem_port_ ? cfg_.vmem_queue : cfg_.max_smem_requests);
    p->queue.erase(i);
    send(*p, r, c);
  }
}

// One instruction fetch per cycle, for the highest-priority wave whose buffer
// has an empty block. Returns the next cycle a fetch may be wanted: the next
// cycle if a wave still needs one, else the launch of a wave not yet started.
uint64_t ComputeUnit::fetch_stage(uint64_t c) {
  if (!fetch_wanted_) return kNever;
  bool sent = false;
  uint64_t next = kNever;
  // Only the waves that want a fetch, in priority order (ended waves and full
  // buffers want none; a wave not launched yet has an empty buffer).
  for (size_t p = next_fetch_candidate(0); p < order_.size(); p = next_fetch_candidate(p + 1)) {
    WaveSlot* w = order_[p];
    if (c < w->ready_at && w->ready_reason == Stall::Launch) {
      next = std::min(next, w->ready_at);
      continue;
    }
    unsigned k = 0;
    while (k < cfg_.ib_depth && w->ib[k] != IbBlock::Empty) ++k;
    if (k == cfg_.ib_depth) continue;
    if (sent || !fetch_port_.can_send(c)) return c + 1;
    MemRequest* r = fetch_port_.pool.get();
    tlm_generic_payload& t = *r;
    t.set_command(tlm::TLM_READ_COMMAND);
    // Aligned, so that a fetch never crosses a line whatever the code's placement.
    r->fetch_block = w->ib_base + uint64_t(k) * cfg_.fetch_bytes;
    t.set_address((w->fetch_offset + r->fetch_block) & ~uint64_t(cfg_.fetch_bytes - 1));
    t.set_data_length(cfg_.fetch_bytes);
    t.set_streaming_width(cfg_.fetch_bytes);
    r->access->kind = AccessKind::InstFetch;
    r->access->cu = cu_id_;
    r->access->wave = static_cast<int32_t>(w->index);
    r->fetch_wave = w;
    r->fetch_gen = w->ib_gen;
    w->ib[k] = IbBlock::Requested;
    refresh_fetch(*w);
    ++st_.fetches;
    if (log_level() <= LogLevel::Debug)
      debug("cycle " + std::to_string(c) + " wave " + std::to_string(w->index) + " fetches " + hex(t.get_address()));
    send(fetch_port_, r, c);
    sent = true;
    if (k + 1 < cfg_.ib_depth && w->ib[k + 1] == IbBlock::Empty) return c + 1;
  }
  return next;
}

// The first position at or after `from` whose wave wants a fetch, or
// order_.size() if none does.
size_t ComputeUnit::next_fetch_candidate(size_t from) const {
  for (size_t word = from / 64; word < fetch_bits_.size(); ++word) {
    uint64_t bits = fetch_bits_[word];
    if (word == from / 64) bits &= ~uint64_t{0} << (from % 64);
    if (bits) return word * 64 + static_cast<size_t>(__builtin_ctzll(bits));
  }
  return order_.size();
}

void ComputeUnit::send(Port& p, MemRequest* r, uint64_t c) {
  r->sent = c;
  ++p.outstanding;
  if (&p == &vmem_port_) ++st_.vmem_requests;
  if (&p == &smem_port_) ++st_.smem_requests;
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_time delay = SC_ZERO_TIME;
  const tlm::tlm_sync_enum s = p.socket->nb_transport_fw(*r, phase, delay);
  if (s == tlm::TLM_ACCEPTED) {
    p.blocked = r;
    return;
  }
  p.send_from = c + 1;  // accepted at once
  if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
    arrive(p, *r, cycle_after(delay));  // END_REQ implied; END_RESP goes back now
    tlm::tlm_phase end = tlm::END_RESP;
    sc_time d = SC_ZERO_TIME;
    p.socket->nb_transport_fw(*r, end, d);
  } else if (s == tlm::TLM_COMPLETED) {
    arrive(p, *r, cycle_after(delay));
  }
  // TLM_UPDATED with END_REQ: accepted, the response comes later.
}

void ComputeUnit::retire_stage() {
  const bool retired = !to_retire_.empty();
  for (size_t i = 0; i < to_retire_.size(); ++i) retire_wave(*to_retire_[i]);
  to_retire_.clear();
  for (Workgroup* wg : finished_) finish_workgroup(*wg);
  finished_.clear();
  // Waves that retired freed slots and registers a refused workgroup may need.
  if (retired && refused_) {
    notify_dispatcher(WorkgroupTask());
    refused_ = false;
  }
}

void ComputeUnit::maybe_retire(WaveSlot& w) {
  if (w.active && w.ended && !w.retiring && !w.outstanding()) {
    w.retiring = true;
    to_retire_.push_back(&w);  // (always inside a tick, whose retire stage takes it)
  }
}

void ComputeUnit::retire_wave(WaveSlot& w) {
  if (w.issued > st_.longest_wave.value) st_.longest_wave.value = w.issued;
  const uint64_t c = now_cycle();
  account_until(c);
  settle(w, c);
  if (trace_) trace_->wave_ended(w, c);
  w.active = false;
  refresh_fetch(w);
  w.reason = Stall::None;
  unplace_wave(w);
  --resident_;
  slots_used_[w.simd] -= 1;
  vgprs_used_[w.simd] -= w.vgpr_cost;
  sgprs_used_[w.simd] -= w.sgpr_cost;
  ++w.ib_gen;  // fetches still in flight for this slot are dropped
  Workgroup& wg = *w.wg;
  if (--wg.resident == 0) finished_.push_back(&wg);
}

void ComputeUnit::finish_workgroup(Workgroup& wg) {
  lds_used_ -= wg.lds_cost;
  if (darsie_) darsie_->finished(wg);
  if (trace_) trace_->workgroup_ended(wg, now_cycle());
  if (log_level() <= LogLevel::Debug)
    debug("cycle " + std::to_string(last_tick_) + " workgroup (" + std::to_string(wg.task.workgroup[0]) + "," +
          std::to_string(wg.task.workgroup[1]) + "," + std::to_string(wg.task.workgroup[2]) + ") finished" +
          (wg.task.fault.empty() ? "" : " with a fault"));
  if (wg.on_end) {  // an injected routine: its owner is told, not the dispatcher
    const std::function<void(const Workgroup&)> on_end = std::move(wg.on_end);
    wg.on_end = nullptr;
    on_end(wg);  // before the workgroup is free: a routine injected from here takes another
    free_workgroups_.push_back(&wg);
    if (refused_) notify_dispatcher(WorkgroupTask());  // its resources are free
    refused_ = false;
    return;
  }
  WorkgroupTask note = wg.task;
  note.finished = true;
  note.wave_instructions = wg.instructions;
  notify_dispatcher(note);
  refused_ = false;  // a finished workgroup also announces its free resources
  free_workgroups_.push_back(&wg);
}

void ComputeUnit::schedule_next(uint64_t c, uint64_t fetch_next) {
  uint64_t next = earliest_wave_;  // the issue stage's second pass found it
  next = std::min(next, lds_.next_done());
  if (multicast_) next = std::min(next, multicast_->next_deadline());
  for (Port* p : {&vmem_port_, &smem_port_})
    if (!p->queue.empty() && !p->blocked && p->outstanding < p->limit) next = std::min(next, std::max(c + 1, p->send_from));
  // A fetch wanted next cycle waits for a blocked or full port to wake the CU.
  if (fetch_next > c + 1 || (!fetch_port_.blocked && fetch_port_.outstanding < fetch_port_.limit))
    next = std::min(next, std::max(fetch_next, fetch_port_.send_from));
  if (!arrivals_.empty()) next = std::min(next, arrivals_.front().cycle);
  if (assist_ && assist_->busy()) next = c + 1;
  if (next != kNever) wake_at(std::max(next, c + 1));
}

void ComputeUnit::end_of_simulation() {
  const uint64_t c = std::max(now_cycle(), ticked_ ? last_tick_ + 1 : 0);
  account_until(c);
  for (WaveSlot* w : order_) settle(*w, c);
  if (trace_) trace_unfinished(c);
}

// Waves and workgroups still resident when the run ends (it stopped at a
// limit, or hung) end in the trace here, marked unfinished.
void ComputeUnit::trace_unfinished(uint64_t c) {
  std::vector<const Workgroup*> seen;
  for (WaveSlot* w : order_) {
    trace_->wave_ended(*w, c, true);
    if (std::find(seen.begin(), seen.end(), w->wg) != seen.end()) continue;
    seen.push_back(w->wg);
    trace_->workgroup_ended(*w->wg, c, true);
  }
}

// ---- memory responses ------------------------------------------------------------

uint64_t ComputeUnit::next_edge() const { return cycle_after(SC_ZERO_TIME); }

uint64_t ComputeUnit::cycle_after(const sc_time& delay) const {
  return (sim_now() + delay).value() / clock_period().value() + 1;
}

// Responses and END_REQs take effect at the first clock edge after they
// arrive, whatever the order of processes within a time step.
tlm::tlm_sync_enum ComputeUnit::nb_transport_bw(int id, tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                                sc_time& delay) {
  Port& p = id == kVmem ? vmem_port_ : id == kSmem ? smem_port_ : fetch_port_;
  if (phase == tlm::END_REQ) {
    if (p.blocked == &trans) {
      p.blocked = nullptr;
      p.send_from = next_edge();
      wake_at(p.send_from);
    }
    return tlm::TLM_ACCEPTED;
  }
  if (phase == tlm::BEGIN_RESP) {
    if (p.blocked == &trans) {  // BEGIN_RESP implies END_REQ
      p.blocked = nullptr;
      p.send_from = next_edge();
      wake_at(p.send_from);
    }
    arrive(p, trans, cycle_after(delay));  // taken in now, seen from its annotated time on
    return tlm::TLM_COMPLETED;
  }
  SC_REPORT_ERROR(path().c_str(), ("protocol violation: unexpected phase on nb_transport_bw for " + describe(trans)).c_str());
  return tlm::TLM_COMPLETED;
}

// Kept in cycle order (first come first among equals), so those due form a prefix.
void ComputeUnit::arrive(Port& p, tlm_generic_payload& trans, uint64_t cycle) {
  auto at = arrivals_.end();
  while (at != arrivals_.begin() && std::prev(at)->cycle > cycle) --at;
  arrivals_.insert(at, Arrival{&p, &trans, cycle});
  wake_at(cycle);
}

void ComputeUnit::take_arrivals(uint64_t c) {
  size_t n = 0;
  while (n < arrivals_.size() && arrivals_[n].cycle <= c) ++n;
  for (size_t i = 0; i < n; ++i) take_response(*arrivals_[i].port, *arrivals_[i].trans, c);
  arrivals_.erase(arrivals_.begin(), arrivals_.begin() + static_cast<std::ptrdiff_t>(n));
}

void ComputeUnit::take_response(Port& p, tlm_generic_payload& trans, uint64_t c) {
  MemRequest& r = *p.pool.from(trans);
  --p.outstanding;
  const uint64_t latency = c - std::min(c, r.sent);
  if (r.inst) {
    MemInst& m = *r.inst;
    (m.scalar ? st_.smem_latency : st_.vmem_latency).sample(latency);
    if (trans.get_response_status() == tlm::TLM_OK_RESPONSE) {
      if (!r.value_read) Coalescer::scatter(r, m.plan);
    } else if (!m.error) {
      m.error = true;
      ++st_.memory_errors;
      warn("error response (" + trans.get_response_string() + ") to " + describe(trans));
    }
    if (!(assist_ && !m.error && assist_line(r, m, c)) && --m.pending == 0) {
      if (!m.scalar) st_.vmem_inst_latency.sample(c - std::min(c, m.issued));
      inst_returned(m);
    }
  } else {
    st_.fetch_latency.sample(latency);
    fetch_returned(r, trans);
  }
  if (trace_) trace_->request(&p == &vmem_port_ ? kVmem : &p == &smem_port_ ? kSmem : kFetch, r, trans, c);
  trans.release();
}

void ComputeUnit::fetch_returned(MemRequest& r, const tlm_generic_payload& trans) {
  WaveSlot& w = *r.fetch_wave;
  const uint64_t block = r.fetch_block;
  const bool ok = trans.get_response_status() == tlm::TLM_OK_RESPONSE;
  if (!ok) ++st_.memory_errors;
  if (!w.active || w.ib_gen != r.fetch_gen || block < w.ib_base) {
    ++st_.fetches_dropped;
    return;
  }
  const uint64_t k = (block - w.ib_base) >> cfg_.fetch_shift;
  if (k < cfg_.ib_depth && w.ib[k] == IbBlock::Requested) w.ib[k] = ok ? IbBlock::Valid : IbBlock::Failed;
  if (!ok) {
    w.failed_fetch = trans.get_address();
    w.failed_fetch_status = trans.get_response_string();
  }
  wake(w, WakeReason::Fetch);
}

// Scalar loads complete as soon as their data is back; vector memory
// instructions complete in issue order per wave.
void ComputeUnit::inst_returned(MemInst& m) {
  if (m.lazy)
    lazy_returned(m);
  else if (m.scalar)
    complete(m);
  else
    drain_vm(*m.wave);
}

void ComputeUnit::drain_vm(WaveSlot& w) {
  while (!w.vm_order.empty() && w.vm_order.front()->pending == 0) {
    MemInst* m = w.vm_order.front();
    w.vm_order.pop_front();
    complete(*m);
  }
}

void ComputeUnit::complete(MemInst& m) {
  WaveSlot& w = *m.wave;
  wake(w, WakeReason::MemoryResponse);
  const InstInfo& info = w.prog->info(*m.op);
  if (!observers_.empty())
    for (CuObserver* o : observers_) o->on_memory_response(w, m, last_tick_);
  w.board.memory_completed(info);
  if (m.error && !w.ended) {
    w.wave->fault("the memory system answered an error for " + std::string(m.op->inst.mnemonic()));
    w.site = isa::FaultSite{m.op->inst.pc, m.op};
    fault_wave(w);
  } else if (!w.ended && m.plan.kind != isa::MemKind::Store && info.mem.complete) {
    info.mem.complete(*w.wave, m.op->inst, m.plan);
  }
  if (m.counts_vm) --w.vm;
  if (m.counts_lgkm) --w.lgkm;
  if (m.scalar) --w.smem_out;
  inst_pool_.put(&m);
  maybe_retire(w);
}

// ---- registration ------------------------------------------------------------------

BlockType compute_unit_block_type() {
  BlockType t;
  t.name = "compute_unit";
  t.doc = "Cycle-level CDNA2 compute unit: SIMDs, scalar unit, LDS with bank conflicts, vector and scalar memory "
          "through a coalescer, instruction fetch, s_waitcnt/s_barrier, occupancy by slots/VGPRs/SGPRs/LDS; "
          "executes gfx90a code with real values (docs/CU.md)";
  t.params = cu_param_table().specs();
  t.host_bytes = 64 << 10;  // measured at elaboration: 62 KB (docs/RELIABILITY.md)
  SocketSpec d;
  d.name = "dispatch";
  d.dir = SocketDir::Target;
  d.protocol = "dispatch";
  d.doc = "workgroups from a dispatcher (WorkgroupTask, models/cu/workgroup_task.h)";
  SocketSpec v;
  v.name = "vmem";
  v.dir = SocketDir::Initiator;
  v.doc = "vector memory line requests (to the L1 vector cache), AT";
  v.request_limit = "vmem_line";
  SocketSpec s = v;
  s.name = "smem";
  s.doc = "scalar memory requests (to the scalar cache), AT";
  s.request_limit = "smem_line";
  SocketSpec f = v;
  f.name = "ifetch";
  f.request_limit = "fetch_bytes";
  f.doc = "instruction fetches of fetch_bytes at code-object addresses + fetch_base (to the instruction cache), AT";
  t.sockets = {d, v, s, f};
  t.create = [](const BlockContext& ctx) -> std::unique_ptr<Block> { return std::make_unique<ComputeUnit>(ctx); };
  return t;
}

TESSERA_REGISTER_BLOCK(compute_unit_block_type);

}  // namespace tessera
