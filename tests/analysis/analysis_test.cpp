// The kernel analysis (models/cu/analysis/): hand-written kernels assembled
// with llvm-mc-14, one per rule (work-item ID fields, loops, divergent joins,
// EXEC writes, loads around stores, calls), and the compiled kernels of the
// suite (sgemm, transpose, mfma_gemm) whose LDS reads the docs describe.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "models/cu/analysis/analysis_listing.h"
#include "models/cu/analysis/cfg.h"
#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decoder.h"
#include "models/cu/isa/disassembler.h"

using namespace tessera;
using namespace tessera::analysis;

namespace {

int run(const std::string& command) { return std::system(command.c_str()); }

// Assembles `source` (gfx90a) and decodes its .text from address 0.
std::vector<isa::Instruction> assemble(const std::string& source) {
  char base[] = "/tmp/tessera_analysis_XXXXXX";
  const int fd = mkstemp(base);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string s = std::string(base) + ".s", o = std::string(base) + ".o", bin = std::string(base) + ".bin";
  std::ofstream(s) << source;
  const int mc = run("llvm-mc-14 -arch=amdgcn -mcpu=gfx90a -filetype=obj '" + s + "' -o '" + o + "'");
  const int copy = run("llvm-objcopy-14 -O binary --only-section=.text '" + o + "' '" + bin + "'");
  std::ifstream in(bin, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string& f : {std::string(base), s, o, bin}) unlink(f.c_str());
  REQUIRE(mc == 0);
  REQUIRE(copy == 0);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  std::vector<isa::Instruction> code;
  for (size_t i = 0; i < words.size();) {
    code.push_back(isa::decode(words.data() + i, words.size() - i, 4 * i));
    i += code.back().size / 4;
  }
  return code;
}

// A kernel with the kernarg pointer in s[0:1] and workgroup ID x in s2.
isa::KernelDescriptor descriptor() {
  isa::KernelDescriptor kd;
  kd.enable_kernarg_segment_ptr = true;
  kd.user_sgpr_count = 2;
  kd.enable_workgroup_id[0] = true;
  return kd;
}

struct Analysed {
  std::vector<isa::Instruction> code;
  KernelMarks marks;

  explicit Analysed(const std::string& source) : code(assemble(source)), marks(analyze(code, descriptor())) {
    REQUIRE(marks.marks.size() == code.size());
  }
  // The mark of the one instruction whose text is `text`.
  const InstructionMark& operator[](const std::string& text) const {
    const InstructionMark* found = nullptr;
    for (size_t i = 0; i < code.size(); ++i) {
      if (isa::disassemble(code[i]) != text) continue;
      INFO(text << " appears twice");
      REQUIRE(found == nullptr);
      found = &marks.marks[i];
    }
    INFO("no instruction '" << text << "' in:\n" << listing());
    REQUIRE(found != nullptr);
    return *found;
  }
  std::string listing() const {
    std::string out;
    for (size_t i = 0; i < code.size(); ++i)
      out += isa::disassemble(code[i]) + "   " + class_name(marks.marks[i].value) + " " +
             darsie_name(marks.marks[i].darsie) + " " + mark_reason(marks.marks[i]) + "\n";
    return out;
  }
};

}  // namespace

