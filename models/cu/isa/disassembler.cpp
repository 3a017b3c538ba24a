// The disassembler: one printer per format family. Operand order is the
// canonical order of instruction.h, which is also the order llvm prints.
#include "models/cu/isa/disassembler.h"

#include <cstring>
#include <initializer_list>
#include <unordered_set>

#include "models/cu/isa/disasm_fields.h"
#include "models/cu/isa/hex.h"
#include "models/cu/isa/op_table.h"

namespace tessera::isa {
namespace {

using namespace disasm;

// The ops with one of some mnemonics, found once in the op tables. The
// printers ask of every instruction whether it is one of a few special
// cases; comparing mnemonics as strings each time was about a tenth of a
// listing's time under the fuzzer's instrumentation, a lookup by pointer is
// not (decoded instructions point into the tables).
class OpSet {
 public:
  OpSet(std::initializer_list<const char*> names) {
    for (const OpInfo* op : all_ops())
      for (const char* name : names)
        if (!std::strcmp(op->mnemonic, name)) ops_.insert(op);
  }
  // The ops whose mnemonic starts with one of `prefixes`.
  static OpSet starting_with(std::initializer_list<const char*> prefixes) {
    OpSet set{};
    for (const OpInfo* op : all_ops())
      for (const char* prefix : prefixes)
        if (!std::strncmp(op->mnemonic, prefix, std::strlen(prefix))) set.ops_.insert(op);
    return set;
  }
  bool contains(const OpInfo& op) const { return ops_.count(&op) != 0; }

