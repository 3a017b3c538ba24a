// A decoded gfx90a instruction.
//
// The decoder turns machine code into this canonical form once per PC; the
// disassembler prints it and the semantics execute it. Canonical means the
// operand list does not depend on the encoding: an instruction that exists as
// e32 and e64 (VOP2/VOP3, VOPC/VOP3) decodes to the same OpInfo and the same
// operand positions, with implicit operands made explicit:
//   - dst[] are destinations, src[] sources, in the order the assembler prints
//     them (v_add_co_u32 v0, vcc, v1, v2: dst[0]=v0, dst[1]=vcc, src[0]=v1, src[1]=v2).
//   - An implicit VCC is explicit: VOPC e32 writes dst[0]=vcc; v_addc_co_u32_e32
//     and v_cndmask_b32_e32 read src[2]=vcc; carry-out ops write dst[1]=vcc.
//   - Ops that read their destination (v_mac_f32, v_fmac_f32) get it as src[2].
//   - v_madmk/v_madak/v_fmamk/v_fmaak: the literal K is a Constant source in
//     the position the assembler prints it.
// Memory formats:
//   - SMEM: dst[0]=sdata (loads) or src[1]=sdata (stores); src[0]=sbase;
//     src[2]=soffset SGPR when present; `offset` = the immediate offset.
//   - DS: dst[0]=vdst; src[0]=addr, src[1]=data0, src[2]=data1; offset, offset1.
//   - FLAT/GLOBAL/SCRATCH: dst[0]=vdst; src[0]=vaddr (2 dwords, or 1 with saddr
//     or for scratch), src[1]=vdata, src[2]=saddr (None when "off"); `offset` is
//     13-bit signed for GLOBAL/SCRATCH, unsigned for FLAT. Atomics without glc
//     return nothing (num_dst 0); with glc dst[0] receives the old value.
//   - MUBUF: dst[0]=vdata (loads, and atomics with glc); src[0]=vaddr (None
//     unless offen/idxen, 2 dwords with both), src[1]=vdata (stores, atomics),
//     src[2]=srsrc (4 SGPRs), src[3]=soffset; offen/idxen/offset.
//   - SOPP/SOPK: simm16 (sign-extended for branches, where `branch_target()` applies).
//     SOPK's sdst field is dst[0] when written (s_movk_i32, s_getreg_b32, s_call_b64),
//     src[0] when read (s_cmpk_*, s_setreg_b32), both when read and written
//     (s_addk_i32, s_mulk_i32, s_cmovk_i32). s_setreg_imm32_b32 carries its
//     32-bit immediate in `literal`.
//   - VOPC: dst[0] is the 64-bit lane mask (vcc for e32/SDWA-to-vcc, an SGPR pair for e64).
//   - VOP3b (carry-out, v_div_scale, v_mad_u64_u32): dst[1] is the 64-bit SGPR carry mask.
//   - MFMA: dst[0]=D, src[0]=A, src[1]=B, src[2]=C; AGPR or VGPR per the acc bits.
#pragma once
#include <array>
#include <cstdint>

namespace tessera::isa {

enum class Format : uint8_t {
  SOP1, SOP2, SOPK, SOPC, SOPP, SMEM,
  VOP1, VOP2, VOPC, VOP3, VOP3P,
  DS, FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF,
  Unknown
};

// Scalar operand codes of the hardware encoding (8-bit SSRC/SDST and the low
// half of the 9-bit VOP source field). The wave's scalar register file is
// indexed by these codes, so special registers live at their codes.
namespace reg {
constexpr uint16_t kSgprCount = 102;  // s0..s101 on gfx90a
constexpr uint16_t kFlatScratchLo = 102, kFlatScratchHi = 103;
constexpr uint16_t kXnackMaskLo = 104, kXnackMaskHi = 105;
constexpr uint16_t kVccLo = 106, kVccHi = 107;
constexpr uint16_t kTtmp0 = 108;  // ttmp0..ttmp15 = 108..123
constexpr uint16_t kM0 = 124;
constexpr uint16_t kExecLo = 126, kExecHi = 127;
constexpr uint16_t kScalarFileSize = 128;
// Source-only codes.
constexpr uint16_t kInlineIntFirst = 128, kInlineIntLast = 208;     // 0..64, -1..-16
constexpr uint16_t kInlineFloatFirst = 240, kInlineFloatLast = 248;  // 0.5, -0.5, 1, -1, 2, -2, 4, -4, 1/(2*pi)
// Aperture sources: the upper halves of the LDS and private flat apertures.
constexpr uint16_t kSrcSharedBase = 235, kSrcSharedLimit = 236, kSrcPrivateBase = 237, kSrcPrivateLimit = 238;
constexpr uint16_t kVccz = 251, kExecz = 252, kScc = 253, kLdsDirect = 254, kLiteral = 255;
constexpr uint16_t kVgprBase = 256;  // 9-bit source field: 256 + vgpr number
}  // namespace reg

enum class OperandKind : uint8_t {
  None,
  Scalar,    // reg = scalar code 0..127 (SGPRs and special registers)
  Vgpr,      // reg = VGPR number
  Agpr,      // reg = AGPR (accumulation register) number
  Constant,  // an inline constant or a literal; `value` holds the bits
  Special,   // reg = kVccz, kExecz, kScc or kLdsDirect
};

// Element type of an operand, as the instruction interprets it. Drives register
// widths and how inline constants are resolved (0.5 is 0x3800 for F16,
// 0x3f000000 for F32, 0x3fe0000000000000 for F64).
enum class DataType : uint8_t {
  None, B16, B32, B64, B96, B128, B256, B512, B1024,
  I16, I32, I64, U16, U32, U64, F16, BF16, F32, F64,
  V2F16, V2I16, V2U16, V2BF16, V2F32,
};

struct Operand {
  OperandKind kind = OperandKind::None;
  uint8_t dwords = 0;   // registers covered (1 for b32, 2 for b64, 4 for srsrc, 16 for a 512-bit MFMA result...)
  uint16_t reg = 0;     // see OperandKind
  uint16_t code = 0;    // the raw encoding field (255 = literal), for printing
  bool literal = false; // Constant came from a literal dword
  uint64_t value = 0;   // Constant: the value as the operand's DataType sees it (64-bit types hold all 64 bits)