TEST_CASE("work-item ID fields of v0 are followed through masks, extracts and shifts", "[analysis]") {
  const Analysed a(R"(
    v_and_b32_e32 v1, 0x3ff, v0
    v_and_b32_e32 v2, 63, v0
    v_bfe_u32 v3, v0, 10, 10
    v_lshrrev_b32_e32 v4, 20, v0
    v_lshlrev_b32_e32 v5, 2, v1
    v_add_u32_e32 v6, s2, v5
    v_mov_b32_e32 v7, s2
    v_lshl_or_b32 v8, v3, 4, v1
    v_bfe_u32 v9, v0, 0, 6
    v_mbcnt_lo_u32_b32 v10, -1, 0
    v_and_b32_e32 v11, 0x3ff, v4
    v_lshrrev_b32_e32 v12, 6, v2
    v_and_b32_e32 v13, 0xffc00, v0
    v_lshrrev_b32_e32 v14, 10, v13
    v_mul_f32_e32 v15, v1, v7
    s_endpgm
  )");
  INFO(a.listing());
  CHECK(a["v_and_b32_e32 v1, 0x3ff, v0"].value == ValueClass::LaneX);
  CHECK(a["v_and_b32_e32 v1, 0x3ff, v0"].darsie == Darsie::CR);
  CHECK(a["v_and_b32_e32 v2, 63, v0"].value == ValueClass::LaneLow);
  CHECK(a["v_bfe_u32 v3, v0, 10, 10"].sources == kItemY);
  CHECK(a["v_bfe_u32 v3, v0, 10, 10"].darsie == Darsie::V);
  CHECK(a["v_lshrrev_b32_e32 v4, 20, v0"].sources == kItemZ);
  CHECK(a["v_lshlrev_b32_e32 v5, 2, v1"].value == ValueClass::LaneX);
  CHECK(a["v_add_u32_e32 v6, s2, v5"].value == ValueClass::LaneX);
  CHECK(a["v_mov_b32_e32 v7, s2"].darsie == Darsie::DR);
  CHECK(a["v_lshl_or_b32 v8, v3, 4, v1"].sources == (kItemY | kItemX));
  CHECK(a["v_bfe_u32 v9, v0, 0, 6"].value == ValueClass::LaneLow);
  CHECK(a["v_mbcnt_lo_u32_b32 v10, -1, 0"].darsie == Darsie::DR);  // the lane index: the same in every wave
  CHECK(a["v_and_b32_e32 v11, 0x3ff, v4"].sources == kItemZ);
  CHECK(a["v_lshrrev_b32_e32 v12, 6, v2"].value == ValueClass::Uniform);  // x bits 5:0 shifted out: zero
  CHECK(a["v_lshrrev_b32_e32 v14, 10, v13"].sources == kItemY);
  CHECK(a["v_mul_f32_e32 v15, v1, v7"].value == ValueClass::LaneX);
  CHECK(a["s_endpgm"].darsie == Darsie::V);
}

TEST_CASE("the launch rule resolves CR by the workgroup's shape, DR in any shape", "[analysis]") {
  CHECK(cr_skippable({16, 16, 1}));
  CHECK(cr_skippable({32, 8, 1}));
  CHECK(cr_skippable({8, 32, 1}));
  CHECK(cr_skippable({64, 4, 1}));
  CHECK_FALSE(cr_skippable({256, 1, 1}));  // 1D
  CHECK_FALSE(cr_skippable({64, 1, 1}));
  CHECK_FALSE(cr_skippable({24, 8, 1}));   // x not a power of two
  CHECK_FALSE(cr_skippable({128, 2, 1}));  // x above the wave size
  CHECK_FALSE(cr_skippable({16, 4, 4}));   // 3D
  InstructionMark dr, cr, v;
  dr.darsie = Darsie::DR, cr.darsie = Darsie::CR, v.darsie = Darsie::V;
  for (const WorkgroupShape s : {WorkgroupShape{256, 1, 1}, WorkgroupShape{16, 16, 1}, WorkgroupShape{24, 8, 1}}) {
    CHECK(skippable(dr, s));
    CHECK(skippable(cr, s) == cr_skippable(s));
    CHECK_FALSE(skippable(v, s));
  }
  CHECK(same_in_every_wave(ValueClass::LaneLow, {256, 1, 1}));  // x mod 64 is the lane
  CHECK_FALSE(same_in_every_wave(ValueClass::LaneX, {256, 1, 1}));
  CHECK(same_in_every_wave(ValueClass::LaneX, {16, 16, 1}));
  CHECK_FALSE(same_in_every_wave(ValueClass::LaneLow, {24, 8, 1}));
  CHECK_FALSE(same_in_every_wave(ValueClass::Varying, {64, 1, 1}));
}

