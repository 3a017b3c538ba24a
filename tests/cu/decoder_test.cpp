// The decoder's canonical form (instruction.h) on encodings produced by
// llvm-mc-14 for gfx90a, and its robustness: truncated buffers, unassigned
// opcodes and random words never crash and never read past the buffer.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/op_table.h"

using namespace tessera::isa;

namespace {

// Decodes from a heap buffer of exactly the given words, so that a read past
// the end is caught by the sanitizer build.
Instruction dec(std::vector<uint32_t> words, uint64_t pc = 0x1000) {
  return decode(words.data(), words.size(), pc);
}

void check_reg(const Operand& o, OperandKind kind, unsigned reg, unsigned dwords) {
  CHECK(o.kind == kind);
  CHECK(o.reg == reg);
  CHECK(o.dwords == dwords);
}

}  // namespace

TEST_CASE("decoder: e32 and e64 encodings share the OpInfo and the operand positions", "[decoder]") {
  const Instruction e32 = dec({0x32020602});              // v_add_co_u32_e32 v1, vcc, s2, v3
  const Instruction e64 = dec({0xd1190401, 0x00020602});  // v_add_co_u32_e64 v1, s[4:5], s2, v3
  REQUIRE(e32.op != nullptr);
  CHECK(e32.op == e64.op);
  CHECK(std::string(e32.op->mnemonic) == "v_add_co_u32");
  CHECK(e32.format == Format::VOP2);
  CHECK(e64.format == Format::VOP3);
  CHECK(e32.size == 4);
  CHECK(e64.size == 8);
  for (const Instruction* in : {&e32, &e64}) {
    CHECK(in->num_dst == 2);
    CHECK(in->num_src == 2);
    check_reg(in->dst[0], OperandKind::Vgpr, 1, 1);
    check_reg(in->src[0], OperandKind::Scalar, 2, 1);
    check_reg(in->src[1], OperandKind::Vgpr, 3, 1);
  }
  check_reg(e32.dst[1], OperandKind::Scalar, reg::kVccLo, 2);  // implicit vcc made explicit
  check_reg(e64.dst[1], OperandKind::Scalar, 4, 2);
}

TEST_CASE("decoder: implicit VCC of VOPC, carry-in and v_cndmask is explicit", "[decoder]") {
  const Instruction addc = dec({0x38020702});  // v_addc_co_u32_e32 v1, vcc, v2, v3, vcc
  REQUIRE(addc.num_src == 3);
  check_reg(addc.src[2], OperandKind::Scalar, reg::kVccLo, 2);
  check_reg(addc.dst[1], OperandKind::Scalar, reg::kVccLo, 2);
  const Instruction cmp32 = dec({0x7c820501});              // v_cmp_lt_f32_e32 vcc, v1, v2
  const Instruction cmp64 = dec({0xd0410006, 0x00020501});  // v_cmp_lt_f32_e64 s[6:7], v1, v2
  CHECK(cmp32.op == cmp64.op);
  check_reg(cmp32.dst[0], OperandKind::Scalar, reg::kVccLo, 2);
  check_reg(cmp64.dst[0], OperandKind::Scalar, 6, 2);
  check_reg(cmp64.src[1], OperandKind::Vgpr, 2, 1);
}

TEST_CASE("decoder: ops that read their destination get it as src[2]", "[decoder]") {
  const Instruction e32 = dec({0x2c020702});              // v_mac_f32_e32 v1, v2, v3
  const Instruction e64 = dec({0xd1168001, 0x20020702});  // v_mac_f32_e64 v1, -v2, v3 clamp
  for (const Instruction* in : {&e32, &e64}) {
    REQUIRE(in->num_src == 3);
    check_reg(in->src[2], OperandKind::Vgpr, 1, 1);
    CHECK(in->src[2].reg == in->dst[0].reg);
  }
  CHECK(e64.neg == 1);
  CHECK(e64.clamp);
  CHECK(disassemble(e64) == "v_mac_f32_e64 v1, -v2, v3 clamp");
}

