// The compute unit's issue arbiter and execution at issue (see compute_unit.h).
#include <algorithm>
#include <cstring>

#include "models/cu/coalescer.h"
#include "models/cu/compute_unit.h"
#include "models/mem/tlm_helpers.h"

namespace tessera {

using isa::DecodedOp;
using isa::Instruction;

// Every resident wave is considered each cycle in priority order (oldest
// first, or rotating); a wave issues at most one instruction per cycle and
// each unit takes at most one. With issue turns (issue_period > 1) a wave may
// issue only in its SIMD's turn (evaluate, next_turn). A second pass records, for the cycles after
// this one, why each wave cannot issue and the earliest cycle it might.
//
// A wave whose last evaluation still holds (nothing it waits for has changed,
// and its earliest cycle is later) is not evaluated again: the speed of a CU
// full of waiting waves depends on it. Which waves those are is read from
// eval_at_, one word per wave in priority order, not from the wave slots.
void ComputeUnit::issue_stage(uint64_t c) {
  const size_t n = order_.size();
  if (!n) {
    earliest_wave_ = kNever;
    return;
  }
  const size_t start = policy_.start(n);
  const bool queue_moved = queue_moved_;
  queue_moved_ = false;
  // Nothing a wave waits for has changed and none may issue yet: every wave's
  // last evaluation holds, and both passes would skip them all. The CU often
  // ticks only to send a request or a fetch, so this matters for speed.
  if (!waves_changed_ && !queue_moved && c < earliest_wave_) return;
  waves_changed_ = false;
  others_changed_ = false;
  evaluated_.clear();
  unit_waiters_earliest_ = kNever;
  // Waves not collected keep their earliest cycle, which is eval_at_'s.
  uint64_t skipped_earliest = kNever;
  const size_t due = collect_due(c, start, queue_moved, skipped_earliest);
  for (size_t k = 0; k < due; ++k) {
    look_at(*order_[due_[k]], c);
    if (!others_changed_) continue;
    // A barrier release or a fault made waves later in this pass due that
    // were not collected: read eval_at_ again for them, as collecting would.
    for (size_t r = (due_[k] + n - start) % n + 1; r < n; ++r) {
      const size_t i = (start + r) % n;
      if (eval_at_[i] <= c || (queue_moved && order_[i]->reason == Stall::Structural)) look_at(*order_[i], c);
    }
    break;
  }
  if (others_changed_) {
    // A barrier released or a fault ended waves this pass skipped: plan every wave.
    for (WaveSlot* w : order_) w->skipped = true;
    for (WaveSlot* w : evaluated_) w->skipped = false;
    earliest_wave_ = kNever;
    for (WaveSlot* w : order_) {
      if (w->ended || !w->skipped || w->dirty) plan_next_cycle(*w, c);
      earliest_wave_ = std::min(earliest_wave_, w->earliest);
    }
    return;
  }
  earliest_wave_ = std::min(skipped_earliest, unit_waiters_earliest_);
  for (WaveSlot* w : evaluated_) {
    plan_next_cycle(*w, c);
    earliest_wave_ = std::min(earliest_wave_, w->earliest);
  }
}

// The waves the first pass looks at, as positions in due_ in priority order
// from `start`: those whose eval_at_ has come and, with a memory queue
// moved, those stalled on a unit (their reason says which). Returns how many;
// `skipped_earliest` becomes the earliest eval_at_ of the others. A loop of
// its own, with the pointers and the minimum in registers: a CU ticks often,
// and most of its waves are not due.
size_t ComputeUnit::collect_due(uint64_t c, size_t start, bool queue_moved, uint64_t& skipped_earliest) {
  const uint64_t* at = eval_at_.data();
  uint32_t* due = due_.data();
  size_t k = 0;
  uint64_t low = kNever;
  auto scan = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      const uint64_t e = at[i];
      if (e <= c || (queue_moved && order_[i]->reason == Stall::Structural))
        due[k++] = static_cast<uint32_t>(i);
      else
        low = std::min(low, e);
    }
  };
  scan(start, order_.size());
  scan(0, start);
  skipped_earliest = low;
  return k;
}