  bool is_reg() const { return kind == OperandKind::Scalar || kind == OperandKind::Vgpr || kind == OperandKind::Agpr; }
};

// Static properties of one opcode of one format. Tables live in the decoder.
struct OpInfo {
  const char* mnemonic;  // LLVM's name without encoding suffix: "v_add_f32", "s_load_dwordx4"
  Format format;         // the format this entry decodes from (VOP3 entries of VOP2 ops name the VOP2 op)
  uint16_t opcode;
  uint8_t num_dst;
  uint8_t num_src;
  DataType dst_type;
  std::array<DataType, 4> src_type;
  uint32_t flags;        // OpFlag bits
};

enum OpFlag : uint32_t {
  kBranch = 1u << 0,      // may change the PC (s_branch, s_cbranch_*, s_setpc, s_swappc)
  kLoad = 1u << 1,        // reads memory (SMEM, DS, FLAT, MUBUF)
  kStore = 1u << 2,       // writes memory
  kAtomic = 1u << 3,      // read-modify-write memory
  kReturnsData = 1u << 4, // atomic with glc: returns the old value
  kBarrier = 1u << 5,     // s_barrier
  kWaitcnt = 1u << 6,     // s_waitcnt and friends
  kEndProgram = 1u << 7,  // s_endpgm
  kMfma = 1u << 8,        // v_mfma_*
  kScalarMem = 1u << 9,   // SMEM
  kLds = 1u << 10,        // DS (LDS/GDS)
  kVectorMem = 1u << 11,  // FLAT/GLOBAL/SCRATCH/MUBUF
  kReadsExec = 1u << 12,  // explicitly reads EXEC as data (s_and_saveexec...)
  kWritesExec = 1u << 13,
  kCrossLane = 1u << 14,  // DPP, ds_swizzle, v_readlane, v_writelane, v_readfirstlane
  kScalarDst = 1u << 15,  // VALU op whose vdst field names an SGPR (v_readlane, v_readfirstlane)
  kAccDst = 1u << 16,     // dst[0] is an AGPR by definition (v_accvgpr_write, v_accvgpr_mov)
  kAccSrc = 1u << 17,     // src[0] is an AGPR by definition (v_accvgpr_read, v_accvgpr_mov)
  kReadsDst = 1u << 18,   // dst[0] is also read, and appears as src[2] (v_mac, v_fmac, v_dot*c, v_pk_fmac)
  kLiteralK = 1u << 19,   // VOP2 with a literal K operand (v_madmk: src[1]=K, v_madak: src[2]=K)
};

enum class ExtKind : uint8_t { None, Sdwa, Dpp };

struct Instruction {
  const OpInfo* op = nullptr;  // nullptr: no gfx90a instruction has this encoding
  uint64_t pc = 0;             // byte address of the first dword
  uint8_t size = 4;            // bytes, including the literal if any
  Format format = Format::Unknown;  // the encoding actually used (VOP3 for an e64 VOP2 op)
  uint32_t words[3] = {0, 0, 0};    // raw machine code (and literal)

  uint8_t num_dst = 0, num_src = 0;
  std::array<Operand, 2> dst{};
  std::array<Operand, 4> src{};

  // VOP3 / VOP3P modifiers, one bit per source.
  uint8_t abs = 0, neg = 0;              // VOP3P: neg = neg_lo
  uint8_t neg_hi = 0, op_sel = 0, op_sel_hi = 0;  // op_sel bit 3 = destination (VOP3 16-bit ops)
  uint8_t omod = 0;                      // 0 none, 1 *2, 2 *4, 3 /2
  bool clamp = false;
  uint8_t cbsz = 0, abid = 0, blgp = 0;  // MFMA broadcast controls

  // SDWA / DPP extensions of VOP1/VOP2/VOPC (src neg/abs go in `neg`/`abs`).
  ExtKind ext = ExtKind::None;
  uint8_t dst_sel = 6, dst_unused = 0;   // SDWA selects: 0..3 BYTE_0..3, 4 WORD_0, 5 WORD_1, 6 DWORD
  uint8_t src_sel[2] = {6, 6};
  bool src_sext[2] = {false, false};
  uint16_t dpp_ctrl = 0;
  uint8_t row_mask = 0xf, bank_mask = 0xf;
  bool bound_ctrl = false;

  // Memory and immediates.
  int32_t offset = 0;      // SMEM/DS offset0/FLAT/MUBUF offset (sign-extended where signed)
  uint8_t offset1 = 0;     // DS second offset
  bool glc = false, slc = false, scc = false, nv = false;  // scc: the gfx90a system-coherence bit (FLAT, MUBUF, MTBUF)
  bool gds = false, offen = false, idxen = false, lds = false;
  uint8_t dfmt = 0, nfmt = 0;  // MTBUF data and numeric format
  int32_t simm16 = 0;      // SOPP/SOPK immediate, sign-extended
  uint32_t literal = 0;    // the literal dword when size includes one

  // s_branch / s_cbranch_*: the target byte address.
  uint64_t branch_target() const { return pc + 4 + static_cast<int64_t>(simm16) * 4; }
  const char* mnemonic() const { return op ? op->mnemonic : "<unknown>"; }
};

}  // namespace tessera::isa