 private:
  std::unordered_set<const OpInfo*> ops_;
};

unsigned constant_width_bits(DataType t) {
  switch (t) {
    case DataType::B16: case DataType::I16: case DataType::U16: case DataType::F16: case DataType::BF16:
    case DataType::V2F16: case DataType::V2I16: case DataType::V2U16: case DataType::V2BF16:
      return 16;
    case DataType::B64: case DataType::I64: case DataType::U64: case DataType::F64:
      return 64;
    default:
      return 32;
  }
}

std::string special_name(unsigned code) {
  switch (code) {
    case reg::kVccz: return "src_vccz";
    case reg::kExecz: return "src_execz";
    case reg::kScc: return "src_scc";
    case reg::kLdsDirect: return "src_lds_direct";
    case 235: return "src_shared_base";
    case 236: return "src_shared_limit";
    case 237: return "src_private_base";
    case 238: return "src_private_limit";
    case 239: return "src_pops_exiting_wave_id";
    default: return "?";
  }
}

std::string operand_text(const Instruction& in, const Operand& o, DataType type) {
  switch (o.kind) {
    case OperandKind::Scalar: return scalar_register_name(o.reg, o.dwords);
    case OperandKind::Vgpr: return vector_register_name('v', o.reg, o.dwords);
    case OperandKind::Agpr: return vector_register_name('a', o.reg, o.dwords);
    case OperandKind::Special: return special_name(o.reg);
    case OperandKind::Constant: {
      const unsigned width = constant_width_bits(type);
      const uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
      // llvm keeps a 32-bit literal whole, except that 16-bit operands see its low half.
      const uint64_t imm = o.literal ? (width == 16 ? in.literal & 0xffff : in.literal) : o.value & mask;
      // 16-bit integer operands never print float names: f16 bits in hex.
      const bool int16 = type == DataType::B16 || type == DataType::I16 || type == DataType::U16 ||
                         type == DataType::V2I16 || type == DataType::V2U16;
      if (int16) {
        const auto low = static_cast<int16_t>(static_cast<uint16_t>(imm));
        if ((imm >> 16) == 0 && low >= -16 && low <= 64) return std::to_string(low);
        return hex(imm);
      }
      return immediate_text(imm, width);
    }
    case OperandKind::None: break;
  }
  return "off";
}

std::string with_modifiers(std::string text, bool neg, bool abs, bool sext = false, bool constant = false) {
  if (sext) text = "sext(" + text + ")";
  if (abs) text = "|" + text + "|";
  // A negated constant without abs is spelled neg(...), so "-1" stays the constant -1.
  if (neg) text = constant && !abs ? "neg(" + text + ")" : "-" + text;
  return text;
}

bool is_float(DataType t) {
  return t == DataType::F16 || t == DataType::F32 || t == DataType::F64 || t == DataType::BF16;
}

// Source modifiers as llvm prints them: an instruction with a floating-point
// source takes abs/neg on its float sources and sext (the neg bit) on its
// integer ones; one without takes none (VOP3 v_cndmask_b32 aside, which takes
// abs/neg on both data sources). SDWA always has them: abs/neg on float
// sources, sext on integer ones.
struct SourceMods {
  bool neg = false, abs = false, sext = false;
};

SourceMods source_mods(const Instruction& in, unsigned i) {
  const OpInfo& op = *in.op;
  SourceMods m;
  const bool neg = (in.neg >> i) & 1, abs = (in.abs >> i) & 1;
  if (in.ext == ExtKind::Sdwa) {
    if (i >= 2) return m;
    if (is_float(op.src_type[i])) m.neg = neg, m.abs = abs;
    else m.sext = in.src_sext[i];
    return m;
  }
  const bool vop3 = in.format == Format::VOP3;
  if (!(vop3 ? i < 3 : i < 2 && in.ext == ExtKind::Dpp)) return m;
  static const OpSet kCndmask{"v_cndmask_b32"}, kDot2c{"v_dot2c_f32_f16"};
  if (vop3 && kCndmask.contains(op)) {
    if (i < 2) m.neg = neg, m.abs = abs;
    return m;
  }
  const bool dot2c = kDot2c.contains(op);
  bool any_float = dot2c;
  for (unsigned k = 0; k < op.num_src && k < 3; ++k) any_float = any_float || is_float(op.src_type[k]);
  if (!any_float) return m;
  if (is_float(op.src_type[i]) || dot2c) m.neg = neg, m.abs = abs;
  else m.sext = neg;
  return m;
}

// VOP3 op_sel exists only on the VOP3-only instructions with 16-bit operands.
bool has_vop3_op_sel(const OpInfo& op) {
  if (op.format != Format::VOP3 || std::strstr(op.mnemonic, "_legacy_")) return false;
  for (DataType t : op.src_type)
    if (t == DataType::F16 || t == DataType::I16 || t == DataType::U16 || t == DataType::B16) return true;
  return op.dst_type == DataType::F16 || op.dst_type == DataType::I16 || op.dst_type == DataType::U16;
}

void append_list(std::string& out, const char* name, unsigned bits, unsigned count) {
  out += ' ';
  out += name;
  out += ":[";
  for (unsigned i = 0; i < count; ++i) {
    if (i) out += ',';
    out += ((bits >> i) & 1) ? '1' : '0';
  }
  out += ']';
}

// An instruction's text, started with its mnemonic in the caller's buffer
// (a listing reuses one for every line, so that a line costs no allocation).
void begin_text(std::string& out, const char* mnemonic) {
  out.clear();
  out += mnemonic;
}

// Appends an instruction's operands to its text as they come: " a, b, c".
class OperandList {
 public:
  explicit OperandList(std::string& out) : out_(out) {}
  void add(const std::string& text) {
    out_ += first_ ? " " : ", ";
    out_ += text;
    first_ = false;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

// ---- scalar ----------------------------------------------------------------

void sopp_text(const Instruction& in, std::string& out) {
  const char* m = in.op->mnemonic;
  const uint16_t imm = static_cast<uint16_t>(in.simm16);
  const OpInfo& op = *in.op;
  begin_text(out, m);
  static const OpSet kWaitcnt{"s_waitcnt"}, kSendmsg{"s_sendmsg", "s_sendmsghalt"},
      kGprIdxMode{"s_set_gpr_idx_mode"}, kEndpgm{"s_endpgm"},
      kNoOperand{"s_barrier",      "s_wakeup",          "s_icache_inv",            "s_ttracedata",
                 "s_endpgm_saved", "s_set_gpr_idx_off", "s_endpgm_ordered_ps_done"},
      kBranches = OpSet::starting_with({"s_branch", "s_cbranch"});
  if (kWaitcnt.contains(op)) {
    out += " " + waitcnt_text(imm);
    return;
  }
  if (kSendmsg.contains(op)) {
    out += " " + sendmsg_text(imm);
    return;
  }
  if (kGprIdxMode.contains(op)) {
    out += " " + (imm <= 0xf ? gpr_idx_mode_text(imm) : hex(imm));
    return;
  }
  if (kNoOperand.contains(op)) return;
  const bool endpgm = kEndpgm.contains(op);
  if (endpgm && imm == 0) return;
  // Branch offsets and s_endpgm print the raw unsigned field in decimal (65535
  // is -1 dword); other immediates in decimal up to 64, in hex above.
  const bool decimal = kBranches.contains(op) || endpgm || imm <= 64;
  out += " " + (decimal ? std::to_string(imm) : hex(imm));
}

void sopk_text(const Instruction& in, std::string& out) {
  const char* m = in.op->mnemonic;
  const uint16_t imm = static_cast<uint16_t>(in.simm16);
  const std::string sdst = scalar_register_name((in.words[0] >> 16) & 0x7f, in.op->num_dst ? type_dwords(in.op->dst_type)
                                                                                              : type_dwords(in.op->src_type[0]));
  begin_text(out, m);
  if (!std::strcmp(m, "s_getreg_b32")) {
    out += " " + sdst + ", " + hwreg_text(imm);
    return;
  }
  if (!std::strcmp(m, "s_setreg_b32")) {
    out += " " + hwreg_text(imm) + ", " + sdst;
    return;
  }
  if (!std::strcmp(m, "s_setreg_imm32_b32")) {
    out += " " + hwreg_text(imm) + ", " + immediate_text(in.literal, 32);
    return;
  }
  if (!std::strcmp(m, "s_call_b64") || !std::strcmp(m, "s_cbranch_i_fork")) {
    out += " " + sdst + ", " + std::to_string(imm);
    return;
  }
  out += " " + sdst + ", " + hex(imm);
}

void salu_text(const Instruction& in, std::string& out) {
  begin_text(out, in.op->mnemonic);
  OperandList ops(out);
  for (unsigned i = 0; i < in.num_dst; ++i) ops.add(operand_text(in, in.dst[i], in.op->dst_type));
  for (unsigned i = 0; i < in.num_src; ++i) ops.add(operand_text(in, in.src[i], in.op->src_type[i]));
  static const OpSet kGprIdxOn{"s_set_gpr_idx_on"};
  if (kGprIdxOn.contains(*in.op)) {
    const auto mode = static_cast<uint16_t>(in.simm16);
    ops.add(mode <= 0xf ? gpr_idx_mode_text(mode) : hex(mode));
  }
}

void smem_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  OperandList ops(out);
  if (in.num_dst && !(op.flags & kAtomic)) ops.add(operand_text(in, in.dst[0], op.dst_type));
  else if (op.num_src >= 2 && in.src[1].kind != OperandKind::None) ops.add(operand_text(in, in.src[1], op.src_type[1]));
  else if (!std::strncmp(op.mnemonic, "s_atc_probe", 11)) ops.add(immediate_text((in.words[0] >> 6) & 0x7f, 32));
  if (in.src[0].kind != OperandKind::None) {
    ops.add(operand_text(in, in.src[0], op.src_type[0]));
    const bool imm = (in.words[0] >> 17) & 1;
    if (imm) {
      const auto magnitude = static_cast<unsigned>(in.offset < 0 ? -in.offset : in.offset);
      ops.add((in.offset < 0 ? "-" : "") + hex(magnitude));
    } else {
      ops.add(operand_text(in, in.src[2], DataType::B32));
    }
  }
  if (in.glc && (op.flags & (kLoad | kStore)) && op.num_src > 0) out += " glc";
}

// ---- vector ALU ------------------------------------------------------------

bool no_e32_suffix(const OpInfo& op) {
  static const OpSet kNames{"v_nop",       "v_clrexcp",   "v_readfirstlane_b32", "v_swap_b32", "v_accvgpr_mov_b32",
                            "v_madmk_f32", "v_madak_f32", "v_madmk_f16",         "v_madak_f16"};
  return kNames.contains(op);
}

// The suffix llvm gives a vector ALU mnemonic for its encoding.
const char* vop_suffix(const Instruction& in) {
  if (in.ext == ExtKind::Sdwa) return "_sdwa";
  if (in.ext == ExtKind::Dpp) return "_dpp";
  const Format origin = in.op->format;
  const bool short_origin = origin == Format::VOP1 || origin == Format::VOP2 || origin == Format::VOPC;
  if (in.format == Format::VOP3 && short_origin) return "_e64";
  if (in.format != Format::VOP3 && short_origin && !no_e32_suffix(*in.op)) return "_e32";
  return "";
}

unsigned printed_sources(const Instruction& in) {
  return (in.op->flags & kReadsDst) ? 2 : in.num_src;
}

void valu_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  out += vop_suffix(in);
  OperandList ops(out);
  static const OpSet kSwap{"v_swap_b32"};
  const bool swap = kSwap.contains(op);
  const unsigned ndst = swap ? 1 : in.num_dst;
  for (unsigned i = 0; i < ndst; ++i) ops.add(operand_text(in, in.dst[i], i == 0 ? op.dst_type : DataType::B64));
  const unsigned nsrc = swap ? 1 : printed_sources(in);
  const bool vop3 = in.format == Format::VOP3;
  const bool literal_k = op.flags & kLiteralK, madmk = literal_k && std::strstr(op.mnemonic, "madmk");
  for (unsigned i = 0; i < nsrc; ++i) {
    // v_madmk/v_madak print K in hex, never as a float name.
    const bool k = literal_k && (i == (madmk ? 1u : 2u) || (madmk && in.src[i].literal));
    std::string t = k ? hex(in.literal) : operand_text(in, in.src[i], op.src_type[i]);
    const SourceMods m = source_mods(in, i);
    if (m.neg || m.abs || m.sext)
      t = with_modifiers(std::move(t), m.neg, m.abs, m.sext, in.src[i].kind == OperandKind::Constant);
    ops.add(t);
  }
  if (vop3) {
    if (in.op_sel && has_vop3_op_sel(op)) append_list(out, "op_sel", in.op_sel, nsrc + 1);
    if (in.clamp) out += " clamp";
    static const char* const kOmod[4] = {"", " mul:2", " mul:4", " div:2"};
    out += kOmod[in.omod & 3];
  } else if (in.ext == ExtKind::Sdwa) {
    if (in.clamp) out += " clamp";
    static const char* const kOmod[4] = {"", " mul:2", " mul:4", " div:2"};
    out += kOmod[in.omod & 3];
    if (op.format != Format::VOPC) {
      out += std::string(" dst_sel:") + sdwa_sel_name(in.dst_sel);
      out += std::string(" dst_unused:") + sdwa_unused_name(in.dst_unused);
    }
    out += std::string(" src0_sel:") + sdwa_sel_name(in.src_sel[0]);
    if (nsrc > 1) out += std::string(" src1_sel:") + sdwa_sel_name(in.src_sel[1]);
  } else if (in.ext == ExtKind::Dpp) {
    // 64-bit DPP (v_fmac_f64_dpp) has only the row_newbcast controls.
    const bool dpp64 = type_dwords(op.src_type[0]) == 2;
    if (dpp64 && (in.dpp_ctrl < 0x150 || in.dpp_ctrl > 0x15f)) out += "  /* 64 bit dpp only supports row_newbcast */";
    else out += " " + dpp_ctrl_text(in.dpp_ctrl);
    out += " row_mask:" + hex(in.row_mask) + " bank_mask:" + hex(in.bank_mask);
    if (in.bound_ctrl) out += " bound_ctrl:1";
  }
}

void vop3p_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  OperandList ops(out);
  ops.add(operand_text(in, in.dst[0], op.dst_type));
  const bool mix = !std::strncmp(op.mnemonic, "v_fma_mix", 9);
  for (unsigned i = 0; i < in.num_src; ++i) {
    std::string t = operand_text(in, in.src[i], op.src_type[i]);
    if (mix)
      t = with_modifiers(std::move(t), (in.neg >> i) & 1, (in.neg_hi >> i) & 1, false,
                         in.src[i].kind == OperandKind::Constant);
    ops.add(t);
  }
  if (op.flags & kMfma) {
    if (in.cbsz) out += " cbsz:" + std::to_string(in.cbsz);
    if (in.abid) out += " abid:" + std::to_string(in.abid);
    if (in.blgp) out += " blgp:" + std::to_string(in.blgp);
    return;
  }
  if (op.flags & (kAccDst | kAccSrc)) return;
  const unsigned n = in.num_src;
  const unsigned all = (1u << n) - 1;
  if (in.op_sel & all) append_list(out, "op_sel", in.op_sel, n);
  if (mix) {
    if (in.op_sel_hi & all) append_list(out, "op_sel_hi", in.op_sel_hi, n);
  } else {
    if ((in.op_sel_hi & all) != all) append_list(out, "op_sel_hi", in.op_sel_hi, n);
    if (in.neg & all) append_list(out, "neg_lo", in.neg, n);
    if (in.neg_hi & all) append_list(out, "neg_hi", in.neg_hi, n);
  }
  if (in.clamp) out += " clamp";
}

// ---- memory ----------------------------------------------------------------

void ds_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  OperandList ops(out);
  if (in.num_dst) ops.add(operand_text(in, in.dst[0], op.dst_type));
  for (unsigned i = 0; i < in.num_src; ++i)
    if (in.src[i].kind != OperandKind::None) ops.add(operand_text(in, in.src[i], op.src_type[i]));
  const bool two = std::strstr(op.mnemonic, "2_") || std::strstr(op.mnemonic, "2st64");
  if (two) {
    if (in.offset) out += " offset0:" + std::to_string(in.offset);
    if (in.offset1) out += " offset1:" + std::to_string(in.offset1);
  } else if (in.offset && !std::strcmp(op.mnemonic, "ds_swizzle_b32")) {
    out += " offset:" + swizzle_text(static_cast<uint16_t>(in.offset));
  } else if (in.offset) {
    out += " offset:" + std::to_string(in.offset);
  }
  if (in.gds) out += " gds";
}