// The first pass for one wave: evaluate it at cycle c and issue if it can.
void ComputeUnit::look_at(WaveSlot& w, uint64_t c) {
  if (still_waits_for_unit(w, c)) return;
  evaluated_.push_back(&w);
  if (w.ended) return;  // the second pass closes its accounting
  w.dirty = false;
  uint64_t earliest;
  const DecodedOp* op = nullptr;
  const InstInfo* info = nullptr;
  // (A wave whose stall for a unit still holds was taken above: every other
  // one needs the full evaluation.)
  Stall s = evaluate(w, c, earliest, op, info);
  if (darsie_ && s == Stall::None && !info) s = darsie_skip(w, c, earliest, op, info);
  settle(w, c);
  w.reason = s;  // for this cycle; the second pass says what follows
  if (s != Stall::None) return;
  if (!observers_.empty() && !observers_allow(w, *op, c)) return;
  if (++w.issued > wave_instruction_limit_) return fault_spinning(w, *op);
  issue(w, *op, *info, c);
}

// The observers' say before wave w issues op at cycle c: one that holds it
// back makes it wait for a cycle (counted as structural).
bool ComputeUnit::observers_allow(WaveSlot& w, const DecodedOp& op, uint64_t c) {
  for (CuObserver* o : observers_)
    if (!o->before_issue(w, op, c)) {
      w.reason = Stall::Structural;
      return false;
    }
  return true;
}

// A wave past the limit on one wave's instructions: a kernel that spins,
// reported as a fault with the wave, its PC and its instruction.
void ComputeUnit::fault_spinning(WaveSlot& w, const DecodedOp& op) {
  w.wave->fault(isa::spinning_message(wave_instruction_limit_));
  w.site = isa::FaultSite{w.wave->pc, &op};
  w.reason = Stall::Drain;
  fault_wave(w);
}

// A wave that last stalled for a unit, with nothing changed since, while the
// unit is still busy at c (another wave took it this cycle): evaluating it now
// and at c + 1 would give the same stall with the unit's free cycle as its
// earliest, so both passes are done here and its stall accounting runs on.
// When a unit frees, every wave queued for it is due, and all but one find it
// taken again: this keeps a busy SIMD's queue cheap.
bool ComputeUnit::still_waits_for_unit(WaveSlot& w, uint64_t c) {
  if (w.dirty || w.ended || w.reason != Stall::Structural || !w.next_info) return false;
  // (A wave's own SIMD, read here directly, is what most of them wait for.)
  const uint64_t unit = w.next_info->cls == IssueClass::Valu ? simd_free_[w.simd] : unit_free(w, *w.next_info);
  if (unit <= c) return false;
  w.earliest = unit;
  eval_at_[w.pos] = unit;
  unit_waiters_earliest_ = std::min(unit_waiters_earliest_, unit);
  return true;
}

// The second pass for one wave: its stall reason from cycle c + 1 on, the
// earliest cycle it may issue, and when the issue stage must look at it again.
void ComputeUnit::plan_next_cycle(WaveSlot& w, uint64_t c) {
  settle(w, c + 1);
  if (w.ended) {
    w.reason = Stall::None;
    w.earliest = kNever;
    eval_at_[w.pos] = kNever;
    return;
  }
  const DecodedOp* op = nullptr;
  const InstInfo* info = nullptr;
  w.reason = w.dirty ? evaluate(w, c + 1, w.earliest, op, info) : reevaluate(w, c + 1, w.earliest, op, info);
  if (w.reason == Stall::None) w.earliest = c + 1;
  waves_changed_ |= w.dirty;  // released from a barrier: evaluated again next cycle
  eval_at_[w.pos] = w.dirty ? 0 : w.earliest;
}

// A wave that last stalled waiting for a unit, with nothing else changed
// since: only the unit can have changed (units only get busier), so the
// full evaluation is needed only once the unit is free. Waves of a busy
// SIMD queue up like this every cycle, so it matters for speed.
Stall ComputeUnit::reevaluate(WaveSlot& w, uint64_t c, uint64_t& earliest, const DecodedOp*& op, const InstInfo*& info) {
  if (w.reason == Stall::Structural && w.next_info) {
    const uint64_t unit = unit_free(w, *w.next_info);
    if (unit > c) {
      earliest = unit;
      return Stall::Structural;
    }
  }
  return evaluate(w, c, earliest, op, info);
}

