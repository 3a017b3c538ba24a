// The compute unit's side of DARSIE (darsie_unit.h, docs/DARSIE.md): followers
// skipping in the issue stage, the issue hook, the copy-back charge and the
// renamed VGPRs a workgroup may use.
#include <algorithm>

#include "models/cu/compute_unit.h"

namespace tessera {

namespace {

// Skips per cycle in the whole CU: the PC coalescer's two probe ports.
constexpr unsigned kProbePorts = 2;

}  // namespace

// Wave w's evaluation at cycle c found an instruction its leader already
// executed (evaluate() returned no stall and no `info`): it skips it, and
// any that follow while the probe ports last, then is evaluated for the
// instruction after. A mismatch in checking mode faults the workgroup.
Stall ComputeUnit::darsie_skip(WaveSlot& w, uint64_t c, uint64_t& earliest, const isa::DecodedOp*& op,
                               const InstInfo*& info) {
  if (darsie_cycle_ != c) {
    darsie_cycle_ = c;
    darsie_probes_ = 0;
  }
  Stall s = Stall::None;
  while (s == Stall::None && !info) {
    if (darsie_probes_ == kProbePorts) {  // next cycle
      earliest = c + 1;
      w.next_info = nullptr;
      return Stall::Structural;
    }
    ++darsie_probes_;
    const std::string mismatch = darsie_->skip(w, *op, *w.looked_info, c);
    w.looked_pc = kNever;  // its PC and scoreboard moved
    if (!mismatch.empty()) {
      w.wave->fault(mismatch);
      w.site = isa::FaultSite{op->inst.pc, op};
      fault_wave(w);
      return Stall::Drain;
    }
    ib_advance(w);
    s = evaluate(w, c, earliest, op, info);
  }
  return s;
}

// After wave w issued op at cycle c: a wave that left the majority path
// copies its renamed VGPRs back, one VALU move each on its SIMD.
void ComputeUnit::darsie_issued(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c) {
  // An LDS read's result is there when its lgkmcnt would drop (it was the
  // last to enter the pipeline); an ALU result after its latency.
  const uint64_t result_at = info.cls == IssueClass::Lds ? lds_.last_done() : c + info.latency;
  const unsigned copies = darsie_->issued(w, op, info, result_at);
  if (!copies) return;
  simd_free_[w.simd] = std::max(simd_free_[w.simd], c + 1) + uint64_t(copies) * cfg_.valu_cycles();
  if (simd_free_[w.simd] > w.ready_at) {
    w.ready_at = simd_free_[w.simd];
    w.ready_reason = Stall::Structural;
  }
}

void ComputeUnit::darsie_ended(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c) {
  darsie_->issued(w, op, info, c);
  darsie_->ended(w);
}

// The renamed VGPRs a workgroup may use: those its kernel leaves unallocated
// when the CU holds as many of its workgroups as fit (by wave slots, VGPRs,
// SGPRs and LDS), shared equally among them, at most darsie_rename_vgprs.
unsigned ComputeUnit::darsie_rename_budget(unsigned waves, unsigned vgpr, unsigned sgpr, uint32_t lds) const {
  const unsigned per_simd = std::min({cfg_.wave_slots, vgpr ? cfg_.vgprs / vgpr : cfg_.wave_slots,
                                      sgpr ? cfg_.sgprs / sgpr : cfg_.wave_slots});
  unsigned groups = per_simd * cfg_.simds / std::max(waves, 1u);
  if (lds) groups = std::min<unsigned>(groups, cfg_.lds_size / lds);
  groups = std::max(groups, 1u);
  const unsigned total = cfg_.simds * cfg_.vgprs;
  const unsigned used = std::min(total, groups * waves * vgpr);
  return std::min(cfg_.darsie_rename_vgprs, (total - used) / groups);
}

}  // namespace tessera
