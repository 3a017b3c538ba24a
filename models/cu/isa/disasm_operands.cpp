// Register, constant and special-operand text, as llvm's AMDGPU printer spells them.
#include "models/cu/isa/disassembler.h"

#include "models/cu/isa/hex.h"

namespace tessera::isa {
namespace {

// "s7", "v[4:7]".
std::string range(const char* prefix, unsigned first, unsigned dwords) {
  std::string out = prefix;
  if (dwords <= 1) {
    append_decimal(out, first);
    return out;
  }
  out += '[';
  append_decimal(out, first);
  out += ':';
  append_decimal(out, first + dwords - 1);
  out += ']';
  return out;
}

// A pair register (vcc, exec...) printed whole, or its halves.
std::string pair(const char* name, unsigned code, unsigned base, unsigned dwords) {
  if (dwords >= 2 && code == base) return name;
  return std::string(name) + (code == base ? "_lo" : "_hi");
}

}  // namespace

std::string scalar_register_name(unsigned code, unsigned dwords) {
  if (code < reg::kSgprCount) return range("s", code, dwords);
  if (code >= reg::kTtmp0 && code < reg::kTtmp0 + 16) return range("ttmp", code - reg::kTtmp0, dwords);
  switch (code) {
    case reg::kFlatScratchLo: case reg::kFlatScratchHi: return pair("flat_scratch", code, reg::kFlatScratchLo, dwords);
    case reg::kXnackMaskLo: case reg::kXnackMaskHi: return pair("xnack_mask", code, reg::kXnackMaskLo, dwords);
    case reg::kVccLo: case reg::kVccHi: return pair("vcc", code, reg::kVccLo, dwords);
    case reg::kExecLo: case reg::kExecHi: return pair("exec", code, reg::kExecLo, dwords);
    case reg::kM0: return "m0";
    case 125: return "null";
    default: return range("s", code, dwords);
  }
}

std::string vector_register_name(char file, unsigned reg, unsigned dwords) {
  const char prefix[2] = {file, 0};
  return range(prefix, reg, dwords);
}

std::string immediate_text(uint64_t imm, unsigned width_bits) {
  // Inline integers are printed in decimal, whatever the width.
  int64_t as_signed = static_cast<int64_t>(imm);
  if (width_bits == 32 && (imm >> 32) == 0) as_signed = static_cast<int32_t>(static_cast<uint32_t>(imm));
  if (width_bits == 16 && (imm >> 16) == 0) as_signed = static_cast<int16_t>(static_cast<uint16_t>(imm));
  if (as_signed >= -16 && as_signed <= 64) return std::to_string(as_signed);
  static const char* const kNames[8] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
  static const uint16_t k16[8] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400};
  static const uint32_t k32[8] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000,
                                  0x40000000, 0xc0000000, 0x40800000, 0xc0800000};
  static const uint64_t k64[8] = {0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000, 0xbff0000000000000,
                                  0x4000000000000000, 0xc000000000000000, 0x4010000000000000, 0xc010000000000000};
  for (int i = 0; i < 8; ++i) {
    if ((width_bits == 16 && imm == k16[i]) || (width_bits == 32 && imm == k32[i]) ||
        (width_bits == 64 && imm == k64[i]))
      return kNames[i];
  }
  if (width_bits == 16 && imm == 0x3118) return "0.15915494";
  if (width_bits == 32 && imm == 0x3e22f983) return "0.15915494";
  if (width_bits == 64 && imm == 0x3fc45f306dc9c882) return "0.15915494309189532";
  return hex(imm);
}

}  // namespace tessera::isa