TEST_CASE("a loop's values reach a fixed point through its back edge", "[analysis]") {
  const Analysed a(R"(
    v_mov_b32_e32 v1, 0
    v_mov_b32_e32 v2, 0
    s_mov_b32 s4, 0
  loop:
    v_add_u32_e32 v2, v2, v1
    v_bfe_u32 v1, v0, 10, 10
    v_add_u32_e32 v3, 1, v5
    v_mov_b32_e32 v5, s2
    s_add_u32 s4, s4, 1
    s_cmp_lt_u32 s4, 8
    s_cbranch_scc1 loop
    v_mov_b32_e32 v6, v2
    v_mov_b32_e32 v7, v3
    s_endpgm
  )");
  INFO(a.listing());
  // v1 is y from the second iteration on, so the sum is varying.
  CHECK(a["v_add_u32_e32 v2, v2, v1"].value == ValueClass::Varying);
  CHECK(a["v_mov_b32_e32 v6, v2"].value == ValueClass::Varying);
  // v5 is uniform on both edges into the loop.
  CHECK(a["v_add_u32_e32 v3, 1, v5"].darsie == Darsie::DR);
  CHECK(a["v_mov_b32_e32 v7, v3"].darsie == Darsie::DR);
  // A uniform loop counter: the branch does not make the body varying.
  CHECK(a["s_add_u32 s4, s4, 1"].value == ValueClass::Uniform);
  CHECK(a["s_add_u32 s4, s4, 1"].control == 0);
  CHECK(a["s_cbranch_scc1 65528"].never_skipped == std::string("branch"));
  CHECK(a["s_add_u32 s4, s4, 1"].never_skipped != nullptr);  // writes an SGPR and SCC
}