TEST_CASE("decoder: inline constants take the operand's type, literals follow the f64 rule", "[decoder]") {
  const Instruction f16 = dec({0x3e0002f0});              // v_add_f16_e32 v0, 0.5, v1
  const Instruction f32 = dec({0x020002f0});              // v_add_f32_e32 v0, 0.5, v1
  const Instruction f64 = dec({0xd2800000, 0x000204f0});  // v_add_f64 v[0:1], 0.5, v[2:3]
  CHECK(f16.src[0].kind == OperandKind::Constant);
  CHECK(f16.src[0].value == 0x3800);
  CHECK(f32.src[0].value == 0x3f000000);
  CHECK(f64.src[0].value == 0x3fe0000000000000ull);
  CHECK(f64.src[1].dwords == 2);
  const Instruction neg = dec({0xbe8001c4});  // s_mov_b64 s[0:1], -4
  CHECK(neg.src[0].value == 0xfffffffffffffffcull);
  CHECK(neg.dst[0].dwords == 2);
  // v_cvt_f32_f64_e32 v0, 0x40080000: a 32-bit literal is the high dword of the f64 (3.0).
  const Instruction lit = dec({0x7e001eff, 0x40080000});
  CHECK(lit.size == 8);
  CHECK(lit.src[0].literal);
  CHECK(lit.literal == 0x40080000u);
  CHECK(lit.src[0].value == 0x4008000000000000ull);
  CHECK(disassemble(lit) == "v_cvt_f32_f64_e32 v0, 0x40080000");
  uint64_t v = 0;
  CHECK(inline_constant_value(248, DataType::F32, &v));
  CHECK(v == 0x3e22f983);
  CHECK(inline_constant_value(208, DataType::I32, &v));
  CHECK(v == 0xfffffff0u);
  CHECK(inline_constant_value(242, DataType::V2F16, &v));
  CHECK(v == 0x3c003c00u);
  CHECK_FALSE(inline_constant_value(255, DataType::F32, &v));
  CHECK(literal_value(0xfffffffe, DataType::I64) == 0xfffffffffffffffeull);
  CHECK(literal_value(0xfffffffe, DataType::U64) == 0xfffffffeull);
}

TEST_CASE("decoder: MFMA operands, accumulation registers and broadcast controls", "[decoder]") {
  // v_mfma_f32_32x32x1f32 a[0:31], v1, v2, a[0:31] cbsz:1 abid:2 blgp:3
  const Instruction in = dec({0xd3c09100, 0x64020501});
  REQUIRE(in.op != nullptr);
  CHECK(in.op->flags & kMfma);
  check_reg(in.dst[0], OperandKind::Agpr, 0, 32);
  check_reg(in.src[0], OperandKind::Vgpr, 1, 1);
  check_reg(in.src[1], OperandKind::Vgpr, 2, 1);
  check_reg(in.src[2], OperandKind::Agpr, 0, 32);
  CHECK(in.cbsz == 1);
  CHECK(in.abid == 2);
  CHECK(in.blgp == 3);
  const Instruction pk = dec({0xd38eec00, 0x340e0501});  // v_pk_fma_f16 ... op_sel:[1,0,1] op_sel_hi:[0,1,1] ...
  CHECK(pk.op_sel == 0b101);
  CHECK(pk.op_sel_hi == 0b110);
  CHECK(pk.neg == 0b001);
  CHECK(pk.neg_hi == 0b100);
  CHECK(pk.clamp);
}

