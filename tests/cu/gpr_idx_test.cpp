// GPR indexing (s_set_gpr_idx_on/off/mode/idx): while MODE.GPR_IDX_EN is set,
// M0[7:0] is added to the VGPR numbers of the VALU operands M0[15:12]
// selects. Encodings from llvm-mc-14; each instruction runs as the executors
// run it (models/cu/isa/wave_runner.h, execute()).
#include <catch2/catch.hpp>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"
#include "models/cu/isa/wave_runner.h"

using namespace tessera::isa;

namespace {

// Runs one instruction (its encoding word) on `w`.
void run_word(Wave& w, uint32_t word) {
  const uint32_t words[2] = {word, 0};
  DecodedOp op;
  op.inst = decode(words, 2, w.pc);
  REQUIRE(op.inst.op != nullptr);
  op.fn = semantics().find(op.inst.mnemonic());
  REQUIRE(op.fn != nullptr);
  execute(w, op);
}

// v[r] lane 0 = 100 + r, so a read shows which register it came from.
void fill_vgprs(Wave& w) {
  w.set_exec(~0ull);
  for (unsigned r = 0; r < w.num_vgprs(); ++r)
    for (unsigned l = 0; l < 64; ++l) w.v(r)[l] = 100 + r;
}

constexpr uint32_t kOnS0SrcDst = 0xbf110900;  // s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)
constexpr uint32_t kMovV1V2 = 0x7e020302;     // v_mov_b32_e32 v1, v2
constexpr uint32_t kModeSrc1 = 0xbf9d0002;    // s_set_gpr_idx_mode gpr_idx(SRC1)
constexpr uint32_t kIdxS3 = 0xbe803203;       // s_set_gpr_idx_idx s3
constexpr uint32_t kAddV1V2V3 = 0x68020702;   // v_add_u32_e32 v1, v2, v3
constexpr uint32_t kOff = 0xbf9c0000;         // s_set_gpr_idx_off
constexpr uint32_t kOn60Dst = 0xbf1108bc;     // s_set_gpr_idx_on 60, gpr_idx(DST)
constexpr uint32_t kGetMode = 0xb885f801;     // s_getreg_b32 s5, hwreg(HW_REG_MODE)

}  // namespace

TEST_CASE("gpr indexing: the index moves the selected operands, other instructions are untouched", "[gpr_idx]") {
  Wave w{16, 0};
  fill_vgprs(w);
  w.s(0) = 0x104;  // only bits 7:0 are the index
  w.s(tessera::isa::reg::kM0) = 0xffff0000u;
  run_word(w, kOnS0SrcDst);
  CHECK(w.gpr_idx_on);
  CHECK(w.m0() == (0xffff0000u | 0x9000u | 4u));  // M0[7:0] = 4, M0[15:12] = SRC0|DST, the rest kept
  run_word(w, kGetMode);
  CHECK((w.s(5) >> 27 & 1) == 1);  // MODE.GPR_IDX_EN
  run_word(w, kMovV1V2);                // v5 = v6
  CHECK(w.v(5)[0] == 106);
  CHECK(w.v(1)[0] == 101);

  run_word(w, kModeSrc1);  // only SRC1 from now on
  w.s(3) = 2;
  run_word(w, kIdxS3);     // index 2
  CHECK(w.m0() == (0xffff0000u | 0x2000u | 2u));
  run_word(w, kAddV1V2V3);  // v1 = v2 + v5
  CHECK(w.v(1)[0] == 102 + 106);

  run_word(w, kOff);
  CHECK_FALSE(w.gpr_idx_on);
  run_word(w, kMovV1V2);  // v1 = v2, no index
  CHECK(w.v(1)[0] == 102);
}

TEST_CASE("gpr indexing past the wave's VGPRs faults instead of touching other registers", "[gpr_idx]") {
  Wave w{16, 0};
  fill_vgprs(w);
  run_word(w, kOn60Dst);
  run_word(w, kMovV1V2);  // v61 of 16
  CHECK(w.status() == WaveStatus::Faulted);
  CHECK_THAT(w.fault_message(), Catch::Contains("v_mov_b32") && Catch::Contains("GPR indexing") &&
                                    Catch::Contains("beyond the wave's 16"));
}
