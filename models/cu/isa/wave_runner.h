// Running a wave's instructions through the decode cache, shared by the
// functional executor and the cycle-level compute unit.
//
// run_wave() is the functional inner loop: up to `budget` instructions of one
// wave, stopping early when the wave ends, waits at a barrier or faults.
// next_op() and execute() are the same two steps for a caller that issues one
// instruction at a time (the CU): next_op() finds the instruction at the
// wave's PC and refuses what cannot execute on this wave (a PC outside the
// code, an encoding without semantics, registers beyond the wave's allocation)
// by faulting the wave; execute() advances the PC and runs the semantics.
//
// A faulted wave's report names the kernel, the workgroup, the wave, the PC
// and the instruction (fault_report()); KernelFault carries it as an exception.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

class KernelFault : public std::runtime_error {
 public:
  KernelFault(const std::string& report, std::string kernel, const WaveId& wave, uint64_t pc, std::string detail)
      : std::runtime_error(report), kernel(std::move(kernel)), wave(wave), pc(pc), detail(std::move(detail)) {}
  std::string kernel;
  WaveId wave;
  uint64_t pc;
  std::string detail;  // the wave's own message, without location
};

// Where a wave faulted: the PC of the instruction that faulted (or of the
// address it could not fetch) and that instruction's entry if it has one.
struct FaultSite {
  uint64_t pc = 0;
  const DecodedOp* op = nullptr;
};

namespace detail {
// Faults `w` for an instruction that cannot run (out of line: the cold path).
void refuse(Wave& w, const DecodedOp* op);
// Runs a VALU instruction while s_set_gpr_idx_on is in force (out of line).
void execute_indexed(Wave& w, const DecodedOp& op);
}  // namespace detail

inline bool is_valu(Format f) {
  return f == Format::VOP1 || f == Format::VOP2 || f == Format::VOPC || f == Format::VOP3 || f == Format::VOP3P;
}

// The instruction at the wave's PC if this wave can execute it; otherwise the
// wave is faulted with the reason and the result is nullptr. `site` receives
// the PC (and entry) either way, so a later fault of the instruction's own
// semantics is reported at the right place too.
inline const DecodedOp* next_op(DecodeCache& program, Wave& w, FaultSite& site) {
  const DecodedOp* op = program.at(w.pc);
  site.pc = w.pc;
  site.op = op;
  if (op && op->fn && op->vgpr_end <= w.num_vgprs() && op->agpr_end <= w.num_agprs() &&
      op->scalar_end <= reg::kScalarFileSize)
    return op;
  detail::refuse(w, op);
  return nullptr;
}

// Runs one instruction that next_op() returned: the PC moves past it first
// (ExecFn contract: a branch overwrites it), then its semantics run.
inline void execute(Wave& w, const DecodedOp& op) {
  w.pc = op.inst.pc + op.inst.size;
  if (w.gpr_idx_on && is_valu(op.inst.format)) {
    detail::execute_indexed(w, op);
    return;
  }
  op.fn(w, op.inst);
}

// Runs `w` until it stops running (ends, reaches a barrier, faults) or has
// executed `budget` instructions. Returns how many it executed; an
// instruction that faulted while executing counts, one refused by next_op()
// does not. On a fault `site` says where.
uint32_t run_wave(DecodeCache& program, Wave& w, uint32_t budget, FaultSite& site);

// The fault message of a wave past limits().wave_instructions (a kernel that
// spins); every executor (functional, the CU's functional and cycle-level
// paths) reports it the same way.
std::string spinning_message(uint64_t limit);

// "kernel 'K' faulted at workgroup (x,y,z) wave W, PC 0x... (K+0x...) in
// mnemonic: message" for a faulted wave.
std::string fault_report(const KernelInfo& kernel, const Wave& w, const FaultSite& site);

// The report of a faulted wave as an exception.
[[noreturn]] void throw_fault(const KernelInfo& kernel, const Wave& w, const FaultSite& site);

}  // namespace tessera::isa
