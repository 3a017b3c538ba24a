// Decoder: vector ALU formats (VOP1, VOP2, VOPC with their SDWA and DPP
// extensions, VOP3/VOP3b, VOP3P incl. MFMA).
#include <cstring>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/op_table.h"

namespace tessera::isa::detail {
namespace {

constexpr uint32_t bits(uint32_t w, unsigned hi, unsigned lo) { return (w >> lo) & ((1u << (hi - lo + 1)) - 1); }

constexpr unsigned kSdwaCode = 0xf9, kDppCode = 0xfa;

bool set_op(DecodeState& s, Format table, unsigned opcode, Format encoding) {
  Instruction& in = *s.inst;
  in.op = find_op(table, opcode);
  in.format = encoding;
  if (!in.op) return false;
  in.num_dst = in.op->num_dst;
  in.num_src = in.op->num_src;
  return true;
}

Operand vcc_operand(DecodeState& s) { return scalar_operand(s, reg::kVccLo, DataType::B64); }

// The vdst field: a VGPR, or an SGPR for ops whose result is scalar.
Operand vdst_operand(DecodeState& s, unsigned field) {
  const OpInfo& op = *s.inst->op;
  if (op.flags & kScalarDst) return scalar_operand(s, field, op.dst_type);
  return vector_operand(s, field, op.dst_type, op.flags & kAccDst);
}

Operand src0_vgpr_or_code(DecodeState& s, unsigned code) {
  const OpInfo& op = *s.inst->op;
  // The AGPR source of v_accvgpr_read/mov is the low 8 bits of the field, whatever bit 8 says.
  if (op.flags & kAccSrc) return vector_operand(s, code & 0xff, op.src_type[0], true);
  return source_operand(s, code, op.src_type[0]);
}

// SDWA second dword. `src0` and `vsrc1` are replaced when the S0/S1 bits say
// they name SGPRs or constants.
void decode_sdwa(DecodeState& s, bool vopc) {
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  const uint32_t w = s.words[1];
  in.ext = ExtKind::Sdwa;
  in.size = 8;
  in.words[1] = w;
  const unsigned src0 = bits(w, 7, 0);
  in.src[0] = bits(w, 23, 23) ? source_operand(s, src0, op.src_type[0]) : vector_operand(s, src0, op.src_type[0]);
  if (in.num_src > 1 && bits(w, 31, 31) && in.src[1].kind == OperandKind::Vgpr)
    in.src[1] = source_operand(s, in.src[1].reg, op.src_type[1]);
  in.src_sel[0] = static_cast<uint8_t>(bits(w, 18, 16));
  in.src_sext[0] = bits(w, 19, 19);
  in.neg |= static_cast<uint8_t>(bits(w, 20, 20));
  in.abs |= static_cast<uint8_t>(bits(w, 21, 21));
  in.src_sel[1] = static_cast<uint8_t>(bits(w, 26, 24));
  in.src_sext[1] = bits(w, 27, 27);
  in.neg |= static_cast<uint8_t>(bits(w, 28, 28) << 1);
  in.abs |= static_cast<uint8_t>(bits(w, 29, 29) << 1);
  if (vopc) {
    in.dst[0] = bits(w, 15, 15) ? scalar_operand(s, bits(w, 14, 8), DataType::B64) : vcc_operand(s);
  } else {
    in.dst_sel = static_cast<uint8_t>(bits(w, 10, 8));
    in.dst_unused = static_cast<uint8_t>(bits(w, 12, 11));
    in.clamp = bits(w, 13, 13);
    in.omod = static_cast<uint8_t>(bits(w, 15, 14));
  }
}

void decode_dpp(DecodeState& s) {
  Instruction& in = *s.inst;
  const uint32_t w = s.words[1];
  in.ext = ExtKind::Dpp;
  in.size = 8;
  in.words[1] = w;
  in.src[0] = vector_operand(s, bits(w, 7, 0), in.op->src_type[0], in.op->flags & kAccSrc);
  in.dpp_ctrl = static_cast<uint16_t>(bits(w, 16, 8));
  in.bound_ctrl = bits(w, 19, 19);
  in.neg = static_cast<uint8_t>(bits(w, 20, 20) | (bits(w, 22, 22) << 1));
  in.abs = static_cast<uint8_t>(bits(w, 21, 21) | (bits(w, 23, 23) << 1));
  in.bank_mask = static_cast<uint8_t>(bits(w, 27, 24));
  in.row_mask = static_cast<uint8_t>(bits(w, 31, 28));
}

// src0 of a 32-bit VOP encoding: SDWA/DPP escape codes pull in the second
// dword, which must be there.
bool decode_src0_e32(DecodeState& s, unsigned code, bool vopc) {
  if (code == kSdwaCode || code == kDppCode) {
    if (s.available < 2) return false;
    if (code == kSdwaCode) decode_sdwa(s, vopc);
    else decode_dpp(s);
    return true;
  }
  s.inst->src[0] = src0_vgpr_or_code(s, code);
  return true;
}

// Implicit and derived operands shared by the e32 and e64 forms.
void finish_vop(DecodeState& s) {
  Instruction& in = *s.inst;
  if (in.op->flags & kReadsDst) {
    in.src[2] = in.dst[0];
    in.num_src = 3;
  }
}

}  // namespace

bool decode_vop1(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::VOP1, bits(w, 16, 9), Format::VOP1)) return false;
  Instruction& in = *s.inst;
  if (in.num_dst) in.dst[0] = vdst_operand(s, bits(w, 24, 17));
  constexpr unsigned kSwap = 0x51;  // v_swap_b32
  if (in.op->opcode == kSwap) {
    // Both operands are VGPRs (bit 8 of src0 is ignored), both read and written.
    in.src[0] = vector_operand(s, bits(w, 7, 0), in.op->src_type[0]);
    in.num_dst = 2;
    in.dst[1] = in.src[0];
    in.num_src = 2;
    in.src[1] = in.dst[0];
    return true;
  }
  if (in.op->flags & kAccSrc) {
    in.src[0] = src0_vgpr_or_code(s, bits(w, 8, 0));  // an AGPR: no SDWA/DPP escape codes here
    return true;
  }
  if (in.num_src && !decode_src0_e32(s, bits(w, 8, 0), false)) return false;
  return true;
}

