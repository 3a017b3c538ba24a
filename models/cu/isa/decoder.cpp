// Decoder: format detection, operand resolution, scalar and memory formats.
// The vector ALU formats are in decoder_vector.cpp.
#include "models/cu/isa/decoder.h"


#include "models/cu/isa/op_table.h"

namespace tessera::isa {
namespace {

using detail::DecodeState;

constexpr uint32_t bits(uint32_t w, unsigned hi, unsigned lo) { return (w >> lo) & ((1u << (hi - lo + 1)) - 1); }

enum class Width { k16, k32, k64 };

Width constant_width(DataType t) {
  switch (t) {
    case DataType::B16: case DataType::I16: case DataType::U16: case DataType::F16: case DataType::BF16:
    case DataType::V2F16: case DataType::V2I16: case DataType::V2U16: case DataType::V2BF16:
      return Width::k16;
    case DataType::B64: case DataType::I64: case DataType::U64: case DataType::F64: case DataType::V2F32:
      return Width::k64;
    default:
      return Width::k32;
  }
}

bool packed16(DataType t) {
  return t == DataType::V2F16 || t == DataType::V2I16 || t == DataType::V2U16 || t == DataType::V2BF16;
}

// 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi) in each width.
constexpr uint16_t kF16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118};
constexpr uint32_t kF32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                              0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
constexpr uint64_t kF64[9] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000,
                              0xbff0000000000000, 0x4000000000000000, 0xc000000000000000,
                              0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882};

}  // namespace

bool inline_constant_value(unsigned code, DataType type, uint64_t* value) {
  uint64_t v;
  const Width w = constant_width(type);
  if (code >= reg::kInlineIntFirst && code <= reg::kInlineIntLast) {
    const int64_t i = code <= 192 ? static_cast<int64_t>(code) - 128 : 192 - static_cast<int64_t>(code);
    v = w == Width::k64 ? static_cast<uint64_t>(i) : w == Width::k32 ? static_cast<uint32_t>(i) : static_cast<uint16_t>(i);
  } else if (code >= reg::kInlineFloatFirst && code <= reg::kInlineFloatLast) {
    const unsigned k = code - reg::kInlineFloatFirst;
    if (type == DataType::BF16 || type == DataType::V2BF16) v = kF32[k] >> 16;
    else v = w == Width::k64 ? kF64[k] : w == Width::k32 ? kF32[k] : kF16[k];
    if (type == DataType::V2F32) v = kF32[k];
  } else {
    return false;
  }
  // Packed operands see the constant in both halves.
  if (packed16(type)) v = (v & 0xffff) | ((v & 0xffff) << 16);
  if (type == DataType::V2F32) v = (v & 0xffffffffu) | ((v & 0xffffffffu) << 32);
  *value = v;
  return true;
}

uint64_t literal_value(uint32_t literal, DataType type) {
  switch (type) {
    case DataType::F64: return static_cast<uint64_t>(literal) << 32;
    case DataType::I64: return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(literal)));
    case DataType::V2F32: return literal | (static_cast<uint64_t>(literal) << 32);
    case DataType::B16: case DataType::I16: case DataType::U16: case DataType::F16: case DataType::BF16:
      return literal & 0xffff;
    default: return literal;
  }
}

namespace detail {

Operand scalar_operand(DecodeState& s, unsigned code, DataType type) {
  Operand o;
  o.kind = OperandKind::Scalar;
  o.reg = static_cast<uint16_t>(code);
  o.code = static_cast<uint16_t>(code);
  o.dwords = static_cast<uint8_t>(type_dwords(type) ? type_dwords(type) : 1);
  // A tuple that would run past the scalar file (only special registers are up
  // there) is cut at its end: llvm prints it by the special register's name.
  if (code >= reg::kScalarFileSize) {
    s.bad = true;  // e.g. an 8-bit SGPR destination field holding a constant's code
    o.dwords = 1;
  } else if (code + o.dwords > reg::kScalarFileSize) {
    o.dwords = static_cast<uint8_t>(reg::kScalarFileSize - code);
  }
  return o;
}

Operand vector_operand(DecodeState& s, unsigned vgpr, DataType type, bool agpr) {
  Operand o;
  o.kind = agpr ? OperandKind::Agpr : OperandKind::Vgpr;
  o.reg = static_cast<uint16_t>(vgpr);
  o.code = static_cast<uint16_t>(reg::kVgprBase + vgpr);
  o.dwords = static_cast<uint8_t>(type_dwords(type) ? type_dwords(type) : 1);
  if (vgpr + o.dwords > 256) s.bad = true;
  return o;
}

Operand source_operand(DecodeState& s, unsigned code, DataType type) {
  if (code >= reg::kVgprBase) return vector_operand(s, code - reg::kVgprBase, type);
  if (code < reg::kScalarFileSize) return scalar_operand(s, code, type);
  Operand o;
  o.code = static_cast<uint16_t>(code);
  o.dwords = static_cast<uint8_t>(type_dwords(type) ? type_dwords(type) : 1);
  if (inline_constant_value(code, type, &o.value)) {
    o.kind = OperandKind::Constant;
    return o;
  }
  if (code == reg::kLiteral) {
    Instruction& in = *s.inst;
    if (s.available <= s.base_words) {
      s.bad = true;
      return o;
    }
    in.literal = s.words[s.base_words];
    in.words[s.base_words] = in.literal;
    in.size = static_cast<uint8_t>(4 * (s.base_words + 1));
    o.kind = OperandKind::Constant;
    o.literal = true;
    o.value = literal_value(in.literal, type);
    return o;
  }
  // vccz, execz, scc, lds_direct and the aperture registers (src_shared_base...).
  if ((code >= reg::kVccz && code <= reg::kLdsDirect) || (code >= 235 && code <= 239)) {
    o.kind = OperandKind::Special;
    o.reg = static_cast<uint16_t>(code);
    return o;
  }
  s.bad = true;
  return o;
}

}  // namespace detail

