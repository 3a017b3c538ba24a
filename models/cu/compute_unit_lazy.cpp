// The compute unit's hooks for the lazy unit (lazy_unit.h, docs/LAZYGPU.md),
// called from the issue stage only when lazy_loads is on.
#include "models/cu/coalescer.h"
#include "models/cu/compute_unit.h"

namespace tessera {

using isa::DecodedOp;

namespace {

// The lanes of its operands an instruction reads (for the lazy unit): EXEC's,
// or every lane for a cross-lane one (DPP, v_readlane, ds_swizzle...).
uint64_t read_lanes(const DecodedOp& op, uint64_t exec) {
  return (op.inst.op->flags & isa::kCrossLane) || op.inst.ext == isa::ExtKind::Dpp ? ~uint64_t{0} : exec;
}

// The lanes an instruction's results overwrite at issue: EXEC's; none for
// a cross-lane one (v_writelane writes one lane whatever EXEC), so that no
// deferred lane is eliminated that may still be read.
uint64_t written_lanes(const DecodedOp& op, uint64_t exec) {
  return (op.inst.op->flags & isa::kCrossLane) && op.inst.ext != isa::ExtKind::Dpp ? 0 : exec;
}

}  // namespace

// An instruction writing registers at issue: deferred lanes it overwrites are eliminated.
void ComputeUnit::lazy_overwritten(WaveSlot& w, const DecodedOp& op, const InstInfo& info) {
  lazy_->overwritten(w, info, written_lanes(op, w.wave->exec()));
}

// A vector global load with lazy_loads: its value is read now, through the
// same caches as its requests would go (as load_values=execute reads it),
// and written into its registers; its requests are left to the lazy unit.
// False (the load goes out now, as any other) when that is not sound: the
// wave has stores or atomics in flight (its own writes may not have reached
// memory), an earlier load still writes one of its registers, or a debug
// read fails (those it made are kept, as read_values_now keeps them).
bool ComputeUnit::defer_load(WaveSlot& w, MemInst& m, const InstInfo& info, uint64_t c) {
  if (!LazyUnit::may_defer(m.op->inst, m) || info.writes != 1 || info.write_runs[0].count > LazyUnit::kMaxRegs)
    return false;
  for (size_t i = 0; i < w.vm_order.size(); ++i)
    if (w.vm_order[i]->plan.kind != isa::MemKind::Load) return false;
  unsigned first, end;
  w.board.bounds(info.write_runs[0], first, end);
  for (unsigned s = first; s < end; ++s)
    if (w.board.busy_lanes(s) & m.plan.exec) return false;
  bool all = true;
  for (MemRequest* r : coalesced_) {
    if (vmem_port_.socket->transport_dbg(*r) != r->get_data_length()) {
      all = false;
      continue;
    }
    Coalescer::scatter(*r, m.plan);
    r->value_read = true;
  }
  if (!all) return false;
  info.mem.complete(*w.wave, m.op->inst, m.plan);
  for (MemRequest* r : coalesced_) r->release();
  coalesced_.clear();
  lazy_->record(w, m, info, cu_id_, c, inst_pool_, vmem_port_.pool, coalesced_);
  for (MemRequest* r : coalesced_) vmem_port_.queue.push_back(r);
  vmem_free_ = c + info.busy;
  inst_pool_.put(&m);
  return true;
}

// An instruction that reads lanes the lazy unit owes waits (a dependency)
// until their requests are back; at issue (c is this tick's cycle, not the
// next one being planned) it makes the deferred ones go out. One that
// writes lanes still in flight waits for them too.
Stall ComputeUnit::lazy_stall(WaveSlot& w, const DecodedOp& op, const InstInfo& info, uint64_t c, uint64_t& earliest) {
  const uint64_t lanes = read_lanes(op, w.wave->exec());
  if (lazy_->owes(w, info, lanes) == LazyUnit::Owed::Nothing) return Stall::None;
  // ⊗ elimination: a multiplicand's lanes whose partner is 0 are not waited
  // for. Which partner lanes are 0 may still be on its way from the zero
  // caches: the instruction waits for those answers before requesting anything.
  const bool product = cfg_.lazy_zero_products && LazyUnit::is_zero_product(op.inst);
  if (product && lazy_->querying(w, info, lanes)) {
    earliest = kNever;
    return Stall::Dependency;
  }
  LazyUnit::Excuse excuses[2];
  const unsigned n = product ? lazy_->zero_partners(w, op.inst, lanes, excuses) : 0;
  const bool now = c == last_tick_;
  coalesced_.clear();
  const LazyUnit::Owed owed =
      lazy_->blocks(w, info, lanes, now, cu_id_, c, inst_pool_, vmem_port_.pool, coalesced_, excuses, n);
  for (MemRequest* r : coalesced_) vmem_port_.queue.push_back(r);
  coalesced_.clear();
  if (owed == LazyUnit::Owed::Nothing) return Stall::None;
  // Deferred lanes go out when the wave is looked at on the cycle it would
  // issue; lanes in flight wake it when they are back.
  earliest = owed == LazyUnit::Owed::Deferred ? c : kNever;
  return Stall::Dependency;
}

// The eager_zc design (zero_queries without lazy_loads): a vector global
// load's values are read now, through the caches (as load_values=execute
// reads them), its data requests whose lanes read only zero words are
// dropped, and its ZeroMask queries go out with the remaining data requests;
// it completes when all are back. False (the load goes as any other) when the
// values cannot be read now: the wave's own stores or atomics are in flight,
// or a debug read fails.
bool ComputeUnit::eager_zero_queries(const WaveSlot& w, MemInst& m) {
  if (!LazyUnit::may_defer(m.op->inst, m)) return false;
  for (size_t i = 0; i < w.vm_order.size(); ++i)
    if (w.vm_order[i]->plan.kind != isa::MemKind::Load) return false;
  for (MemRequest* r : coalesced_)
    if (vmem_port_.socket->transport_dbg(*r) != r->get_data_length()) return false;
  for (MemRequest* r : coalesced_) {
    Coalescer::scatter(*r, m.plan);
    r->value_read = true;
  }
  size_t kept = 0;
  for (MemRequest* r : coalesced_) {
    if (reads_only_zeros(*r, m.plan)) {
      r->release();
      ++zero_->requests_saved;
    } else {
      coalesced_[kept++] = r;
    }
  }
  coalesced_.resize(kept);
  make_zero_queries(m, cu_id_, static_cast<int>(w.index), cfg_.zero_query_span, vmem_port_.pool, coalesced_);
  zero_->queries += coalesced_.size() - kept;
  m.pending = static_cast<unsigned>(coalesced_.size());
  return true;
}

// Every request of a lazy unit's group is back: its lanes are free.
void ComputeUnit::lazy_returned(MemInst& m) {
  WaveSlot& w = *m.wave;
  // Zero queries answered: the lanes with a non-zero dword are requested now.
  if (m.zero_phase && !m.error) {
    coalesced_.clear();
    lazy_->zero_answered(m, cu_id_, vmem_port_.pool, coalesced_);
    for (MemRequest* r : coalesced_) vmem_port_.queue.push_back(r);
    coalesced_.clear();
    if (m.pending) return;
  }
  m.zero_phase = false;
  m.lazy_record = 0;
  lazy_->returned(m);
  --w.lazy_out;
  wake(w, WakeReason::MemoryResponse);
  if (m.error && !w.ended) {
    w.wave->fault("the memory system answered an error for " + std::string(m.op->inst.mnemonic()));
    w.site = isa::FaultSite{m.op->inst.pc, m.op};
    fault_wave(w);
  }
  m.lazy = false;
  inst_pool_.put(&m);
  maybe_retire(w);
}

}  // namespace tessera
