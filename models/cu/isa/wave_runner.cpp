#include "models/cu/isa/wave_runner.h"

#include "models/cu/isa/hex.h"
#include "platform/limits.h"

namespace tessera::isa {

void detail::refuse(Wave& w, const DecodedOp* op) {
  if (!op) {
    w.fault("jump to " + hex(w.pc) + ", which is not an instruction address of the kernel's code");
  } else if (!op->fn) {
    w.fault(DecodeCache::error(*op));
  } else {
    w.fault(std::string(op->inst.mnemonic()) + " names a register beyond the wave's allocation (" +
            std::to_string(w.num_vgprs()) + " VGPRs, " + std::to_string(w.num_agprs()) +
            " AGPRs from the kernel descriptor)");
  }
}

// The current entry stays in a local (not in `site`) so the loop keeps it in
// a register across the semantics call; it is recorded only when the wave faults.
uint32_t run_wave(DecodeCache& program, Wave& w, uint32_t budget, FaultSite& site) {
  uint32_t n = 0;
  const DecodedOp* op = nullptr;
  while (n < budget) {
    op = program.at(w.pc);
    if (!op || !op->fn || op->vgpr_end > w.num_vgprs() || op->agpr_end > w.num_agprs() ||
        op->scalar_end > reg::kScalarFileSize) {
      site.pc = w.pc;
      site.op = op;
      detail::refuse(w, op);
      return n;
    }
    execute(w, *op);
    ++n;
    if (!w.running()) break;
  }
  if (w.status() == WaveStatus::Faulted) {
    site.op = op;
    site.pc = op ? op->inst.pc : w.pc;
  }
  return n;
}

std::string spinning_message(uint64_t limit) {
  return "spinning: the wave executed more than " + std::to_string(limit) + " instructions without ending " +
         limit_hint("wave_instructions", limit);
}

std::string fault_report(const KernelInfo& kernel, const Wave& w, const FaultSite& site) {
  const WaveId& id = w.id;
  std::string where = "workgroup (" + std::to_string(id.workgroup[0]) + "," + std::to_string(id.workgroup[1]) + "," +
                      std::to_string(id.workgroup[2]) + ") wave " + std::to_string(id.wave_in_group) + ", PC " +
                      hex(site.pc);
  if (site.pc >= kernel.entry_address) where += " (" + kernel.name + "+" + hex(site.pc - kernel.entry_address) + ")";
  if (site.op && site.op->inst.op) where += std::string(" in ") + site.op->inst.mnemonic();
  return "kernel '" + kernel.name + "' faulted at " + where + ": " + w.fault_message();
}

void throw_fault(const KernelInfo& kernel, const Wave& w, const FaultSite& site) {
  throw KernelFault(fault_report(kernel, w, site), kernel.name, w.id, site.pc, w.fault_message());
}

}  // namespace tessera::isa