TEST_CASE("decoder: memory operands and fields", "[decoder]") {
  const Instruction g = dec({0xdc509ff0, 0x01040002});  // global_load_dword v1, v2, s[4:5] offset:-16
  CHECK(g.format == Format::GLOBAL);
  check_reg(g.dst[0], OperandKind::Vgpr, 1, 1);
  check_reg(g.src[0], OperandKind::Vgpr, 2, 1);
  check_reg(g.src[2], OperandKind::Scalar, 4, 2);
  CHECK(g.offset == -16);
  const Instruction off = dec({0xdc558008, 0x02ff0004});  // global_load_dwordx2 a[2:3], v[4:5], off offset:8 glc
  check_reg(off.dst[0], OperandKind::Agpr, 2, 2);
  check_reg(off.src[0], OperandKind::Vgpr, 4, 2);
  CHECK(off.src[2].kind == OperandKind::None);
  CHECK(off.glc);
  CHECK(off.offset == 8);
  const Instruction s = dec({0xc00a0202, 0x00000010});  // s_load_dwordx4 s[8:11], s[4:5], 0x10
  check_reg(s.dst[0], OperandKind::Scalar, 8, 4);
  check_reg(s.src[0], OperandKind::Scalar, 4, 2);
  CHECK(s.offset == 16);
  CHECK(s.op->flags & kScalarMem);
  const Instruction sm = dec({0xc0000202, 0x0000007c});  // s_load_dword s8, s[4:5], m0
  check_reg(sm.src[2], OperandKind::Scalar, reg::kM0, 1);
  const Instruction ds2 = dec({0xd86e0301, 0x00000002});  // ds_read2_b32 v[0:1], v2 offset0:1 offset1:3
  CHECK(ds2.offset == 1);
  CHECK(ds2.offset1 == 3);
  check_reg(ds2.dst[0], OperandKind::Vgpr, 0, 2);
  const Instruction ds = dec({0xd89a0208, 0x00000201});  // ds_write_b64 v1, v[2:3] offset:520
  CHECK(ds.offset == 520);
  check_reg(ds.src[1], OperandKind::Vgpr, 2, 2);
  const Instruction buf = dec({0xe050100c, 0x03020102});  // buffer_load_dword v1, v2, s[8:11], s3 offen offset:12
  CHECK(buf.offen);
  CHECK_FALSE(buf.idxen);
  CHECK(buf.offset == 12);
  check_reg(buf.src[2], OperandKind::Scalar, 8, 4);
  check_reg(buf.src[3], OperandKind::Scalar, 3, 1);
  const Instruction ret = dec({0xdd090000, 0x00000402});    // flat_atomic_add v0, v[2:3], v4 glc
  const Instruction noret = dec({0xdd080000, 0x00000402});  // flat_atomic_add v[2:3], v4
  CHECK(ret.num_dst == 1);
  CHECK(noret.num_dst == 0);
  CHECK(ret.op == noret.op);
}

TEST_CASE("decoder: SDWA, DPP, SOPP/SOPK immediates, madmk literal", "[decoder]") {
  const Instruction dpp = dec({0x7e0002fa, 0x35011101});  // v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0x3 bank_mask:0x5
  CHECK(dpp.ext == ExtKind::Dpp);
  CHECK(dpp.dpp_ctrl == 0x111);
  CHECK(dpp.row_mask == 3);
  CHECK(dpp.bank_mask == 5);
  check_reg(dpp.src[0], OperandKind::Vgpr, 1, 1);
  const Instruction sdwa = dec({0x020004f9, 0x04001501});  // v_add_f32_sdwa ... dst_sel:WORD_1 ... src1_sel:WORD_0
  CHECK(sdwa.ext == ExtKind::Sdwa);
  CHECK(sdwa.dst_sel == 5);
  CHECK(sdwa.dst_unused == 2);
  CHECK(sdwa.src_sel[0] == 0);
  CHECK(sdwa.src_sel[1] == 4);
  const Instruction wait = dec({0xbf8c0070});  // s_waitcnt vmcnt(0) lgkmcnt(0)
  CHECK(wait.op->flags & kWaitcnt);
  CHECK(wait.simm16 == 0x70);
  const Instruction br = dec({0xbf85fffd}, 0x2000);  // s_cbranch_scc1 back by 3 dwords
  CHECK(br.op->flags & kBranch);
  CHECK(br.simm16 == -3);
  CHECK(br.branch_target() == 0x2000 + 4 - 12);
  const Instruction mk = dec({0x2e000501, 0x41200000});  // v_madmk_f32 v0, v1, 0x41200000, v2
  CHECK(mk.size == 8);
  CHECK(mk.src[1].kind == OperandKind::Constant);
  CHECK(mk.src[1].value == 0x41200000u);
  check_reg(mk.src[2], OperandKind::Vgpr, 2, 1);
  const Instruction setreg = dec({0xba001901, 0x00001234});  // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x1234
  CHECK(setreg.size == 8);
  CHECK(setreg.literal == 0x1234u);
  const Instruction rl = dec({0xd2890005, 0x00010f01});  // v_readlane_b32 s5, v1, 7
  check_reg(rl.dst[0], OperandKind::Scalar, 5, 1);
  CHECK(rl.src[1].value == 7);
  const Instruction s101 = dec({0x68000265});  // v_add_u32_e32 v0, s101, v1
  check_reg(s101.src[0], OperandKind::Scalar, 101, 1);
}

