// The transfer function of the kernel analysis: what each instruction's
// results depend on, given what its operands depend on.
#include "models/cu/analysis/transfer.h"

#include <cstring>

namespace tessera::analysis {

using namespace isa;

namespace {

constexpr uint16_t kExecLo = reg::kExecLo, kVccLo = reg::kVccLo;

bool contains(const Instruction& inst, const char* part) { return std::strstr(inst.op->mnemonic, part) != nullptr; }
bool any_prefix(const Instruction& inst, std::initializer_list<const char*> prefixes) {
  for (const char* p : prefixes)
    if (mnemonic_starts(inst, p)) return true;
  return false;
}

Sources mask_sources(const RegisterState& st, uint16_t lo) { return st.scalar[lo].any() | st.scalar[lo + 1].any(); }
Sources exec_sources(const RegisterState& st) { return mask_sources(st, kExecLo); }

// ---- Operands ----

Bits read(const RegisterState& st, const Operand& o, unsigned dword) {
  switch (o.kind) {
    case OperandKind::Scalar:
      return o.reg + dword < reg::kScalarFileSize ? st.scalar[o.reg + dword] : Bits{};
    case OperandKind::Vgpr:
      return o.reg + dword < 256 ? st.vector[o.reg + dword] : Bits{};
    case OperandKind::Agpr:
      return o.reg + dword < 256 ? st.vector[256 + o.reg + dword] : Bits{};
    case OperandKind::Special:
      if (o.reg == reg::kVccz) return Bits::all(mask_sources(st, kVccLo));
      if (o.reg == reg::kExecz) return Bits::all(exec_sources(st));
      if (o.reg == reg::kScc) return Bits::all(st.scc);
      if (o.reg == reg::kLdsDirect) return Bits::all(kMemory);
      return Bits{};  // the aperture registers: the same for every wave
    default:
      return Bits{};
  }
}

Sources read_any(const RegisterState& st, const Operand& o) {
  Sources s = 0;
  for (unsigned d = 0; d < o.dwords; ++d) s |= read(st, o, d).any();
  return s;
}

bool reads_scc(const Instruction& inst) {
  return inst.format != Format::SOPP &&
         (contains(inst, "addc") || contains(inst, "subb") || contains(inst, "cselect") || contains(inst, "cmov")) &&
         inst.op->mnemonic[0] == 's';
}

// Everything an instruction reads: its sources, SCC where implied, and EXEC
// for the instructions that read it as data.
Sources all_sources(const Instruction& inst, const RegisterState& st) {
  Sources s = 0;
  for (unsigned i = 0; i < inst.num_src; ++i) s |= read_any(st, inst.src[i]);
  if (reads_scc(inst)) s |= st.scc;
  if (inst.op->flags & kReadsExec) s |= exec_sources(st);
  if (inst.op->flags & kReadsDst) s |= read_any(st, inst.dst[0]);
  return s;
}

bool constant(const Operand& o, uint32_t* value, unsigned dword = 0) {
  if (o.kind != OperandKind::Constant) return false;
  *value = static_cast<uint32_t>(o.value >> (32 * dword));
  return true;
}

// ---- Writes ----

// EXEC holds the wave's starting lanes again: the same mask in every (full) wave.
void set_full_exec(RegisterState& st) {
  st.exec_full = true;
  st.scalar[kExecLo] = st.scalar[kExecLo + 1] = Bits{};
}

void clear_flags(RegisterState& st, uint16_t code) {
  st.full_exec_copy[code] = false;
  st.read_only_pointer[code] = false;
}

// A scalar register, SGPR or special, is written whole by its wave.
void write_scalar(RegisterState& st, const Operand& o, unsigned dword, Bits v, Sources control) {
  const unsigned code = o.reg + dword;
  if (o.kind != OperandKind::Scalar || code >= reg::kScalarFileSize) return;
  st.scalar[code] = v |= control;
  clear_flags(st, static_cast<uint16_t>(code));
  if (code == kExecLo || code == kExecLo + 1) st.exec_full = false;  // callers that know better set it again
}

// A vector register keeps its old value in the lanes EXEC leaves out.
void write_vector(RegisterState& st, const Operand& o, unsigned dword, Bits v, Sources control) {
  const unsigned index = (o.kind == OperandKind::Agpr ? 256 : 0) + o.reg + dword;
  if ((o.kind != OperandKind::Vgpr && o.kind != OperandKind::Agpr) || o.reg + dword >= 256) return;
  Bits& r = st.vector[index];
  if (!st.exec_full) v |= r, v |= exec_sources(st);
  r = v |= control;
}

// Writes every dword of `o` with `per_dword(d)`; returns the sources written.
template <typename F>
Sources write_operand(RegisterState& st, const Operand& o, Sources control, F per_dword) {
  Sources s = 0;
  for (unsigned d = 0; d < o.dwords; ++d) {
    const Bits v = per_dword(d);
    if (o.kind == OperandKind::Scalar) {
      write_scalar(st, o, d, v, control);
      s |= st.scalar[o.reg + d < reg::kScalarFileSize ? o.reg + d : 0].any();
    } else {
      write_vector(st, o, d, v, control);
      s |= o.reg + d < 256 ? st.vector[(o.kind == OperandKind::Agpr ? 256 : 0) + o.reg + d].any() : 0;
    }
  }
  return s;
}

bool is_16bit(DataType t) {
  return t == DataType::F16 || t == DataType::BF16 || t == DataType::I16 || t == DataType::U16 || t == DataType::B16;
}

// Instructions that write part of a register and keep the rest: 16-bit
// results, SDWA selects, D16 loads, v_writelane (one lane). The old value
// then flows into the new one.
bool keeps_part_of_dst(const Instruction& inst) {
  return is_16bit(inst.op->dst_type) || (inst.ext == ExtKind::Sdwa && inst.dst_sel != 6) || (inst.op_sel & 8) ||
         contains(inst, "d16") || mnemonic_starts(inst, "v_writelane");
}

Effect write_all(const Instruction& inst, RegisterState& st, Sources value, Sources control) {
  Effect e;
  const bool keep = keeps_part_of_dst(inst);
  for (unsigned i = 0; i < inst.num_dst; ++i) {
    const Operand& dst = inst.dst[i];
    e.result |= write_operand(st, dst, control, [&](unsigned d) {
      return keep ? read(st, dst, d) | Bits::all(value) : Bits::all(value);
    });
    e.writes_value = true;
    e.writes_scalar = e.writes_scalar || inst.dst[i].kind == OperandKind::Scalar;
  }
  return e;
}

// ---- Scalar ALU ----

// Bitwise logic with one constant operand keeps the other's bits where the
// constant has ones (and); otherwise bit i depends on bit i of both.
Bits logic_dword(const Instruction& inst, const RegisterState& st, unsigned d, bool is_and) {
  uint32_t c;
  if (is_and && constant(inst.src[0], &c, d)) return mask_bits(read(st, inst.src[1], d), c);
  if (is_and && constant(inst.src[1], &c, d)) return mask_bits(read(st, inst.src[0], d), c);
  return read(st, inst.src[0], d) | read(st, inst.src[1], d);
}

Bits scalar_dword(const Instruction& inst, const RegisterState& st, unsigned d, Sources all) {
  uint32_t c;
  if (any_prefix(inst, {"s_mov_b", "s_movk_i32"})) return read(st, inst.src[0], d);
  if (any_prefix(inst, {"s_and_b", "s_or_b", "s_xor_b"}) && inst.num_src == 2)
    return logic_dword(inst, st, d, mnemonic_starts(inst, "s_and_"));
  if (inst.dst[0].dwords == 1) {
    const Bits a = read(st, inst.src[0], 0);
    if (mnemonic_is(inst, "s_lshl_b32") && constant(inst.src[1], &c)) return shift_left(a, c & 31);
    if (mnemonic_is(inst, "s_lshr_b32") && constant(inst.src[1], &c)) return shift_right(a, c & 31, false);
    if (mnemonic_is(inst, "s_ashr_i32") && constant(inst.src[1], &c)) return shift_right(a, c & 31, true);
    if ((mnemonic_is(inst, "s_bfe_u32") || mnemonic_is(inst, "s_bfe_i32")) && constant(inst.src[1], &c))
      return extract(a, c & 31, (c >> 16) & 0x7f, mnemonic_is(inst, "s_bfe_i32"));
    if (any_prefix(inst, {"s_add_", "s_sub_", "s_addc_", "s_subb_", "s_mul_i32", "s_addk_", "s_mulk_", "s_lshl1_add",
                          "s_lshl2_add", "s_lshl3_add", "s_lshl4_add"})) {
      const Bits b = inst.num_src > 1 ? read(st, inst.src[1], 0) : Bits{};
      Bits sum = carry_up(a | b);
      if (reads_scc(inst)) sum |= st.scc;
      if (mnemonic_is(inst, "s_addk_i32") || mnemonic_is(inst, "s_mulk_i32")) sum |= carry_up(read(st, inst.dst[0], 0));
      return sum;
    }
  }
  if (any_prefix(inst, {"s_cmov"})) return read(st, inst.dst[0], d) | Bits::all(all);
  return Bits::all(all);
}

bool leaves_scc(const Instruction& inst) {
  return any_prefix(inst, {"s_mov", "s_cmov", "s_getpc", "s_setpc", "s_swappc", "s_call", "s_brev", "s_ff0", "s_ff1",
                           "s_flbit", "s_sext", "s_bitset", "s_pack", "s_mul_i32", "s_mulk", "s_bfm", "s_mul_hi",
                           "s_getreg", "s_setreg", "s_cselect", "s_bitreplicate", "s_set_gpr_idx"});
}
bool sets_scc(const Instruction& inst) {
  return any_prefix(inst, {"s_cmp", "s_bitcmp", "s_add", "s_sub", "s_and", "s_or", "s_xor", "s_andn", "s_orn",
                           "s_nand", "s_nor", "s_xnor", "s_lshl", "s_lshr", "s_ashr", "s_bfe", "s_not", "s_abs",
                           "s_min", "s_max", "s_bcnt", "s_quadmask", "s_wqm", "s_absdiff"});
}

// SCC after a scalar ALU instruction: what its sources depend on, or also its
// old value when the table does not say that the instruction writes SCC.
void update_scc(const Instruction& inst, RegisterState& st, Sources all, Sources control) {
  if (leaves_scc(inst)) return;
  st.scc = sets_scc(inst) ? all | control : st.scc | all | control;
}

bool is_exec(const Operand& o) { return o.kind == OperandKind::Scalar && o.reg == kExecLo; }

// An operand that holds the wave's starting EXEC: EXEC itself while full, a
// saved copy of it, or the constant -1.
bool full_mask(const RegisterState& st, const Operand& o) {
  if (is_exec(o)) return st.exec_full;
  if (o.kind == OperandKind::Scalar && o.reg < reg::kScalarFileSize) return st.full_exec_copy[o.reg];
  return o.kind == OperandKind::Constant && o.value == ~0ull;
}

// s_*_saveexec_b64 / s_*_wrexec_b64: EXEC = op(src, EXEC); sdst = the old
// EXEC (saveexec) or the new one (wrexec).
Effect exec_mask_op(const Instruction& inst, RegisterState& st, Sources control) {
  const bool was_full = st.exec_full;
  const Bits old_lo = st.scalar[kExecLo], old_hi = st.scalar[kExecLo + 1];
  const Sources all = all_sources(inst, st);
  const bool or_with_full = mnemonic_starts(inst, "s_or_saveexec") && (was_full || full_mask(st, inst.src[0]));
  st.scalar[kExecLo] = st.scalar[kExecLo + 1] = Bits::all(all | control);
  st.exec_full = false;
  const bool save = contains(inst, "saveexec");
  Effect e;
  e.writes_value = e.writes_scalar = true;
  e.result = write_operand(st, inst.dst[0], control, [&](unsigned d) {
    return save ? (d ? old_hi : old_lo) : Bits::all(all);
  });
  if (save && inst.dst[0].kind == OperandKind::Scalar && inst.dst[0].reg + 1 < reg::kScalarFileSize)
    st.full_exec_copy[inst.dst[0].reg] = st.full_exec_copy[inst.dst[0].reg + 1] = was_full;
  if (or_with_full) set_full_exec(st);
  e.result |= exec_sources(st);
  update_scc(inst, st, all, control);
  return e;
}

// A call: the callee may leave anything in any register (and store anywhere,
// which section_writes accounts for).
Effect call_clobbers(RegisterState& st) {
  for (Bits& b : st.scalar) b = Bits::all(kCall);
  for (Bits& b : st.vector) b = Bits::all(kCall);
  st.scc = kCall;
  st.exec_full = false;
  st.full_exec_copy.reset();
  st.read_only_pointer.reset();
  Effect e;
  e.result = kCall;
  e.writes_value = e.writes_scalar = true;
  return e;
}

Effect scalar_alu(const Instruction& inst, RegisterState& st, Sources control) {
  if (contains(inst, "saveexec") || contains(inst, "wrexec")) return exec_mask_op(inst, st, control);
  const Sources all = all_sources(inst, st) | (mnemonic_starts(inst, "s_getreg") ? kWaveId : 0);
  // Flags a copy keeps, read before the write.
  const Operand& src = inst.src[0];
  const bool copy = mnemonic_starts(inst, "s_mov_b") && inst.num_dst == 1;
  const bool src_full = copy && full_mask(st, src);
  const bool src_read_only = copy && src.kind == OperandKind::Scalar && src.reg < reg::kScalarFileSize &&
                             st.read_only_pointer[src.reg];
  const bool exec_stays_full = inst.num_dst == 1 && is_exec(inst.dst[0]) && inst.dst[0].dwords == 2 &&
                               (src_full || (mnemonic_starts(inst, "s_or_b64") &&
                                             (full_mask(st, inst.src[0]) || full_mask(st, inst.src[1]))));
  Effect e;
  if (inst.num_dst) {
    std::vector<Bits> values(inst.dst[0].dwords);
    for (unsigned d = 0; d < values.size(); ++d) values[d] = scalar_dword(inst, st, d, all);
    e.result = write_operand(st, inst.dst[0], control, [&](unsigned d) { return values[d]; });
    e.writes_value = e.writes_scalar = true;
    const Operand& dst = inst.dst[0];
    for (unsigned d = 0; d < dst.dwords && dst.kind == OperandKind::Scalar && dst.reg + d < reg::kScalarFileSize; ++d) {
      st.full_exec_copy[dst.reg + d] = src_full;
      st.read_only_pointer[dst.reg + d] = src_read_only;
    }
    if (exec_stays_full) set_full_exec(st), e.result = 0;
  }
  const Sources scc_before = st.scc;
  update_scc(inst, st, all, control);
  if (st.scc != scc_before || sets_scc(inst)) e.writes_scalar = true;
  if (inst.format == Format::SOPC) e.result |= st.scc, e.writes_value = true;
  return e;
}

// ---- Vector ALU ----

// Integer ops followed bit by bit: their result's bits go to *out. False for
// every other instruction, whose result then takes every source's sources.
bool vector_bits(const Instruction& inst, const RegisterState& st, Bits* out) {
  if (inst.ext != ExtKind::None || inst.clamp || inst.dst[0].dwords != 1) return false;
  const Bits a = read(st, inst.src[0], 0), b = read(st, inst.src[1], 0), c = read(st, inst.src[2], 0);
  uint32_t k;
  if (mnemonic_is(inst, "v_mov_b32")) return *out = a, true;
  if (mnemonic_is(inst, "v_and_b32")) return *out = logic_dword(inst, st, 0, true), true;
  if (mnemonic_is(inst, "v_or_b32") || mnemonic_is(inst, "v_xor_b32")) return *out = a | b, true;
  if (mnemonic_is(inst, "v_or3_b32")) return *out = a | b | c, true;
  if (mnemonic_is(inst, "v_lshlrev_b32") && constant(inst.src[0], &k)) return *out = shift_left(b, k & 31), true;
  if (mnemonic_is(inst, "v_lshrrev_b32") && constant(inst.src[0], &k)) return *out = shift_right(b, k & 31, false), true;
  if (mnemonic_is(inst, "v_ashrrev_i32") && constant(inst.src[0], &k)) return *out = shift_right(b, k & 31, true), true;
  if (mnemonic_is(inst, "v_bfe_u32") || mnemonic_is(inst, "v_bfe_i32")) {
    uint32_t offset, width;
    if (!constant(inst.src[1], &offset) || !constant(inst.src[2], &width)) return false;
    return *out = extract(a, offset, width, mnemonic_is(inst, "v_bfe_i32")), true;
  }
  if (mnemonic_is(inst, "v_lshl_or_b32") && constant(inst.src[1], &k)) return *out = shift_left(a, k & 31) | c, true;
  if (mnemonic_is(inst, "v_and_or_b32")) {
    if (constant(inst.src[1], &k)) return *out = mask_bits(a, k) | c, true;
    if (constant(inst.src[0], &k)) return *out = mask_bits(b, k) | c, true;
    return *out = a | b | c, true;
  }
  if (mnemonic_is(inst, "v_lshl_add_u32") && constant(inst.src[1], &k)) return *out = carry_up(shift_left(a, k & 31) | c), true;
  if (mnemonic_is(inst, "v_add_lshl_u32") && constant(inst.src[2], &k)) return *out = shift_left(carry_up(a | b), k & 31), true;
  if (any_prefix(inst, {"v_add_u32", "v_sub_u32", "v_subrev_u32", "v_add_i32", "v_sub_i32", "v_add_co_u32",
                        "v_sub_co_u32", "v_subrev_co_u32", "v_mul_lo_u32", "v_mul_u32_u24", "v_mul_i32_i24"}))
    return *out = carry_up(a | b), true;
  if (any_prefix(inst, {"v_addc_co_u32", "v_subb_co_u32", "v_subbrev_co_u32"}))
    return *out = carry_up(a | b) | Bits::all(read_any(st, inst.src[2])), true;
  if (any_prefix(inst, {"v_add3_u32", "v_mad_u32_u24", "v_mad_i32_i24"})) return *out = carry_up(a | b | c), true;
  if (mnemonic_is(inst, "v_cndmask_b32")) return *out = a | b | Bits::all(read_any(st, inst.src[2])), true;
  return false;
}

Effect vector_alu(const Instruction& inst, RegisterState& st, Sources control) {
  const Sources all = all_sources(inst, st);
  // A lane mask (VOPC, carry-out) or a value read from chosen lanes also
  // depends on which lanes are active.
  const Sources lanes = all | exec_sources(st);
  Bits bits;
  const bool precise = vector_bits(inst, st, &bits);
  Effect e;
  e.writes_value = inst.num_dst > 0;
  for (unsigned i = 0; i < inst.num_dst; ++i) {
    const Operand& dst = inst.dst[i];
    const bool scalar = dst.kind == OperandKind::Scalar;
    e.writes_scalar = e.writes_scalar || scalar;
    const bool keep = !scalar && keeps_part_of_dst(inst);
    e.result |= write_operand(st, dst, control, [&](unsigned d) {
      if (scalar) return Bits::all(lanes);
      const Bits v = i == 0 && precise ? bits : Bits::all(all);
      return keep ? v | read(st, dst, d) : v;
    });
  }
  if (inst.op->flags & kWritesExec) {  // v_cmpx_*
    st.scalar[kExecLo] = st.scalar[kExecLo + 1] = Bits::all(lanes | control);
    st.exec_full = false;
    e.writes_scalar = true;
  }
  return e;
}

// ---- Memory ----

Sources address_sources(const Instruction& inst, const RegisterState& st) {
  switch (inst.format) {
    case Format::SMEM: return read_any(st, inst.src[0]) | read_any(st, inst.src[2]);
    case Format::DS: return read_any(st, inst.src[0]) | (mnemonic_is(inst, "ds_read_addtid_b32") ? st.scalar[reg::kM0].any() : 0);
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH:
      return read_any(st, inst.src[0]) | read_any(st, inst.src[2]);
    case Format::MUBUF: case Format::MTBUF:
      return read_any(st, inst.src[0]) | read_any(st, inst.src[2]) | read_any(st, inst.src[3]);
    default: return all_sources(inst, st);
  }
}

bool read_only_base(const Instruction& inst, const RegisterState& st) {
  const Operand& base = inst.src[0];
  return base.kind == OperandKind::Scalar && base.reg < reg::kScalarFileSize && st.read_only_pointer[base.reg];
}

// What a loaded value depends on besides its address: whether its memory may
// change while the workgroup's waves read it.
Sources memory_sources(const Instruction& inst, const SectionWrites& writes, const RegisterState& st) {
  const uint32_t f = inst.op->flags;
  if (f & kAtomic) return kMemory;  // the old value another wave's atomic left
  if (mnemonic_is(inst, "s_memtime") || mnemonic_is(inst, "s_memrealtime")) return kWaveId;
  switch (inst.format) {
    case Format::SCRATCH: return kWaveId;  // each wave's private memory
    case Format::DS: return (inst.gds ? writes.global : writes.lds) ? kMemory : 0;
    case Format::SMEM:
      if (mnemonic_starts(inst, "s_scratch")) return kWaveId;
      return writes.global && !read_only_base(inst, st) ? kMemory : 0;
    case Format::FLAT: return writes.global || writes.lds ? kMemory : 0;
    default: return writes.global ? kMemory : 0;
  }
}

Effect memory_op(const Instruction& inst, const SectionWrites& writes, RegisterState& st, Sources control) {
  const Sources address = address_sources(inst, st);
  Effect e;
  if ((inst.op->flags & kCrossLane)) {  // ds_swizzle, ds_permute: lanes trade values, no memory
    e = write_all(inst, st, all_sources(inst, st) | exec_sources(st), control);
  } else if (inst.num_dst && !inst.lds) {
    e = write_all(inst, st, address | memory_sources(inst, writes, st), control);
  }
  e.address = address;
  return e;
}

}  // namespace

bool RegisterState::join(const RegisterState& o) {
  if (!o.reached) return false;
  if (!reached) return *this = o, true;
  bool changed = false;
  auto merge = [&](std::vector<Bits>& a, const std::vector<Bits>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      const Bits m = a[i] | b[i];
      if (m != a[i]) a[i] = m, changed = true;
    }
  };
  merge(scalar, o.scalar);
  merge(vector, o.vector);
  const Sources s = scc | o.scc;
  const bool full = exec_full && o.exec_full;
  const auto copies = full_exec_copy & o.full_exec_copy;
  const auto pointers = read_only_pointer & o.read_only_pointer;
  changed = changed || s != scc || full != exec_full || copies != full_exec_copy || pointers != read_only_pointer;
  scc = s, exec_full = full, full_exec_copy = copies, read_only_pointer = pointers;
  return changed;
}

