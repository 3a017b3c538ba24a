#include "models/cu/isa/wave_runner.h"

#include <algorithm>

#include "models/cu/isa/dispatch.h"
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

// GPR indexing (CDNA2/Vega ISA, S_SET_GPR_IDX_ON): M0[7:0] is added to the
// VGPR number of each operand M0[15:12] selects (bit 12 SRC0, 13 SRC1, 14
// SRC2, 15 VDST); scalar and constant operands are not indexed. Only the
// register numbers change, so the instruction runs on an indexed copy.
void detail::execute_indexed(Wave& w, const DecodedOp& op) {
  const uint32_t m0 = w.m0();
  const uint16_t index = m0 & 0xff;
  Instruction inst = op.inst;
  bool inside = true;
  auto shift = [&](Operand& o) {
    if (o.kind != OperandKind::Vgpr) return;
    o.reg = static_cast<uint16_t>(o.reg + index);
    inside = inside && o.reg + std::max<unsigned>(o.dwords, 1) <= w.num_vgprs();
  };
  for (unsigned s = 0; s < 3; ++s)
    if (m0 & (1u << (12 + s))) shift(inst.src[s]);
  if (m0 & (1u << 15)) shift(inst.dst[0]);
  if (inst.op->flags & kReadsDst) inst.src[2] = inst.dst[0];  // v_mac and friends read their destination
  if (!inside) {
    w.fault(std::string(inst.mnemonic()) + " with GPR indexing (M0 = " + hex(m0) + ") names a VGPR beyond the wave's " +
            std::to_string(w.num_vgprs()));
    return;
  }
  op.fn(w, inst);
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

namespace {

// "name+0x..." of the function of .text that holds `pc` (a kernel or a
// function it calls), or of the kernel when the wave has no code object.
std::string code_location(const KernelInfo& kernel, const Wave& w, uint64_t pc) {
  const Function* owner = nullptr;
  if (w.context() && w.context()->code)
    for (const Function& f : w.context()->code->functions())
      if (f.address <= pc) owner = &f;
  if (owner) return owner->name + "+" + hex(pc - owner->address);
  if (pc >= kernel.entry_address) return kernel.name + "+" + hex(pc - kernel.entry_address);
  return "";
}

}  // namespace

std::string spinning_message(uint64_t limit) {
  return "spinning: the wave executed more than " + std::to_string(limit) + " instructions without ending " +
         limit_hint("wave_instructions", limit);
}

std::string fault_report(const KernelInfo& kernel, const Wave& w, const FaultSite& site) {
  const WaveId& id = w.id;
  std::string where = "workgroup (" + std::to_string(id.workgroup[0]) + "," + std::to_string(id.workgroup[1]) + "," +
                      std::to_string(id.workgroup[2]) + ") wave " + std::to_string(id.wave_in_group) + ", PC " +
                      hex(site.pc);
  if (const std::string at = code_location(kernel, w, site.pc); !at.empty()) where += " (" + at + ")";
  if (site.op && site.op->inst.op) where += std::string(" in ") + site.op->inst.mnemonic();
  return "kernel '" + kernel.name + "' faulted at " + where + ": " + w.fault_message();
}

void throw_fault(const KernelInfo& kernel, const Wave& w, const FaultSite& site) {
  throw KernelFault(fault_report(kernel, w, site), kernel.name, w.id, site.pc, w.fault_message());
}

}  // namespace tessera::isa
