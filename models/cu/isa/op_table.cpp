// Dense per-format index over the opcode tables.
#include "models/cu/isa/op_table.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace tessera::isa {
namespace {

using namespace op_tables;

constexpr size_t kFormats = static_cast<size_t>(Format::Unknown);
constexpr size_t kMaxOpcode = 1024;  // VOP3 has the widest opcode field (10 bits)

struct TableRef {
  const OpInfo* ops;
  size_t count;
};

const std::array<TableRef, 17>& tables() {
  static const std::array<TableRef, 17> t{{
      {kSop1, kSop1Count}, {kSop2, kSop2Count}, {kSopk, kSopkCount}, {kSopc, kSopcCount},
      {kSopp, kSoppCount}, {kSmem, kSmemCount}, {kVop1, kVop1Count}, {kVop2, kVop2Count},
      {kVopc, kVopcCount}, {kVop3, kVop3Count}, {kVop3p, kVop3pCount}, {kDs, kDsCount},
      {kFlat, kFlatCount}, {kGlobal, kGlobalCount}, {kScratch, kScratchCount},
      {kMubuf, kMubufCount}, {kMtbuf, kMtbufCount},
  }};
  return t;
}

// VOP2/VOP1 instructions that have no VOP3 (e64) encoding on gfx90a.
bool has_e64(const OpInfo& op) {
  static const char* const kNoE64[] = {"v_madmk_f32", "v_madak_f32", "v_madmk_f16", "v_madak_f16",
                                        "v_dot2c_f32_f16", "v_dot2c_i32_i16", "v_dot4c_i32_i8",
                                        "v_dot8c_i32_i4", "v_pk_fmac_f16", "v_readfirstlane_b32",
                                        "v_swap_b32", "v_accvgpr_mov_b32"};
  for (const char* name : kNoE64) {
    if (std::string_view(op.mnemonic) == name) return false;
  }
  return true;
}

struct Index {
  std::array<std::array<const OpInfo*, kMaxOpcode>, kFormats> by_format{};

  Index() {
    for (const TableRef& t : tables()) {
      for (size_t i = 0; i < t.count; ++i) put(t.ops[i].format, t.ops[i].opcode, &t.ops[i]);
    }
    // The e64 forms of VOPC/VOP2/VOP1 share their OpInfo.
    for (size_t i = 0; i < kVopcCount; ++i) put(Format::VOP3, kVopc[i].opcode, &kVopc[i]);
    for (size_t i = 0; i < kVop2Count; ++i)
      if (has_e64(kVop2[i])) put(Format::VOP3, 0x100 + kVop2[i].opcode, &kVop2[i]);
    for (size_t i = 0; i < kVop1Count; ++i)
      if (has_e64(kVop1[i])) put(Format::VOP3, 0x140 + kVop1[i].opcode, &kVop1[i]);
  }

  void put(Format f, unsigned opcode, const OpInfo* op) {
    const OpInfo*& slot = by_format[static_cast<size_t>(f)][opcode];
    if (slot != nullptr) {
      std::fprintf(stderr, "op_table: %s opcode 0x%x assigned twice (%s, %s)\n", format_name(f), opcode,
                   slot->mnemonic, op->mnemonic);
      std::abort();
    }
    slot = op;
  }
};

const Index& index() {
  static const Index idx;
  return idx;
}

}  // namespace

const OpInfo* find_op(Format format, unsigned opcode) {
  if (format >= Format::Unknown || opcode >= kMaxOpcode) return nullptr;
  return index().by_format[static_cast<size_t>(format)][opcode];
}

std::vector<const OpInfo*> all_ops() {
  std::vector<const OpInfo*> out;
  for (const TableRef& t : tables())
    for (size_t i = 0; i < t.count; ++i) out.push_back(&t.ops[i]);
  return out;
}

const char* format_name(Format format) {
  static const char* const kNames[] = {"SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC",
                                       "VOP3", "VOP3P", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF",
                                       "Unknown"};
  const auto i = static_cast<size_t>(format);
  return i <= static_cast<size_t>(Format::Unknown) ? kNames[i] : "Unknown";
}

}  // namespace tessera::isa