namespace {

using detail::scalar_operand;
using detail::source_operand;
using detail::vector_operand;

bool set_op(DecodeState& s, Format f, unsigned opcode) {
  s.inst->op = find_op(f, opcode);
  s.inst->format = f;
  if (!s.inst->op) return false;
  s.inst->num_dst = s.inst->op->num_dst;
  s.inst->num_src = s.inst->op->num_src;
  return true;
}

bool decode_sop2(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::SOP2, bits(w, 29, 23))) return false;
  const OpInfo& op = *s.inst->op;
  if (op.num_dst) s.inst->dst[0] = scalar_operand(s, bits(w, 22, 16), op.dst_type);
  s.inst->src[0] = source_operand(s, bits(w, 7, 0), op.src_type[0]);
  s.inst->src[1] = source_operand(s, bits(w, 15, 8), op.src_type[1]);
  return true;
}

bool decode_sopk(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::SOPK, bits(w, 27, 23))) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.simm16 = static_cast<int16_t>(bits(w, 15, 0));
  const unsigned sdst = bits(w, 22, 16);
  if (op.num_dst) in.dst[0] = scalar_operand(s, sdst, op.dst_type);
  if (op.num_src) in.src[0] = scalar_operand(s, sdst, op.src_type[0]);
  constexpr unsigned kSetregImm32 = 0x14;  // s_setreg_imm32_b32 carries a 32-bit immediate
  if (op.opcode == kSetregImm32) {
    if (s.available < 2) {
      s.bad = true;
      return true;
    }
    in.literal = in.words[1] = s.words[1];
    in.size = 8;
  }
  return true;
}

bool decode_sop1(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::SOP1, bits(w, 15, 8))) return false;
  const OpInfo& op = *s.inst->op;
  if (op.num_dst) s.inst->dst[0] = scalar_operand(s, bits(w, 22, 16), op.dst_type);
  if (op.num_src) s.inst->src[0] = source_operand(s, bits(w, 7, 0), op.src_type[0]);
  return true;
}

bool decode_sopc(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::SOPC, bits(w, 22, 16))) return false;
  const OpInfo& op = *s.inst->op;
  s.inst->src[0] = source_operand(s, bits(w, 7, 0), op.src_type[0]);
  if (op.num_src > 1) s.inst->src[1] = source_operand(s, bits(w, 15, 8), op.src_type[1]);
  else s.inst->simm16 = static_cast<int32_t>(bits(w, 15, 8));  // s_set_gpr_idx_on: the mode bits
  return true;
}

bool decode_sopp(DecodeState& s) {
  const uint32_t w = s.words[0];
  if (!set_op(s, Format::SOPP, bits(w, 22, 16))) return false;
  s.inst->simm16 = static_cast<int16_t>(bits(w, 15, 0));
  return true;
}

