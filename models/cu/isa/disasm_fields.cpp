// Symbolic field text for the disassembler.
#include "models/cu/isa/disasm_fields.h"

#include <cstdio>

namespace tessera::isa::disasm {

std::string waitcnt_text(uint16_t simm16) {
  // gfx9: vmcnt is split over bits 3:0 and 15:14, expcnt is 6:4, lgkmcnt 11:8.
  const unsigned vm = (simm16 & 0xf) | ((simm16 >> 10) & 0x30);
  const unsigned exp = (simm16 >> 4) & 0x7;
  const unsigned lgkm = (simm16 >> 8) & 0xf;
  const bool all_default = vm == 0x3f && exp == 0x7 && lgkm == 0xf;
  std::string out;
  auto add = [&out](const char* name, unsigned v) {
    if (!out.empty()) out += ' ';
    out += name;
    out += '(' + std::to_string(v) + ')';
  };
  if (vm != 0x3f || all_default) add("vmcnt", vm);
  if (exp != 0x7 || all_default) add("expcnt", exp);
  if (lgkm != 0xf || all_default) add("lgkmcnt", lgkm);
  return out;
}

std::string hwreg_text(uint16_t simm16) {
  const unsigned id = simm16 & 0x3f, offset = (simm16 >> 6) & 0x1f, size = ((simm16 >> 11) & 0x1f) + 1;
  static const char* const kNames[16] = {nullptr, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS",
                                         "HW_REG_HW_ID", "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC", "HW_REG_IB_STS",
                                         nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                         "HW_REG_SH_MEM_BASES"};
  const std::string name = id < 16 && kNames[id] ? kNames[id] : std::to_string(id);
  if (offset == 0 && size == 32) return "hwreg(" + name + ")";
  return "hwreg(" + name + ", " + std::to_string(offset) + ", " + std::to_string(size) + ")";
}

std::string sendmsg_text(uint16_t simm16) {
  // Fields: message 3:0, operation 6:4, stream 9:8. A valid message prints by
  // name (other bits ignored); otherwise the fields in numbers if they are all
  // there is, else the raw value.
  const unsigned id = simm16 & 0xf, op = (simm16 >> 4) & 0x7, stream = (simm16 >> 8) & 0x3;
  static const char* const kMsgs[16] = {nullptr, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE",
                                        "MSG_STALL_WAVE_GEN", "MSG_HALT_WAVES", "MSG_ORDERED_PS_DONE",
                                        "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ", "MSG_GET_DOORBELL",
                                        nullptr, nullptr, nullptr, nullptr, "MSG_SYSMSG"};
  static const char* const kGs[4] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
  static const char* const kSys[5] = {nullptr, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD",
                                      "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"};
  if (kMsgs[id]) {
    const std::string name = kMsgs[id];
    if (id == 2 || id == 3) {  // GS messages: an operation, then the stream (not for GS_DONE's NOP)
      if (id == 3 && op == 0 && stream == 0) return "sendmsg(" + name + ", GS_OP_NOP)";
      if (op >= 1 && op <= 3) return "sendmsg(" + name + ", " + kGs[op] + ", " + std::to_string(stream) + ")";
    } else if (id == 15) {
      if (op >= 1 && op <= 4 && stream == 0) return "sendmsg(" + name + ", " + kSys[op] + ")";
    } else if (op == 0 && stream == 0) {
      return "sendmsg(" + name + ")";
    }
  }
  if (simm16 & ~0x37fu) return std::to_string(simm16);
  return "sendmsg(" + std::to_string(id) + ", " + std::to_string(op) + ", " + std::to_string(stream) + ")";
}

std::string gpr_idx_mode_text(uint16_t mode) {
  static const char* const kBits[4] = {"SRC0", "SRC1", "SRC2", "DST"};
  std::string out;
  for (int i = 0; i < 4; ++i) {
    if (!(mode & (1u << i))) continue;
    if (!out.empty()) out += ',';
    out += kBits[i];
  }
  return "gpr_idx(" + out + ")";
}

std::string dpp_ctrl_text(uint16_t c) {
  char buf[48];
  if (c <= 0xff) {
    std::snprintf(buf, sizeof buf, "quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
  } else if (c >= 0x101 && c <= 0x10f) {
    std::snprintf(buf, sizeof buf, "row_shl:%u", c & 0xf);
  } else if (c >= 0x111 && c <= 0x11f) {
    std::snprintf(buf, sizeof buf, "row_shr:%u", c & 0xf);
  } else if (c >= 0x121 && c <= 0x12f) {
    std::snprintf(buf, sizeof buf, "row_ror:%u", c & 0xf);
  } else {
    switch (c) {
      case 0x130: return "wave_shl:1";
      case 0x134: return "wave_rol:1";
      case 0x138: return "wave_shr:1";
      case 0x13c: return "wave_ror:1";
      case 0x140: return "row_mirror";
      case 0x141: return "row_half_mirror";
      case 0x142: return "row_bcast:15";
      case 0x143: return "row_bcast:31";
      case 0x150: case 0x151: case 0x152: case 0x153: case 0x154: case 0x155: case 0x156: case 0x157:
      case 0x158: case 0x159: case 0x15a: case 0x15b: case 0x15c: case 0x15d: case 0x15e: case 0x15f:
        return "row_newbcast:" + std::to_string(c & 0xf);
      default:
        if (c >= 0x160 && c <= 0x16f) return "/* row_xmask is not supported on ASICs earlier than GFX10 */";
        return "/* Invalid dpp_ctrl value */";
    }
  }
  return buf;
}

std::string swizzle_text(uint16_t offset) {
  char buf[48];
  if (offset & 0x8000) {
    if (offset & 0x7f00) return std::to_string(offset);
    std::snprintf(buf, sizeof buf, "swizzle(QUAD_PERM,%u,%u,%u,%u)", offset & 3, (offset >> 2) & 3, (offset >> 4) & 3,
                  (offset >> 6) & 3);
    return buf;
  }
  const unsigned and_mask = offset & 0x1f, or_mask = (offset >> 5) & 0x1f, xor_mask = (offset >> 10) & 0x1f;
  const auto pow2 = [](unsigned v) { return v != 0 && (v & (v - 1)) == 0; };
  if (and_mask == 0x1f && or_mask == 0 && pow2(xor_mask)) return "swizzle(SWAP," + std::to_string(xor_mask) + ")";
  if (and_mask == 0x1f && or_mask == 0 && xor_mask > 0 && pow2(xor_mask + 1))
    return "swizzle(REVERSE," + std::to_string(xor_mask + 1) + ")";
  const unsigned group = 0x1f - and_mask + 1;
  if (group > 1 && pow2(group) && or_mask < group && xor_mask == 0)
    return "swizzle(BROADCAST," + std::to_string(group) + "," + std::to_string(or_mask) + ")";
  // Per lane-id bit, MSB first: constant 0/1, preserved (p) or inverted (i).
  const unsigned probe0 = (0 | or_mask) ^ xor_mask, probe1 = ((0x1f & and_mask) | or_mask) ^ xor_mask;
  std::string perm;
  for (unsigned m = 0x10; m; m >>= 1) {
    const bool p0 = probe0 & m, p1 = probe1 & m;
    perm += p0 == p1 ? (p0 ? '1' : '0') : (p0 ? 'i' : 'p');
  }
  return "swizzle(BITMASK_PERM,\"" + perm + "\")";
}

const char* sdwa_sel_name(uint8_t sel) {
  static const char* const kSel[8] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "7"};
  return kSel[sel & 7];
}

const char* sdwa_unused_name(uint8_t unused) {
  static const char* const kUnused[4] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"};
  return kUnused[unused & 3];
}

std::string mtbuf_format_text(uint8_t dfmt, uint8_t nfmt) {
  static const char* const kData[16] = {
      "BUF_DATA_FORMAT_INVALID", "BUF_DATA_FORMAT_8", "BUF_DATA_FORMAT_16", "BUF_DATA_FORMAT_8_8",
      "BUF_DATA_FORMAT_32", "BUF_DATA_FORMAT_16_16", "BUF_DATA_FORMAT_10_11_11", "BUF_DATA_FORMAT_11_11_10",
      "BUF_DATA_FORMAT_10_10_10_2", "BUF_DATA_FORMAT_2_10_10_10", "BUF_DATA_FORMAT_8_8_8_8",
      "BUF_DATA_FORMAT_32_32", "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32",
      "BUF_DATA_FORMAT_32_32_32_32", "BUF_DATA_FORMAT_RESERVED_15"};
  static const char* const kNum[8] = {"BUF_NUM_FORMAT_UNORM", "BUF_NUM_FORMAT_SNORM", "BUF_NUM_FORMAT_USCALED",
                                      "BUF_NUM_FORMAT_SSCALED", "BUF_NUM_FORMAT_UINT", "BUF_NUM_FORMAT_SINT",
                                      "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT"};
  // The defaults (dfmt 1, nfmt 0) are not printed.
  std::string parts;
  if (dfmt != 1) parts = kData[dfmt & 15];
  if (nfmt != 0) parts += std::string(parts.empty() ? "" : ",") + kNum[nfmt & 7];
  return parts.empty() ? "" : "format:[" + parts + "]";
}

}  // namespace tessera::isa::disasm