TEST_CASE("values defined under a divergent branch are varying at the join", "[analysis]") {
  SECTION("an if on a varying lane mask, through EXEC") {
    const Analysed a(R"(
      v_bfe_u32 v1, v0, 10, 10
      v_cmp_eq_u32_e32 vcc, 0, v1
      v_mov_b32_e32 v2, 1
      s_and_saveexec_b64 s[4:5], vcc
      s_cbranch_execz skip
      v_mov_b32_e32 v2, 2
      v_mov_b32_e32 v3, s2
    skip:
      s_or_b64 exec, exec, s[4:5]
      v_mov_b32_e32 v4, v2
      v_mov_b32_e32 v5, s2
      s_endpgm
    )");
    INFO(a.listing());
    CHECK(a["v_mov_b32_e32 v2, 1"].darsie == Darsie::DR);
    CHECK(a["v_mov_b32_e32 v2, 2"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v3, s2"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v4, v2"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v5, s2"].darsie == Darsie::DR);  // EXEC restored in full
    CHECK(a["s_and_saveexec_b64 s[4:5], vcc"].darsie == Darsie::V);
  }
  SECTION("a scalar branch on a value that differs between waves") {
    const Analysed a(R"(
      v_bfe_u32 v1, v0, 10, 10
      v_readfirstlane_b32 s3, v1
      s_cmp_eq_u32 s3, 0
      s_cbranch_scc1 other
      v_mov_b32_e32 v2, 1
      s_branch join
    other:
      v_mov_b32_e32 v2, 2
    join:
      v_mov_b32_e32 v3, v2
      v_mov_b32_e32 v4, s2
      s_endpgm
    )");
    INFO(a.listing());
    CHECK(a["v_mov_b32_e32 v2, 1"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v2, 2"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v3, v2"].value == ValueClass::Varying);
    CHECK(a["v_mov_b32_e32 v4, s2"].darsie == Darsie::DR);
  }
  SECTION("a scalar branch on a uniform value keeps both sides uniform") {
    const Analysed a(R"(
      s_cmp_eq_u32 s2, 0
      s_cbranch_scc1 other
      v_mov_b32_e32 v2, 1
      s_branch join
    other:
      v_mov_b32_e32 v2, 2
    join:
      v_mov_b32_e32 v3, v2
      s_endpgm
    )");
    INFO(a.listing());
    CHECK(a["v_mov_b32_e32 v2, 1"].darsie == Darsie::DR);
    CHECK(a["v_mov_b32_e32 v3, v2"].darsie == Darsie::DR);
  }
}

TEST_CASE("EXEC writes: partial masks merge old values, restored masks do not", "[analysis]") {
  const Analysed a(R"(
    v_and_b32_e32 v1, 0x3ff, v0
    v_cmp_gt_u32_e32 vcc, 8, v1
    s_and_saveexec_b64 s[4:5], vcc
    v_mov_b32_e32 v2, s2
    s_or_b64 exec, exec, s[4:5]
    v_mov_b32_e32 v3, v2
    v_bfe_u32 v4, v0, 10, 10
    v_cmpx_eq_u32_e32 vcc, 0, v4
    v_mov_b32_e32 v5, 0
    s_mov_b64 exec, s[4:5]
    v_mov_b32_e32 v6, 0
    v_cmp_eq_u32_e64 s[8:9], 1, v4
    s_mov_b64 exec, s[8:9]
    v_mov_b32_e32 v7, 0
    s_mov_b64 exec, -1
    v_mov_b32_e32 v8, 0
    v_cmp_eq_u32_e64 s[10:11], 2, v4
    s_mov_b64 exec, s[10:11]
    s_mov_b32 exec_lo, s4
    v_mov_b32_e32 v9, 0
    s_endpgm
  )");
  INFO(a.listing());
  // Under an EXEC that depends on x only, a uniform move is CR, not DR.
  CHECK(a["v_mov_b32_e32 v2, s2"].value == ValueClass::LaneX);
  CHECK(a["v_mov_b32_e32 v3, v2"].value == ValueClass::LaneX);
  CHECK(a["v_cmpx_eq_u32_e32 vcc, 0, v4"].never_skipped != nullptr);
  CHECK(a["v_mov_b32_e32 v5, 0"].value == ValueClass::Varying);  // lanes outside a varying EXEC keep v5
  CHECK(a["v_mov_b32_e32 v6, 0"].darsie == Darsie::DR);         // s[4:5] holds the full EXEC
  CHECK(a["s_or_b64 exec, exec, s[4:5]"].value == ValueClass::Uniform);
  CHECK(a["v_mov_b32_e32 v7, 0"].value == ValueClass::Varying);  // s[8:9] is a mask on y
  CHECK(a["v_mov_b32_e32 v8, 0"].darsie == Darsie::DR);
  CHECK(a["v_mov_b32_e32 v9, 0"].value == ValueClass::Varying);  // half of EXEC restored is not all of it
}

TEST_CASE("loads inherit their address's class unless their barrier section stores", "[analysis]") {
  SECTION("LDS") {
    const Analysed a(R"(
      v_and_b32_e32 v1, 0x3ff, v0
      v_lshlrev_b32_e32 v1, 2, v1
      ds_read_b32 v2, v1
      v_bfe_u32 v3, v0, 10, 10
      v_lshlrev_b32_e32 v3, 2, v3
      ds_read_b32 v4, v3
      v_mov_b32_e32 v9, 16
      ds_read_b32 v10, v9
      s_barrier
      ds_write_b32 v3, v2
      ds_read_b32 v5, v1 offset:64
      s_barrier
      ds_read_b32 v6, v1 offset:128
      s_endpgm
    )");
    INFO(a.listing());
    const InstructionMark& before = a["ds_read_b32 v2, v1"];
    CHECK(before.value == ValueClass::LaneX);
    CHECK(before.darsie == Darsie::CR);
    CHECK(before.load);
    CHECK(before.multicast_read);
    CHECK(multicast(before, {16, 16, 1}));
    CHECK_FALSE(multicast(before, {256, 1, 1}));
    CHECK(multicast(a["ds_read_b32 v10, v9"], {256, 1, 1}));  // the same address in every lane and wave
    CHECK(a["ds_read_b32 v10, v9"].darsie == Darsie::DR);
    CHECK_FALSE(a["ds_read_b32 v4, v3"].multicast_read);
    CHECK(a["ds_read_b32 v4, v3"].value == ValueClass::Varying);
    CHECK(a["ds_write_b32 v3, v2"].never_skipped == std::string("store"));
    const InstructionMark& racing = a["ds_read_b32 v5, v1 offset:64"];
    CHECK(racing.value == ValueClass::Varying);
    CHECK(racing.sources == (kItemX | kMemory));
    // Its value may change while the waves read it, but its address is the
    // lane's: two waves reading it in this section is no race unless a wave
    // also writes it here, so the read is still marked for multicast.
    CHECK(racing.read_sources == kItemX);
    CHECK(racing.multicast_read);
    const InstructionMark& after = a["ds_read_b32 v6, v1 offset:128"];
    CHECK(after.value == ValueClass::LaneX);
    CHECK(after.multicast_read);
  }
  SECTION("global memory: stores, atomics and the read-only kernarg segment") {
    const Analysed a(R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_load_dword s6, s[4:5], 0x0
      v_mov_b32_e32 v1, 0
      global_load_dword v2, v1, s[4:5]
      s_barrier
      global_load_dword v3, v1, s[4:5] offset:8
      global_store_dword v1, v2, s[4:5] offset:4
      s_barrier
      global_load_dword v4, v1, s[4:5] offset:16
      s_barrier
      global_atomic_add v5, v1, v2, s[4:5] glc
      s_endpgm
    )");
    INFO(a.listing());
    CHECK(a["s_load_dwordx2 s[4:5], s[0:1], 0x0"].value == ValueClass::Uniform);  // kernargs: never written
    CHECK(a["s_load_dword s6, s[4:5], 0x0"].value == ValueClass::Uniform);
    CHECK(a["global_load_dword v2, v1, s[4:5]"].darsie == Darsie::DR);
    CHECK(a["global_load_dword v3, v1, s[4:5] offset:8"].sources == kMemory);
    CHECK(a["global_load_dword v4, v1, s[4:5] offset:16"].darsie == Darsie::DR);
    CHECK(a["global_atomic_add v5, v1, v2, s[4:5] glc"].never_skipped == std::string("atomic"));
    CHECK(a["global_atomic_add v5, v1, v2, s[4:5] glc"].value == ValueClass::Varying);
  }
  SECTION("a scalar load from a written buffer in the same section") {
    const Analysed a(R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      s_load_dword s6, s[4:5], 0x0
      v_mov_b32_e32 v1, 0
      global_store_dword v1, v1, s[4:5]
      s_endpgm
    )");
    CHECK(a["s_load_dword s6, s[4:5], 0x0"].sources == kMemory);
    CHECK(a["s_load_dwordx2 s[4:5], s[0:1], 0x0"].sources == 0);
  }
  SECTION("a scalar store counts as a global store") {
    const Analysed a(R"(
      s_load_dwordx2 s[4:5], s[0:1], 0x0
      s_waitcnt lgkmcnt(0)
      v_mov_b32_e32 v1, 0
      global_load_dword v2, v1, s[4:5]
      s_store_dword s2, s[4:5], 0x0
      s_endpgm
    )");
    CHECK(a["global_load_dword v2, v1, s[4:5]"].sources == kMemory);
    CHECK(a["s_store_dword s2, s[4:5], 0x0"].never_skipped == std::string("store"));
  }
}

TEST_CASE("calls clobber every register, computed jumps are not analysed", "[analysis]") {
  const Analysed called(R"(
    v_mov_b32_e32 v1, s2
    s_getpc_b64 s[4:5]
    s_swappc_b64 s[30:31], s[4:5]
    v_mov_b32_e32 v2, s2
    v_mov_b32_e32 v3, 0
    s_endpgm
  )");
  INFO(called.listing());
  CHECK(called["v_mov_b32_e32 v1, s2"].darsie == Darsie::DR);
  CHECK(called["s_swappc_b64 s[30:31], s[4:5]"].never_skipped == std::string("call"));
  CHECK(called["v_mov_b32_e32 v2, s2"].sources & kCall);
  CHECK(called["v_mov_b32_e32 v3, 0"].value == ValueClass::Varying);  // EXEC after a call is unknown
  const Analysed jump(R"(
    s_getpc_b64 s[4:5]
    s_setpc_b64 s[4:5]
    v_mov_b32_e32 v1, 0
    s_endpgm
  )");
  CHECK(jump.marks.unanalysed.find("s_setpc_b64") != std::string::npos);
  for (const InstructionMark& m : jump.marks.marks) CHECK(m.darsie == Darsie::V);
}

TEST_CASE("code the analysis cannot take is refused with the reason, not crashed on", "[analysis]") {
  const isa::KernelDescriptor kd = descriptor();
  CHECK(analyze({}, kd).unanalysed == "no instructions");
  // A branch into the middle of a two-dword instruction, and one past the end.
  std::vector<isa::Instruction> code = assemble("s_branch 1\n s_mov_b32 s0, 0x12345678\n s_endpgm\n");
  CHECK(analyze(code, kd).unanalysed.find("outside the kernel's code") != std::string::npos);
  code = assemble("s_branch 100\n s_endpgm\n");
  CHECK(analyze(code, kd).unanalysed.find("outside the kernel's code") != std::string::npos);
  // Unknown words.
  isa::Instruction unknown;
  CHECK(analyze({unknown}, kd).unanalysed.find("no gfx90a instruction") != std::string::npos);
  // More blocks than the analysis takes: a long chain of conditional branches.
  std::string many;
  for (size_t i = 0; i <= kMaxBlocks; ++i) many += "s_cbranch_scc1 0\n";
  many += "s_endpgm\n";
  const KernelMarks big = analyze(assemble(many), kd);
  CHECK(big.unanalysed.find("basic blocks") != std::string::npos);
  CHECK(big.marks.size() == kMaxBlocks + 2);
}

TEST_CASE("hardware IDs, scratch and cross-lane operations are never skipped", "[analysis]") {
  const Analysed a(R"(
    s_getreg_b32 s4, hwreg(HW_REG_HW_ID)
    v_mov_b32_e32 v1, s4
    v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
    v_mov_b32_e32 v3, 0
    ds_swizzle_b32 v4, v3 offset:swizzle(SWAP,16)
    scratch_load_dword v5, v3, off
    v_add_co_u32_e32 v6, vcc, s2, v3
    s_endpgm
  )");
  INFO(a.listing());
  CHECK(a["s_getreg_b32 s4, hwreg(HW_REG_HW_ID)"].never_skipped == std::string("hardware ID or clock"));
  CHECK(a["v_mov_b32_e32 v1, s4"].sources == kWaveId);
  CHECK(a["v_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"].never_skipped ==
        std::string("cross-lane"));
  CHECK(a["ds_swizzle_b32 v4, v3 offset:swizzle(SWAP,16)"].never_skipped == std::string("cross-lane"));
  CHECK(a["ds_swizzle_b32 v4, v3 offset:swizzle(SWAP,16)"].value == ValueClass::Uniform);
  CHECK(a["scratch_load_dword v5, v3, off"].never_skipped == std::string("scratch"));
  // A uniform value with a carry-out into VCC: DR as a value, but not skipped.
  CHECK(a["v_add_co_u32_e32 v6, vcc, s2, v3"].value == ValueClass::Uniform);
  CHECK(a["v_add_co_u32_e32 v6, vcc, s2, v3"].darsie == Darsie::V);
}

TEST_CASE("instructions that write part of a register keep the rest's sources", "[analysis]") {
  const Analysed a(R"(
    v_bfe_u32 v1, v0, 10, 10
    v_mov_b32_e32 v2, v1
    v_mov_b32_e32 v4, v1
    v_mov_b32_e32 v3, 0
    v_mov_b32_sdwa v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
    ds_read_u16_d16_hi v4, v3
    v_mov_b32_e32 v5, v1
    v_writelane_b32 v5, s2, 0
    v_mov_b32_e32 v6, v1
    v_mov_b32_e32 v6, 0
    s_endpgm
  )");
  INFO(a.listing());
  CHECK(a["v_mov_b32_sdwa v2, v3 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD"].sources == kItemY);
  CHECK(a["ds_read_u16_d16_hi v4, v3"].sources == kItemY);
  CHECK(a["v_writelane_b32 v5, s2, 0"].sources == kItemY);
  CHECK(a["v_mov_b32_e32 v6, 0"].darsie == Darsie::DR);  // a whole write under a full EXEC replaces the value
}

namespace {

const std::string kKernels = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/";

struct KernelUnderTest {
  isa::CodeObject object;
  const isa::KernelInfo* kernel;
  std::vector<isa::Instruction> code;
  KernelMarks marks;
  KernelUnderTest(const std::string& file, const std::string& name)
      : object(isa::CodeObject::load_file(kKernels + file)), kernel(object.find_kernel(name)) {
    REQUIRE(kernel);
    code = kernel_code(object, *kernel);
    marks = analyze(code, kernel->descriptor);
    REQUIRE(marks.unanalysed.empty());
  }
  std::vector<const InstructionMark*> lds_reads() const {
    std::vector<const InstructionMark*> out;
    for (const InstructionMark& m : marks.marks)
      if (m.lds_read) out.push_back(&m);
    return out;
  }
  std::string listing() const {
    std::ostringstream out;
    write_analysis(object, kernel->name, out);
    return out.str();
  }
};

}  // namespace

TEST_CASE("sgemm: the B-tile reads from LDS depend on x only and are marked, the A-tile reads are not",
          "[analysis][kernels]") {
  for (const char* name : {"sgemm_tile16", "sgemm_tile32"}) {
    const KernelUnderTest k("sgemm.hsaco", name);
    INFO(k.listing());
    size_t b_tile = 0, a_tile = 0;
    for (const InstructionMark* m : k.lds_reads()) {
      if (m->multicast_read) {
        ++b_tile;
        CHECK(m->multicast_class == ValueClass::LaneX);
        CHECK(m->darsie == Darsie::CR);
        CHECK(multicast(*m, k.kernel->reqd_workgroup_size[0] == 16 ? WorkgroupShape{16, 16, 1} : WorkgroupShape{32, 32, 1}));
      } else {
        ++a_tile;
        CHECK(m->read_sources == kItemY);  // ta[ly * tile + j]
      }
    }
    CHECK(b_tile > 0);
    CHECK(a_tile > 0);
  }
}

TEST_CASE("transpose and mfma_gemm: what their reads depend on", "[analysis][kernels]") {
  const KernelUnderTest t("transpose.hsaco", "transpose");
  INFO(t.listing());
  REQUIRE(!t.lds_reads().empty());
  for (const InstructionMark* m : t.lds_reads()) CHECK_FALSE(m->multicast_read);  // tile[lx][ly]: y decides the address
  const KernelUnderTest g("mfma_gemm.hsaco", "mfma_gemm_f32");
  INFO(g.listing());
  CHECK(g.lds_reads().empty());  // its A and B fragments come straight from global memory
  size_t mfma = 0;
  for (size_t i = 0; i < g.code.size(); ++i) {
    if (!(g.code[i].op->flags & isa::kMfma)) continue;
    ++mfma;
    CHECK(g.marks.marks[i].darsie == Darsie::V);  // its operands are loads the same section's stores may change
  }
  CHECK(mfma > 0);
}

TEST_CASE("every kernel of the suite is analysed, the same way twice", "[analysis][kernels]") {
  size_t kernels = 0, dr = 0, cr = 0;
  for (const char* file : {"vector_add", "saxpy", "reduction", "scan", "sgemm", "mfma_gemm", "conv2d", "stencil2d",
                           "transpose", "spmv", "pruned_gemv", "relu", "fir", "histogram", "bfs", "babelstream",
                           "nbody", "kmeans", "const_table", "libm", "program_globals"}) {
    const isa::CodeObject object = isa::CodeObject::load_file(kKernels + file + ".hsaco");
    for (const isa::KernelInfo& kernel : object.kernels()) {
      INFO(file << ": " << kernel.name);
      const KernelMarks once = analyze_kernel(object, kernel), twice = analyze_kernel(object, kernel);
      CHECK(once.unanalysed.empty());
      REQUIRE(once.marks.size() == twice.marks.size());
      for (size_t i = 0; i < once.marks.size(); ++i) {
        CHECK(once.marks[i].sources == twice.marks[i].sources);
        CHECK(once.marks[i].darsie == twice.marks[i].darsie);
        dr += once.marks[i].darsie == Darsie::DR;
        cr += once.marks[i].darsie == Darsie::CR;
      }
      ++kernels;
    }
  }
  CHECK(kernels > 25);
  // private_index reaches registers through M0, which the analysis does not follow.
  const isa::CodeObject indexed = isa::CodeObject::load_file(kKernels + "private_index.hsaco");
  const KernelMarks marks = analyze_kernel(indexed, indexed.kernels().at(0));
  CHECK(marks.unanalysed.find("through M0") != std::string::npos);
  CHECK(dr > 0);
  CHECK(cr > 0);
}

TEST_CASE("the pipelined MFMA GEMM's listing counts its reads marked for pairs of waves", "[analysis][kernels]") {
  const KernelUnderTest k("mfma_gemm_lds_pipe.hsaco", "mfma_gemm_lds_pipe_2x2");
  size_t every_wave = 0, pairs = 0;
  for (const InstructionMark* m : k.lds_reads()) {
    every_wave += m->multicast_read;
    pairs += !m->multicast_read && m->multicast_pair;
  }
  REQUIRE(every_wave > 0);
  REQUIRE(pairs > 0);
  const std::string summary = "LDS reads " + std::to_string(k.lds_reads().size()) + ", multicast " +
                              std::to_string(every_wave) + ", in pairs of waves " + std::to_string(pairs) + "\n";
  CHECK(k.listing().find(summary) != std::string::npos);
}