bool decode_smem(DecodeState& s) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  if (!set_op(s, Format::SMEM, bits(w0, 25, 18))) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  in.glc = bits(w0, 16, 16);
  in.nv = bits(w0, 15, 15);
  const bool imm = bits(w0, 17, 17), soe = bits(w0, 14, 14);
  const unsigned sdata = bits(w0, 12, 6);
  const unsigned sbase = bits(w0, 5, 0) << 1;
  const bool atomic = op.flags & kAtomic;
  if (atomic && !in.glc) in.num_dst = 0;  // atomics return the old value only with glc
  if (in.num_dst) in.dst[0] = scalar_operand(s, sdata, op.dst_type);
  if (op.num_src >= 1 && op.src_type[0] != DataType::None) in.src[0] = scalar_operand(s, sbase, op.src_type[0]);
  if (op.num_src >= 2 && op.src_type[1] != DataType::None) in.src[1] = scalar_operand(s, sdata, op.src_type[1]);
  if (op.num_src >= 3) {
    if (imm) {
      in.offset = (static_cast<int32_t>(bits(w1, 20, 0)) ^ 0x100000) - 0x100000;  // 21-bit signed
      if (soe) in.src[2] = scalar_operand(s, bits(w1, 31, 25), DataType::B32);
    } else {
      in.src[2] = scalar_operand(s, bits(w1, 6, 0), DataType::B32);
    }
  }
  return true;
}

// DS instructions with two 8-bit offsets: read2/write2/wrxchg2 (and st64) of b32 and b64.
bool two_offsets(unsigned opcode) {
  switch (opcode) {
    case 0x0e: case 0x0f: case 0x2e: case 0x2f: case 0x37: case 0x38:
    case 0x4e: case 0x4f: case 0x6e: case 0x6f: case 0x77: case 0x78:
      return true;
    default:
      return false;
  }
}

bool decode_ds(DecodeState& s) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  if (!set_op(s, Format::DS, bits(w0, 24, 17))) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  in.gds = bits(w0, 16, 16);
  const bool acc = bits(w0, 25, 25);
  if (two_offsets(op.opcode)) {
    in.offset = static_cast<int32_t>(bits(w0, 7, 0));
    in.offset1 = static_cast<uint8_t>(bits(w0, 15, 8));
  } else {
    in.offset = static_cast<int32_t>(bits(w0, 15, 0));
  }
  if (in.num_dst) in.dst[0] = vector_operand(s, bits(w1, 31, 24), op.dst_type, acc);
  const unsigned fields[3] = {bits(w1, 7, 0), bits(w1, 15, 8), bits(w1, 23, 16)};
  for (unsigned i = 0; i < op.num_src && i < 3; ++i)
    if (op.src_type[i] != DataType::None) in.src[i] = vector_operand(s, fields[i], op.src_type[i], acc && i > 0);
  return true;
}

bool decode_flat(DecodeState& s) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  const unsigned seg = bits(w0, 15, 14);
  static constexpr Format kSeg[4] = {Format::FLAT, Format::SCRATCH, Format::GLOBAL, Format::Unknown};
  if (kSeg[seg] == Format::Unknown) return false;
  if (!set_op(s, kSeg[seg], bits(w0, 24, 18))) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  in.glc = bits(w0, 16, 16);
  in.slc = bits(w0, 17, 17);
  in.scc = bits(w0, 25, 25);
  in.lds = bits(w0, 13, 13);
  const bool acc = bits(w1, 23, 23);
  const unsigned saddr = bits(w1, 22, 16);
  const bool has_saddr = saddr != 0x7f && in.format != Format::FLAT;
  // FLAT's offset field is unsigned, GLOBAL's and SCRATCH's signed (13 bits).
  in.offset = in.format == Format::FLAT ? static_cast<int32_t>(bits(w0, 12, 0))
                                         : (static_cast<int32_t>(bits(w0, 12, 0)) ^ 0x1000) - 0x1000;
  if ((op.flags & kAtomic) && !in.glc) in.num_dst = 0;
  if (in.num_dst) in.dst[0] = vector_operand(s, bits(w1, 31, 24), op.dst_type, acc);
  const bool vaddr_used = !(in.format == Format::SCRATCH && has_saddr);
  if (vaddr_used) {
    const DataType at = (in.format == Format::GLOBAL && has_saddr) || in.format == Format::SCRATCH ? DataType::B32
                                                                                                  : DataType::B64;
    in.src[0] = vector_operand(s, bits(w1, 7, 0), at);
  }
  if (op.src_type[1] != DataType::None) in.src[1] = vector_operand(s, bits(w1, 15, 8), op.src_type[1], acc);
  if (has_saddr) in.src[2] = scalar_operand(s, saddr, op.src_type[2]);
  return true;
}

