#include "models/cu/inst_class.h"

#include <algorithm>
#include <cstring>

namespace tessera {

namespace {

bool starts_with(const char* s, const char* prefix) { return std::strncmp(s, prefix, std::strlen(prefix)) == 0; }

// Transcendental VALU ops run on the SIMD's quarter-rate transcendental unit.
bool transcendental(const char* m) {
  for (const char* p : {"v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_"})
    if (starts_with(m, p)) return true;
  return false;
}

bool uses_f64(const isa::Instruction& inst) {
  if (inst.op->dst_type == isa::DataType::F64) return true;
  for (isa::DataType t : inst.op->src_type)
    if (t == isa::DataType::F64) return true;
  return false;
}

bool vector_alu(isa::Format f) {
  using isa::Format;
  return f == Format::VOP1 || f == Format::VOP2 || f == Format::VOPC || f == Format::VOP3 || f == Format::VOP3P;
}

}  // namespace

const char* issue_class_name(IssueClass c) {
  static const char* const names[] = {"valu",       "mfma", "salu",   "smem",    "vmem_load", "vmem_store",
                                      "atomic",     "vmem_other", "lds", "branch", "waitcnt",   "barrier",
                                      "endpgm",     "nop",  "internal"};
  static_assert(sizeof(names) / sizeof(names[0]) == size_t(IssueClass::Count), "a name per class");
  return names[size_t(c)];
}

namespace {

// The scoreboard slots of a register operand; false for constants and the like.
bool slot_run(const isa::Operand& o, SlotRun& run) {
  using isa::OperandKind;
  unsigned first = 0, count = std::max<unsigned>(1, o.dwords);
  switch (o.kind) {
    case OperandKind::Scalar:
      first = o.reg;
      count = std::min<unsigned>(count, isa::reg::kScalarFileSize - std::min<unsigned>(o.reg, isa::reg::kScalarFileSize));
      if (count == 0) return false;
      break;
    case OperandKind::Vgpr: first = kVgprSlot + o.reg; break;
    case OperandKind::Agpr: first = kVgprSlot + o.reg; run.agpr = true; break;
    case OperandKind::Special:
      count = o.reg == isa::reg::kScc ? 1 : 2;
      if (o.reg == isa::reg::kScc) first = kSccSlot;
      else if (o.reg == isa::reg::kVccz) first = isa::reg::kVccLo;
      else if (o.reg == isa::reg::kExecz) first = isa::reg::kExecLo;
      else return false;
      break;
    default: return false;
  }
  run.first = static_cast<uint16_t>(first);
  run.count = static_cast<uint8_t>(count);
  return true;
}

bool vector_class(IssueClass c) {
  return c == IssueClass::Valu || c == IssueClass::Mfma || c == IssueClass::Lds || c == IssueClass::VmemLoad ||
         c == IssueClass::VmemStore || c == IssueClass::VmemAtomic;
}

void add_slot_runs(const isa::Instruction& inst, InstInfo& out) {
  for (unsigned i = 0; i < inst.num_src; ++i)
    if (slot_run(inst.src[i], out.read_runs[out.reads])) ++out.reads;
  if (vector_class(out.cls)) out.read_runs[out.reads++] = SlotRun{isa::reg::kExecLo, 2, false};
  if (out.implicit_read) out.read_runs[out.reads++] = SlotRun{out.implicit_read, 2, false};
  for (unsigned i = 0; i < inst.num_dst; ++i)
    if (slot_run(inst.dst[i], out.write_runs[out.writes])) ++out.writes;
}

}  // namespace

void ProgramInfo::classify(const isa::DecodedOp& op, InstInfo& out) const {
  using isa::Format;
  out = InstInfo();
  out.known = true;
  const isa::Instruction& inst = op.inst;
  if (!inst.op) return;  // the CU faults the wave before issue
  const uint32_t flags = inst.op->flags;
  const char* m = inst.mnemonic();
  out.mem = isa::mem_fns(m);
  if (flags & isa::kEndProgram) {
    out.cls = IssueClass::EndPgm;
  } else if (flags & isa::kBarrier) {
    out.cls = IssueClass::Barrier;
  } else if (std::strcmp(m, "s_waitcnt") == 0) {
    out.cls = IssueClass::Waitcnt;
  } else if (flags & isa::kBranch) {
    out.cls = IssueClass::Branch;
    out.busy = 1;
    out.latency = static_cast<uint32_t>(cfg_.salu_latency);  // s_swappc/s_call write an SGPR pair
    if (std::strstr(m, "_vccz") || std::strstr(m, "_vccnz")) out.implicit_read = isa::reg::kVccLo;
    if (std::strstr(m, "_execz") || std::strstr(m, "_execnz")) out.implicit_read = isa::reg::kExecLo;
  } else if (std::strcmp(m, "s_nop") == 0) {
    out.cls = IssueClass::Nop;
    out.wait = static_cast<uint32_t>(inst.simm16 & 0xf) + 1;
  } else if (std::strcmp(m, "s_sleep") == 0) {
    out.cls = IssueClass::Nop;
    out.wait = std::max<uint32_t>(1, static_cast<uint32_t>(inst.simm16 & 0x7f) * cfg_.sleep_unit);
  } else if (inst.format == Format::SMEM) {
    out.cls = out.mem.plan ? IssueClass::Smem : IssueClass::Salu;
    out.busy = static_cast<uint32_t>(out.mem.plan ? cfg_.smem_issue_cycles : 1);
  } else if (inst.format == Format::DS) {
    out.cls = IssueClass::Lds;
  } else if (flags & isa::kVectorMem) {
    out.flat = inst.format == Format::FLAT;
    if (!out.mem.plan)
      out.cls = IssueClass::VmemNoData;
    else if (flags & isa::kAtomic)
      out.cls = IssueClass::VmemAtomic;
    else if (flags & isa::kStore)
      out.cls = IssueClass::VmemStore;
    else
      out.cls = IssueClass::VmemLoad;
    out.busy = static_cast<uint32_t>(cfg_.vmem_issue_cycles);
  } else if (flags & isa::kMfma) {
    out.cls = IssueClass::Mfma;
    unsigned c = cfg_.mfma_cycles_of(m);
    if (!c) c = 64;  // an MFMA shape no fragment names: the longest class
    c = (c + cfg_.mfma_rate - 1) / cfg_.mfma_rate;
    out.busy = static_cast<uint32_t>(c);
    out.latency = static_cast<uint32_t>(c);
  } else if (vector_alu(inst.format)) {
    out.cls = IssueClass::Valu;
    unsigned busy = cfg_.valu_cycles();
    if (transcendental(m))
      busy = cfg_.trans_cycles;
    else if (uses_f64(inst))
      busy = cfg_.dp_cycles;
    out.busy = static_cast<uint32_t>(busy);
    out.latency = static_cast<uint32_t>(std::max(busy, cfg_.valu_latency));
  } else if (inst.format == Format::SOP1 || inst.format == Format::SOP2 || inst.format == Format::SOPK ||
             inst.format == Format::SOPC) {
    out.cls = IssueClass::Salu;
    out.latency = static_cast<uint32_t>(cfg_.salu_latency);
  } else {
    out.cls = IssueClass::Internal;  // other SOPP: s_setprio, s_icache_inv, s_ttracedata...
    out.sets_priority = std::strcmp(m, "s_setprio") == 0;
  }
  add_slot_runs(inst, out);
}

}  // namespace tessera