Stall ComputeUnit::evaluate(WaveSlot& w, uint64_t c, uint64_t& earliest, const DecodedOp*& op, const InstInfo*& info) {
  earliest = kNever;
  isa::Wave& wave = *w.wave;
  if (wave.status() == isa::WaveStatus::AtBarrier) return Stall::Barrier;
  if (c < w.ready_at) {
    earliest = w.ready_at;
    return w.ready_reason;
  }
  if (wave.pc != w.looked_pc && !look_up_next(w)) {
    fault_wave(w);
    return Stall::Drain;
  }
  op = w.looked_op;
  // DARSIE: a follower skips before fetch (info stays null: look_at skips it).
  if (darsie_ && darsie_->skipping() && darsie_->can_skip(w, *op, *w.looked_info)) return Stall::None;
  const IbBlock ib = ib_state(w, wave.pc, op->inst.size);
  if (ib != IbBlock::Valid) {
    if (ib != IbBlock::Failed) return Stall::NoInstruction;
    fault_fetch(w);
    return Stall::Drain;
  }
  info = w.looked_info;
  if (info->cls == IssueClass::Waitcnt) {
    const Stall s = waitcnt_stall(w, op->inst);
    if (s != Stall::None) return s;
  }
  const uint64_t dep = w.operands_at;
  if (dep > c) {
    earliest = dep;
    return Stall::Dependency;
  }
  if (lazy_) {
    const Stall s = lazy_stall(w, *op, *info, c, earliest);
    if (s != Stall::None) return s;
  }
  const uint64_t unit = unit_free(w, *info);
  if (unit > c) {
    earliest = unit;
    w.next_info = info;
    return Stall::Structural;
  }
  const uint64_t turn = next_turn(w.simd, c);
  if (turn > c) {  // ready, but its SIMD's issue turn has not come
    earliest = turn;
    w.next_info = nullptr;
    return Stall::Structural;
  }
  return Stall::None;
}

// The first cycle at or after c when SIMD `simd` may issue: its turn comes
// every issue_period cycles (CDNA2: the arbiter looks at one SIMD per cycle).
uint64_t ComputeUnit::next_turn(unsigned simd, uint64_t c) const {
  const uint64_t p = cfg_.issue_period;
  if (p == 1) return c;
  return c + (simd % p + p - c % p) % p;
}

// With issue turns, the categories the scheduler issues at most one of per
// cycle besides the units' own occupancy: SALU and SMEM share the scalar
// slot, and s_endpgm takes the branch slot (CDNA: "SALU / SMEM" is one
// category; the profiler counts s_endpgm with the branch unit). Without
// turns (issue_period 1) the earlier rules hold: nothing is shared.
void ComputeUnit::take_issue_slot(IssueClass cls, uint64_t c) {
  if (!turns()) return;
  if (cls == IssueClass::Salu || cls == IssueClass::Smem) scalar_slot_ = c + 1;
  if (cls == IssueClass::EndPgm) branch_free_ = c + 1;
}

// The instruction at the wave's PC and when its operands are ready. False
// after faulting the wave's architectural state: a PC outside the code, no
// semantics, registers beyond the allocation.
bool ComputeUnit::look_up_next(WaveSlot& w) {
  const DecodedOp* op = isa::next_op(w.prog->program(), *w.wave, w.site);
  if (!op) return false;
  w.looked_pc = w.wave->pc;
  w.looked_op = op;
  w.looked_info = &w.prog->info(*op);
  w.operands_at = w.board.operands_ready(*w.looked_info);
  return true;
}

// gfx9 s_waitcnt: vmcnt in bits 3:0 and 15:14, expcnt in 6:4, lgkmcnt in
// 11:8. Nothing here exports, so expcnt is always satisfied.
Stall ComputeUnit::waitcnt_stall(const WaveSlot& w, const Instruction& inst) const {
  const uint32_t imm = static_cast<uint32_t>(inst.simm16) & 0xffff;
  const unsigned vmcnt = (imm & 0xf) | ((imm >> 10) & 0x30);
  const unsigned lgkmcnt = (imm >> 8) & 0xf;
  if (w.vm > vmcnt) return Stall::WaitingMemory;
  if (w.lgkm > lgkmcnt) return w.lds_out ? Stall::WaitingLds : w.smem_out ? Stall::WaitingSmem : Stall::WaitingMemory;
  return Stall::None;
}