bool decode_buffer(DecodeState& s, bool typed) {
  const uint32_t w0 = s.words[0], w1 = s.words[1];
  const unsigned opcode = typed ? bits(w0, 18, 15) : bits(w0, 24, 18);
  if (!set_op(s, typed ? Format::MTBUF : Format::MUBUF, opcode)) return false;
  Instruction& in = *s.inst;
  const OpInfo& op = *in.op;
  in.size = 8;
  in.offset = static_cast<int32_t>(bits(w0, 11, 0));
  in.offen = bits(w0, 12, 12);
  in.idxen = bits(w0, 13, 13);
  in.glc = bits(w0, 14, 14);
  if (typed) {
    in.dfmt = static_cast<uint8_t>(bits(w0, 22, 19));
    in.nfmt = static_cast<uint8_t>(bits(w0, 25, 23));
    in.slc = bits(w1, 22, 22);
    in.scc = bits(w1, 21, 21);
  } else {
    in.scc = bits(w0, 15, 15);
    in.lds = bits(w0, 16, 16);
    in.slc = bits(w0, 17, 17);
  }
  if (op.num_src == 0) return true;  // cache maintenance: no operands
  const bool acc = bits(w1, 23, 23);
  if ((op.flags & kAtomic) && !in.glc) in.num_dst = 0;
  if (in.num_dst) in.dst[0] = vector_operand(s, bits(w1, 15, 8), op.dst_type, acc);
  if (in.offen || in.idxen)
    in.src[0] = vector_operand(s, bits(w1, 7, 0), in.offen && in.idxen ? DataType::B64 : DataType::B32);
  if (op.src_type[1] != DataType::None) in.src[1] = vector_operand(s, bits(w1, 15, 8), op.src_type[1], acc);
  in.src[2] = scalar_operand(s, bits(w1, 20, 16) << 2, DataType::B128);
  s.base_words = 2;
  in.src[3] = source_operand(s, bits(w1, 31, 24), DataType::B32);
  return true;
}

bool needs_two_words(Format f) {
  return f == Format::SMEM || f == Format::VOP3 || f == Format::VOP3P || f == Format::DS || f == Format::FLAT ||
         f == Format::MUBUF || f == Format::MTBUF;
}

Format major_format(uint32_t w) {
  switch (w >> 23) {
    case 0x17d: return Format::SOP1;
    case 0x17e: return Format::SOPC;
    case 0x17f: return Format::SOPP;
    case 0x1a7: return Format::VOP3P;
    default: break;
  }
  if ((w >> 28) == 0xb) return Format::SOPK;
  if ((w >> 30) == 0x2) return Format::SOP2;
  if ((w >> 25) == 0x3f) return Format::VOP1;
  if ((w >> 25) == 0x3e) return Format::VOPC;
  if ((w >> 31) == 0) return Format::VOP2;
  switch (w >> 26) {
    case 0x30: return Format::SMEM;
    case 0x34: return Format::VOP3;
    case 0x36: return Format::DS;
    case 0x37: return Format::FLAT;  // FLAT, SCRATCH or GLOBAL by the seg field
    case 0x38: return Format::MUBUF;
    case 0x3a: return Format::MTBUF;
    default: return Format::Unknown;
  }
}

}  // namespace

Instruction decode(const uint32_t* words, size_t available_words, uint64_t pc) {
  Instruction in;
  in.pc = pc;
  if (words == nullptr || available_words == 0) return in;
  in.words[0] = words[0];
  const Format f = major_format(words[0]);
  if (f == Format::Unknown) return in;
  if (needs_two_words(f)) {
    if (available_words < 2) return in;
    in.words[1] = words[1];
  }
  DecodeState s{words, available_words, &in, needs_two_words(f) ? 2u : 1u};
  bool known = false;
  switch (f) {
    case Format::SOP1: known = decode_sop1(s); break;
    case Format::SOP2: known = decode_sop2(s); break;
    case Format::SOPK: known = decode_sopk(s); break;
    case Format::SOPC: known = decode_sopc(s); break;
    case Format::SOPP: known = decode_sopp(s); break;
    case Format::SMEM: known = decode_smem(s); break;
    case Format::VOP1: known = detail::decode_vop1(s); break;
    case Format::VOP2: known = detail::decode_vop2(s); break;
    case Format::VOPC: known = detail::decode_vopc(s); break;
    case Format::VOP3: known = detail::decode_vop3(s); break;
    case Format::VOP3P: known = detail::decode_vop3p(s); break;
    case Format::DS: known = decode_ds(s); break;
    case Format::FLAT: known = decode_flat(s); break;
    case Format::MUBUF: known = decode_buffer(s, false); break;
    case Format::MTBUF: known = decode_buffer(s, true); break;
    default: break;
  }
  if (!known || s.bad) {
    // Keep the raw words for printing, drop everything decoded.
    Instruction unknown;
    unknown.pc = pc;
    unknown.words[0] = words[0];
    return unknown;
  }
  return in;
}

}  // namespace tessera::isa