bool decode_vop2(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::VOP2, bits(w, 30, 25), Format::VOP2)) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.dst[0] = vdst_operand(s, bits(w, 24, 17));
  if (in.num_dst > 1) in.dst[1] = vcc_operand(s);
  const unsigned vsrc1 = bits(w, 16, 9);
  if (op.flags & kLiteralK) {
    // v_madmk: src0, K, vsrc1; v_madak: src0, vsrc1, K.
    const bool madmk = std::strstr(op.mnemonic, "madmk") != nullptr;
    in.src[0] = source_operand(s, bits(w, 8, 0), op.src_type[0]);
    if (s.available < 2) return false;
    const uint32_t k = s.words[1];
    in.literal = in.words[1] = k;
    in.size = 8;
    Operand kop;
    kop.kind = OperandKind::Constant;
    kop.code = reg::kLiteral;
    kop.literal = true;
    kop.dwords = 1;
    kop.value = literal_value(k, op.src_type[1]);
    in.src[madmk ? 1 : 2] = kop;
    in.src[madmk ? 2 : 1] = vector_operand(s, vsrc1, op.src_type[1]);
    return true;
  }
  in.src[1] = vector_operand(s, vsrc1, op.src_type[1]);
  if (!decode_src0_e32(s, bits(w, 8, 0), false)) return false;
  if (in.num_src == 3 && !(op.flags & kReadsDst)) in.src[2] = vcc_operand(s);  // v_cndmask, v_addc, v_subb
  finish_vop(s);
  return true;
}

bool decode_vopc(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::VOPC, bits(w, 24, 17), Format::VOPC)) return false;
  Instruction& in = *s.inst;
  in.dst[0] = vcc_operand(s);
  in.src[1] = vector_operand(s, bits(w, 16, 9), in.op->src_type[1]);
  return decode_src0_e32(s, bits(w, 8, 0), true);
}