// The first cycle the unit an instruction needs can take it (kNever: its
// queue is full; the send stage wakes the CU when it drains).
uint64_t ComputeUnit::unit_free(const WaveSlot& w, const InstInfo& info) const {
  switch (info.cls) {
    case IssueClass::Valu: return simd_free_[w.simd];
    case IssueClass::Mfma: return std::max(simd_free_[w.simd], mfma_free_[w.simd]);
    case IssueClass::Salu: return std::max(salu_free_, scalar_slot_);
    case IssueClass::Branch: return branch_free_;
    case IssueClass::EndPgm: return turns() ? branch_free_ : 0;
    case IssueClass::Lds: return multicast_ ? multicast_accepts_at(w) : lds_.accepts_at();
    case IssueClass::Smem:
      return smem_port_.queue.size() >= cfg_.max_smem_requests ? kNever : std::max(smem_free_, scalar_slot_);
    case IssueClass::VmemLoad:
    case IssueClass::VmemStore:
    case IssueClass::VmemAtomic:
    case IssueClass::VmemNoData: return vmem_port_.queue.size() >= cfg_.vmem_queue ? kNever : vmem_free_;
    default: return 0;  // internal instructions (s_waitcnt, s_nop, s_barrier...) need no unit
  }
}

void ComputeUnit::issue(WaveSlot& w, const DecodedOp& op, const InstInfo& info, uint64_t c) {
  isa::Wave& wave = *w.wave;
  const Instruction& inst = op.inst;
  const uint64_t next_pc = inst.pc + inst.size;
  ++*st_.issued[size_t(info.cls)];
  ++st_.instructions;
  ++w.wg->instructions;
  w.next_info = nullptr;
  w.looked_pc = kNever;  // the PC and the scoreboard change
  w.ready_at = c + 1;
  w.ready_reason = Stall::Dependency;  // (only seen for ready_at later than c + 1, set below)
  take_issue_slot(info.cls, c);
  if (lazy_ && info.writes) lazy_overwritten(w, op, info);
  if (log_level() <= LogLevel::Debug)
    debug("cycle " + std::to_string(c) + " wave " + std::to_string(w.index) + " simd " + std::to_string(w.simd) +
          " issues " + inst.mnemonic() + " at " + hex(inst.pc));
  switch (info.cls) {
    case IssueClass::Valu:
      simd_free_[w.simd] = c + info.busy;
      isa::execute(wave, op);
      w.board.mark_results(info, c + info.latency);
      break;
    case IssueClass::Mfma:
      // The SIMD issues it like a VALU op; the matrix core stays busy.
      simd_free_[w.simd] = c + cfg_.valu_cycles();
      mfma_free_[w.simd] = c + info.busy;
      isa::execute(wave, op);
      w.board.mark_results(info, c + info.latency);
      break;
    case IssueClass::Salu:
      salu_free_ = c + 1;
      isa::execute(wave, op);
      w.board.mark_results(info, c + info.latency);
      break;
    case IssueClass::Branch:
      branch_free_ = c + 1;
      isa::execute(wave, op);
      w.board.mark_results(info, c + info.latency);
      w.ready_at = c + cfg_.branch_latency;
      w.ready_reason = Stall::Branch;
      break;
    case IssueClass::Nop:
      isa::execute(wave, op);
      w.ready_at = c + info.wait;
      w.ready_reason = Stall::Sleep;
      break;
    case IssueClass::Barrier:
      isa::execute(wave, op);
      if (wave.status() == isa::WaveStatus::AtBarrier) {
        ++w.wg->at_barrier;
        check_barrier(*w.wg, c);
        if (multicast_) release_multicast(*w.wg, c);
      }
      break;
    case IssueClass::EndPgm:
      isa::execute(wave, op);
      w.ended = true;
      if (darsie_) darsie_ended(w, op, info, c);
      if (lazy_) lazy_->drop(w);
      refresh_fetch(w);
      --w.wg->running;
      check_barrier(*w.wg, c);
      if (multicast_) release_multicast(*w.wg, c);
      maybe_retire(w);
      return;
    case IssueClass::Lds: issue_lds(w, op, info, c); break;
    case IssueClass::Smem:
    case IssueClass::VmemLoad:
    case IssueClass::VmemStore:
    case IssueClass::VmemAtomic:
    case IssueClass::VmemNoData: issue_memory(w, op, info, c); break;
    default:  // s_waitcnt (already satisfied), s_setprio...
      if (info.sets_priority && w.user_priority != (op.inst.simm16 & 3)) {
        w.user_priority = static_cast<uint8_t>(op.inst.simm16 & 3);
        reprioritized_.push_back(&w);
      }
      isa::execute(wave, op);
      break;
  }
  if (darsie_) darsie_issued(w, op, info, c);
  if (wave.status() == isa::WaveStatus::Faulted) {
    fault_wave(w);
    return;
  }
  if (wave.pc != next_pc)
    ib_reset(w, wave.pc);  // a taken branch flushes the instruction buffer
  else
    ib_advance(w);
}