TEST_CASE("decoder: truncated input yields an unknown instruction, never a read past the end", "[decoder]") {
  const std::vector<std::vector<uint32_t>> two_words = {
      {0xd1190401, 0x00020602}, {0x7e001eff, 0x40080000}, {0xd3c09100, 0x64020501}, {0xdc509ff0, 0x01040002},
      {0xc00a0202, 0x00000010}, {0x7e0002fa, 0x35011101}, {0x020004f9, 0x04001501}, {0x2e000501, 0x41200000},
      {0xba001901, 0x00001234}, {0xe050100c, 0x03020102}, {0xd86e0301, 0x00000002}};
  for (const auto& words : two_words) {
    REQUIRE(dec(words).op != nullptr);
    const Instruction cut = dec({words[0]});
    CHECK(cut.op == nullptr);
    CHECK(cut.size == 4);
    CHECK(disassemble(cut) == "<unknown>");
  }
  CHECK(decode(nullptr, 0, 0).op == nullptr);
  const uint32_t w = 0xbf810000;  // s_endpgm
  CHECK(decode(&w, 0, 0).op == nullptr);
}

TEST_CASE("decoder: unassigned opcodes and formats decode to op == nullptr", "[decoder]") {
  const std::vector<std::vector<uint32_t>> unknown = {
      {0xbfff0000},              // SOPP opcode 0x7f
      {0xd37f0000, 0x00000000},  // VOP3 opcode 0x37f
      {0xd3ff0000, 0x00000000},  // VOP3P opcode 0x7f
      {0xdc00c000, 0x00000000},  // FLAT with segment 3
      {0xc4000000, 0x00000000},  // EXP: no compute instruction
      {0xf0000000, 0x00000000},  // MIMG: not decoded
      {0x7e000aff},              // VOP1 with a literal but no literal dword
  };
  for (const auto& words : unknown) {
    const Instruction in = dec(words);
    CHECK(in.op == nullptr);
    CHECK(in.size == 4);
    CHECK(in.words[0] == words[0]);
  }
}

TEST_CASE("decoder: random words never crash and decode deterministically", "[decoder]") {
  std::mt19937 rng(12345);
  size_t known = 0;
  for (int i = 0; i < 200000; ++i) {
    const size_t avail = rng() % 4;
    std::vector<uint32_t> words(avail);
    for (uint32_t& w : words) w = static_cast<uint32_t>(rng());
    const Instruction a = decode(words.data(), words.size(), 0x1000);
    const Instruction b = decode(words.data(), words.size(), 0x1000);
    REQUIRE((a.size == 4 || a.size == 8 || a.size == 12));
    if (!a.op) continue;
    ++known;
    REQUIRE(a.size / 4 <= avail);
    REQUIRE(a.op == b.op);
    REQUIRE(disassemble(a) == disassemble(b));
    for (unsigned d = 0; d < a.num_dst; ++d)
      if (a.dst[d].kind == OperandKind::Scalar) REQUIRE(a.dst[d].reg + a.dst[d].dwords <= reg::kScalarFileSize);
    for (unsigned s = 0; s < a.num_src; ++s)
      if (a.src[s].is_reg()) REQUIRE(a.src[s].reg + a.src[s].dwords <= (a.src[s].kind == OperandKind::Scalar ? 128u : 256u));
  }
  CHECK(known > 50000);  // most of the encoding space is assigned
}

TEST_CASE("op tables: every entry is reachable and well formed", "[decoder]") {
  const std::vector<const OpInfo*> ops = all_ops();
  CHECK(ops.size() > 1000);
  for (const OpInfo* op : ops) {
    INFO(op->mnemonic);
    CHECK(op->num_dst <= 2);
    CHECK(op->num_src <= 4);
    CHECK(find_op(op->format, op->opcode) == op);
  }
  // VOP3 encodings of short-form ops resolve to the short form's entry.
  CHECK(find_op(Format::VOP3, 0x101) == find_op(Format::VOP2, 0x01));  // v_add_f32
  CHECK(find_op(Format::VOP3, 0x141) == find_op(Format::VOP1, 0x01));  // v_mov_b32
  CHECK(find_op(Format::VOP3, 0x0c9) == find_op(Format::VOPC, 0xc9));  // v_cmp_lt_u32
  CHECK(find_op(Format::VOP3, 0x117) == nullptr);                      // v_madmk_f32 has no e64 form
  CHECK(find_op(Format::Unknown, 0) == nullptr);
  CHECK(find_op(Format::SOP1, 5000) == nullptr);
}