bool decode_vop3(DecodeState& s) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  if (!set_op(s, Format::VOP3, bits(w0, 25, 16), Format::VOP3)) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  const bool vop3b = op.num_dst == 2;
  const unsigned vdst = bits(w0, 7, 0);
  if (op.format == Format::VOPC) {
    in.dst[0] = scalar_operand(s, vdst, DataType::B64);
  } else if (op.num_dst) {
    in.dst[0] = vdst_operand(s, vdst);
  }
  if (vop3b) {
    in.dst[1] = scalar_operand(s, bits(w0, 14, 8), DataType::B64);
  } else {
    in.abs = static_cast<uint8_t>(bits(w0, 10, 8));
    in.op_sel = static_cast<uint8_t>(bits(w0, 14, 11));
  }
  in.clamp = bits(w0, 15, 15);
  in.omod = static_cast<uint8_t>(bits(w1, 28, 27));
  in.neg = static_cast<uint8_t>(bits(w1, 31, 29));
  const unsigned fields[3] = {bits(w1, 8, 0), bits(w1, 17, 9), bits(w1, 26, 18)};
  const unsigned explicit_srcs = (op.flags & kReadsDst) ? 2 : op.num_src;
  for (unsigned i = 0; i < explicit_srcs && i < 3; ++i) {
    in.src[i] = i == 0 ? src0_vgpr_or_code(s, fields[0]) : source_operand(s, fields[i], op.src_type[i]);
    if (in.src[i].literal) s.bad = true;  // VOP3 has no literal on gfx90a
  }
  finish_vop(s);
  return true;
}

bool decode_vop3p(DecodeState& s) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  if (!set_op(s, Format::VOP3P, bits(w0, 22, 16), Format::VOP3P)) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  const unsigned fields[3] = {bits(w1, 8, 0), bits(w1, 17, 9), bits(w1, 26, 18)};
  if (op.flags & kMfma) {
    // acc_cd puts C and D in AGPRs; acc[0]/acc[1] do so for A and B.
    const bool acc_cd = bits(w0, 15, 15);
    in.cbsz = static_cast<uint8_t>(bits(w0, 10, 8));
    in.abid = static_cast<uint8_t>(bits(w0, 14, 11));
    in.blgp = static_cast<uint8_t>(bits(w1, 31, 29));
    in.dst[0] = vector_operand(s, bits(w0, 7, 0), op.dst_type, acc_cd);
    for (unsigned i = 0; i < 3; ++i) {
      const bool acc = i == 2 ? acc_cd : bits(w1, 27 + i, 27 + i);
      // A scalar C wider than the widest SGPR tuple (16) is read as one broadcast dword.
      const bool narrow = i == 2 && fields[i] < reg::kVgprBase && type_dwords(op.src_type[i]) > 16;
      const DataType t = narrow ? DataType::B32 : op.src_type[i];
      in.src[i] = fields[i] >= reg::kVgprBase ? vector_operand(s, fields[i] - reg::kVgprBase, t, acc)
                                              : source_operand(s, fields[i], t);
      if (in.src[i].literal) s.bad = true;
    }
    return true;
  }
  in.dst[0] = vdst_operand(s, bits(w0, 7, 0));
  in.neg_hi = static_cast<uint8_t>(bits(w0, 10, 8));
  in.op_sel = static_cast<uint8_t>(bits(w0, 13, 11));
  in.op_sel_hi = static_cast<uint8_t>(bits(w1, 28, 27) | (bits(w0, 14, 14) << 2));
  in.clamp = bits(w0, 15, 15);
  in.neg = static_cast<uint8_t>(bits(w1, 31, 29));
  for (unsigned i = 0; i < op.num_src && i < 3; ++i) {
    in.src[i] = i == 0 ? src0_vgpr_or_code(s, fields[0]) : source_operand(s, fields[i], op.src_type[i]);
    if (in.src[i].literal) s.bad = true;
  }
  return true;
}

}  // namespace tessera::isa::detail