// The barrier opens when every wave of the workgroup that has not ended is
// waiting at it; they issue again the next cycle.
void ComputeUnit::check_barrier(Workgroup& wg, uint64_t c) {
  if (!wg.at_barrier || wg.at_barrier < wg.running) return;
  for (WaveSlot* w : wg.waves)
    if (w->active && w->wave->status() == isa::WaveStatus::AtBarrier) {
      w->wave->leave_barrier();
      w->ready_at = std::max(w->ready_at, c + 1);
      wake(*w, WakeReason::BarrierRelease);
    }
  if (darsie_) darsie_->barrier_released(wg);
  wg.at_barrier = 0;
}

// DS instructions execute at issue (the LDS is the CU's own); their timing
// is the bank model's cycles on the LDS pipeline plus its latency. Reads go
// through serve_lds_read (counted), marked ones through the multicast unit.
void ComputeUnit::issue_lds(WaveSlot& w, const DecodedOp& op, const InstInfo& info, uint64_t c) {
  isa::Wave& wave = *w.wave;
  const lds::LdsPipeline::Tag tag{&w, &info};
  const uint32_t flags = op.inst.op->flags;
  if (flags & isa::kCrossLane) {
    // ds_swizzle/ds_permute: the crossbar, no banks
    const lds::LdsCost cost = lds_.submit_crossbar(std::max(1u, 64 / cfg_.lds_banks), c, tag);
    st_.lds_busy_cycles += cost.cycles;
    w.board.memory_issued(info, wave.exec());
  } else {
    isa::lds_access(wave, op.inst, lds_access_);  // before executing: the data may overwrite the address
    lds::LdsRequest r;
    r.exec = lds_access_.exec;
    r.addr[0] = lds_access_.addr[0];
    r.addr[1] = lds_access_.addr[1];
    r.addresses_per_lane = lds_access_.addresses_per_lane;
    r.bytes = lds_access_.bytes;
    w.board.memory_issued(info, lds_access_.exec);
    if ((flags & isa::kLoad) && !(flags & (isa::kStore | isa::kAtomic))) {
      ++st_.lds_reads;
      if (multicast_ && multicast_candidate(w, op, r))
        multicast_read(w, op, info, r, c);
      else
        serve_lds_read(r, c, tag);
    } else {
      const lds::LdsCost cost = lds_.submit(r, c, tag);
      st_.lds_conflict_cycles += cost.conflict_cycles;
      st_.lds_busy_cycles += cost.cycles;
    }
  }
  ++w.lgkm;
  ++w.lds_out;
  isa::execute(wave, op);
}