void flat_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  OperandList ops(out);
  if (in.num_dst) ops.add(operand_text(in, in.dst[0], op.dst_type));
  ops.add(operand_text(in, in.src[0], DataType::B64));
  if (op.src_type[1] != DataType::None) ops.add(operand_text(in, in.src[1], op.src_type[1]));
  if (in.format != Format::FLAT) ops.add(operand_text(in, in.src[2], op.src_type[2]));
  if (in.offset) out += " offset:" + std::to_string(in.offset);
  if (in.glc) out += " glc";
  if (in.slc) out += " slc";
  if (in.scc) out += " scc";
  if (in.lds) out += " lds";
}

void buffer_text(const Instruction& in, std::string& out) {
  const OpInfo& op = *in.op;
  begin_text(out, op.mnemonic);
  if (op.num_src == 0) return;
  OperandList ops(out);
  const bool lds_only = op.src_type[0] == DataType::None;  // buffer_store_lds_dword: no VGPR operands
  // Atomics return into their data registers: llvm prints the data operand.
  const Operand& vdata = in.num_dst && !(op.flags & kAtomic) ? in.dst[0] : in.src[1];
  if (!lds_only) {
    ops.add(operand_text(in, vdata, DataType::B32));
    ops.add(operand_text(in, in.src[0], DataType::B32));
  }
  ops.add(operand_text(in, in.src[2], DataType::B128));
  ops.add(operand_text(in, in.src[3], DataType::B32));
  if (in.format == Format::MTBUF) {
    const std::string fmt = mtbuf_format_text(in.dfmt, in.nfmt);
    if (!fmt.empty()) out += " " + fmt;
  }
  if (in.idxen) out += " idxen";
  if (in.offen) out += " offen";
  if (in.offset) out += " offset:" + std::to_string(in.offset);
  if (in.lds && lds_only) out += " lds";
  if (in.glc) out += " glc";
  if (in.slc) out += " slc";
  if (in.scc) out += " scc";
  if (in.lds && !lds_only) out += " lds";
}

}  // namespace

void disassemble(const Instruction& in, std::string& out) {
  if (!in.op) {
    out = "<unknown>";
    return;
  }
  switch (in.format) {
    case Format::SOPP: return sopp_text(in, out);
    case Format::SOPK: return sopk_text(in, out);
    case Format::SOP1: case Format::SOP2: case Format::SOPC: return salu_text(in, out);
    case Format::SMEM: return smem_text(in, out);
    case Format::VOP1: case Format::VOP2: case Format::VOPC: case Format::VOP3: return valu_text(in, out);
    case Format::VOP3P: return vop3p_text(in, out);
    case Format::DS: return ds_text(in, out);
    case Format::FLAT: case Format::GLOBAL: case Format::SCRATCH: return flat_text(in, out);
    case Format::MUBUF: case Format::MTBUF: return buffer_text(in, out);
    case Format::Unknown: break;
  }
  out = "<unknown>";
}

std::string disassemble(const Instruction& in) {
  std::string out;
  out.reserve(64);  // most lines are 20 to 60 characters
  disassemble(in, out);
  return out;
}

}  // namespace tessera::isa