RegisterState entry_state(const KernelDescriptor& kd) {
  RegisterState st;
  st.reached = true;
  unsigned s = 0;
  auto pointer = [&](bool enabled, bool read_only) {
    if (!enabled) return;
    st.read_only_pointer[s] = st.read_only_pointer[s + 1] = read_only;
    s += 2;
  };
  if (kd.enable_private_segment_buffer) s += 4;  // the same descriptor for every wave
  pointer(kd.enable_dispatch_ptr, true);
  pointer(kd.enable_queue_ptr, false);
  pointer(kd.enable_kernarg_segment_ptr, true);
  pointer(kd.enable_dispatch_id, false);
  if (kd.enable_flat_scratch_init) st.scalar[s] = st.scalar[s + 1] = Bits::all(kWaveId), s += 2;
  // Workgroup IDs and info follow the user SGPRs and are the same for every
  // wave; the private segment wave offset is not.
  s = kd.user_sgpr_count;
  for (bool id : kd.enable_workgroup_id) s += id;
  s += kd.enable_workgroup_info;
  if (kd.enable_private_segment && s < reg::kSgprCount) st.scalar[s] = Bits::all(kWaveId);
  // v0: work-item x in bits 9:0, y in 19:10, z in 29:20.
  Bits& v0 = st.vector[0];
  for (unsigned i = 0; i < 30; ++i) v0.bit[i] = i < 6 ? Sources(kItemXLow) : i < 10 ? Sources(kItemX6 << (i - 6)) : i < 20 ? Sources(kItemY) : Sources(kItemZ);
  return st;
}

Effect transfer(const Instruction& inst, Sources control, const SectionWrites& writes, RegisterState& st) {
  if (is_call(inst)) return call_clobbers(st);
  switch (inst.format) {
    case Format::SOPP: return Effect{};
    case Format::SOP1: case Format::SOP2: case Format::SOPK: case Format::SOPC: return scalar_alu(inst, st, control);
    case Format::VOP1: case Format::VOP2: case Format::VOPC: case Format::VOP3: case Format::VOP3P:
      return vector_alu(inst, st, control);
    default: return memory_op(inst, writes, st, control);
  }
}

Sources branch_condition(const Instruction& inst, const RegisterState& st) {
  const char* m = inst.op->mnemonic;
  if (std::strstr(m, "_scc")) return st.scc;
  if (std::strstr(m, "_vcc")) return mask_sources(st, kVccLo);
  if (std::strstr(m, "_exec")) return exec_sources(st);
  return kWaveId;  // the debugger branches
}

}  // namespace tessera::analysis