void ComputeUnit::issue_memory(WaveSlot& w, const DecodedOp& op, const InstInfo& info, uint64_t c) {
  isa::Wave& wave = *w.wave;
  if (info.cls == IssueClass::VmemNoData) {  // buffer_wbinvl1...: occupies the pipe, moves nothing
    vmem_free_ = c + info.busy;
    isa::execute(wave, op);
    return;
  }
  MemInst& m = *inst_pool_.get();  // (its plan is cleared by the plan function)
  m.op = &op;
  m.wave = &w;
  m.issued = c;
  m.pending = 0;
  m.error = false;
  m.scalar = info.cls == IssueClass::Smem;
  m.counts_vm = !m.scalar;
  m.counts_lgkm = m.scalar || info.flat;
  wave.pc = op.inst.pc + op.inst.size;
  info.mem.plan(wave, op.inst, m.plan);
  if (wave.status() == isa::WaveStatus::Faulted) {
    inst_pool_.put(&m);
    return;
  }
  serve_lds_chunks(w, m);
  if (wave.status() == isa::WaveStatus::Faulted) {
    inst_pool_.put(&m);
    return;
  }
  AccessKind kind;
  if (m.plan.kind == isa::MemKind::Atomic)
    kind = AccessKind::Atomic;
  else if (m.plan.kind == isa::MemKind::Store)
    kind = AccessKind::Store;
  else
    kind = m.scalar ? AccessKind::ScalarLoad : AccessKind::Load;
  Port& p = m.scalar ? smem_port_ : vmem_port_;
  coalesced_.clear();
  Coalescer::coalesce(m, kind, cu_id_, static_cast<int>(w.index), p.pool, coalesced_);
  unsigned n = static_cast<unsigned>(coalesced_.size());
  m.pending = n;
  if (lazy_ && kind == AccessKind::Load && defer_load(w, m, info, c)) return;
  if (zero_ && !lazy_ && kind == AccessKind::Load && eager_zero_queries(w, m))
    n = m.pending;
  else if (cfg_.values_at_execute && (kind == AccessKind::Load || kind == AccessKind::ScalarLoad))
    read_values_now(w, p, m);
  if (assist_ && kind == AccessKind::Store) assist_store(w, c);
  for (MemRequest* r : coalesced_) p.queue.push_back(r);
  w.board.memory_issued(info, m.scalar ? 1 : m.plan.exec);
  if (m.scalar) {
    smem_free_ = c + info.busy;
    ++w.smem_out;
  } else {
    vmem_free_ = c + std::max<unsigned>(info.busy, n);
    w.vm_order.push_back(&m);
    st_.requests_per_vmem.sample(n);
    ++w.vm;
  }
  if (m.counts_lgkm) ++w.lgkm;
  if (n == 0) inst_returned(m);  // nothing left for the memory system (no lanes, or LDS only)
}

// Values apart from timing: the load's bytes are read now, through the same
// caches as its requests will go (a debug read: a stale line reads stale),
// and its requests only time it. A wave with stores or atomics of its own
// still in flight reads from the responses instead: its own earlier writes
// may not have reached memory yet, and the responses see them in order.
void ComputeUnit::read_values_now(const WaveSlot& w, Port& p, MemInst& m) {
  for (size_t i = 0; i < w.vm_order.size(); ++i)
    if (w.vm_order[i]->plan.kind != isa::MemKind::Load) return;
  for (MemRequest* r : coalesced_) {
    if (p.socket->transport_dbg(*r) != r->get_data_length()) continue;  // left to the response
    Coalescer::scatter(*r, m.plan);
    r->value_read = true;
    ++st_.values_at_execute;
  }
}

// Flat accesses through the shared aperture touch the CU's own LDS, at issue.
void ComputeUnit::serve_lds_chunks(WaveSlot& w, MemInst& m) {
  isa::MemPlan& plan = m.plan;
  if (!plan.lds_chunks) return;
  for (size_t i = 0; i < plan.chunks.size(); ++i) {
    const isa::MemChunk& ch = plan.chunks[i];
    if (ch.space != isa::MemSpace::Lds) continue;
    uint8_t* p = w.wave->lds(ch.addr, ch.bytes);
    if (!p) return;  // faulted with the address
    uint8_t* d = plan.data.data() + ch.data_offset;
    if (plan.kind == isa::MemKind::Load) {
      std::memcpy(d, p, ch.bytes);
    } else if (plan.kind == isa::MemKind::Store) {
      std::memcpy(p, d, ch.bytes);
    } else {
      uint64_t src = 0;
      std::memcpy(&src, d, std::min<unsigned>(ch.bytes, 8));
      const uint64_t cmp = i < plan.atomic_cmp.size() ? plan.atomic_cmp[i] : 0;
      const uint64_t old = isa::mem::rmw(p, plan.elem, plan.op, src, cmp);
      std::memcpy(d, &old, std::min<unsigned>(ch.bytes, 8));
    }
  }
}

// A fault stops the whole workgroup: its waves issue nothing more and retire
// once their memory operations are back; the report names the first fault.
void ComputeUnit::fault_wave(WaveSlot& w) {
  Workgroup& wg = *w.wg;
  if (!wg.faulted) {
    wg.faulted = true;
    wg.task.fault = isa::fault_report(*wg.task.ctx->kernel, *w.wave, w.site);
    ++st_.faults;
  }
  for (WaveSlot* x : wg.waves) {
    if (!x->active || x->ended) continue;
    x->ended = true;
    if (lazy_) lazy_->drop(*x);
    wake(*x, WakeReason::Fault);  // the issue stage closes its accounting
    refresh_fetch(*x);
    maybe_retire(*x);
  }
  wg.running = 0;
  wg.at_barrier = 0;
}

// A wave that needs an instruction from a block whose fetch failed faults at
// that instruction, as a GPU faults on an instruction fetch it cannot complete.
void ComputeUnit::fault_fetch(WaveSlot& w) {
  w.wave->fault("the instruction fetch at " + hex(w.failed_fetch) + " was answered with " + w.failed_fetch_status);
  w.site = isa::FaultSite{w.wave->pc, w.looked_op};
  fault_wave(w);
}

// ---- instruction buffer ----------------------------------------------------------

// The blocks holding the instruction at pc: Valid when all are in the buffer
// and returned, Failed when the fetch of one failed, otherwise Empty (not
// there yet).
IbBlock ComputeUnit::ib_state(const WaveSlot& w, uint64_t pc, unsigned size) const {
  if (pc < w.ib_base) return IbBlock::Empty;
  const uint64_t first = (pc - w.ib_base) >> cfg_.fetch_shift;
  const uint64_t last = (pc + size - 1 - w.ib_base) >> cfg_.fetch_shift;
  IbBlock state = last < cfg_.ib_depth ? IbBlock::Valid : IbBlock::Empty;
  for (uint64_t k = first; k <= last && k < cfg_.ib_depth; ++k) {
    if (w.ib[k] == IbBlock::Failed) return IbBlock::Failed;
    if (w.ib[k] != IbBlock::Valid) state = IbBlock::Empty;
  }
  return state;
}

void ComputeUnit::ib_reset(WaveSlot& w, uint64_t pc) {
  ++w.ib_gen;
  w.ib_base = pc & ~uint64_t(cfg_.fetch_bytes - 1);
  std::fill(w.ib, w.ib + cfg_.ib_depth, IbBlock::Empty);
  refresh_fetch(w);
}

// Keeps the count of waves that want a fetch, so the fetch stage costs
// nothing when every buffer is full, and their bits by position in the
// priority order, so that it looks only at them. A resident wave is in the
// order (at w.pos) whenever this is called.
void ComputeUnit::refresh_fetch(WaveSlot& w) {
  bool want = w.active && !w.ended;
  if (want) want = std::find(w.ib, w.ib + cfg_.ib_depth, IbBlock::Empty) != w.ib + cfg_.ib_depth;
  if (want == w.wants_fetch) return;
  w.wants_fetch = want;
  const uint64_t bit = uint64_t{1} << (w.pos % 64);
  if (want) {
    ++fetch_wanted_;
    fetch_bits_[w.pos / 64] |= bit;
  } else {
    --fetch_wanted_;
    fetch_bits_[w.pos / 64] &= ~bit;
  }
}

// Sequential execution: blocks behind the PC leave the buffer, making room
// for the next fetch.
void ComputeUnit::ib_advance(WaveSlot& w) {
  const uint64_t base = w.wave->pc & ~uint64_t(cfg_.fetch_bytes - 1);
  if (base == w.ib_base) return;
  const uint64_t shift = base > w.ib_base ? (base - w.ib_base) >> cfg_.fetch_shift : cfg_.ib_depth;
  if (shift >= cfg_.ib_depth) {
    ib_reset(w, w.wave->pc);
    return;
  }
  for (unsigned k = 0; k < cfg_.ib_depth; ++k)
    w.ib[k] = k + shift < cfg_.ib_depth ? w.ib[k + shift] : IbBlock::Empty;
  w.ib_base = base;
  refresh_fetch(w);
}

}  // namespace tessera
