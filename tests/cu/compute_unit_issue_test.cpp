// Issue turns (issue_period 4, CDNA2's rule; the parameter's default is 1):
// the arbiter considers one SIMD per cycle, SIMD s at cycles c with
// c % 4 == s, so one wave alone issues at most one instruction per four
// cycles; s_nop and s_waitcnt take their wave's turn but no unit, so any
// number of waves of the SIMD may issue them in one turn, while each unit's
// category (here the SALU) takes one instruction per cycle. Rig as in
// compute_unit_test.cpp: a wave's first instruction is in its buffer at
// cycle 11.
#include <catch2/catch.hpp>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

// 64 scalar instructions (no unit is ever busy for them) and s_endpgm.
AsmKernel scalar_stream(const std::string& line) {
  AsmKernel k;
  k.name = "scalars";
  for (int i = 0; i < 64; ++i) k.body += line + "\n";
  k.body += "s_endpgm";
  return k;
}

}  // namespace

// SIMD 0's turns are 0, 4, 8, 12...: the first instruction, ready at 11,
// issues at 12, the 64th at 12 + 63 * 4 = 264, s_endpgm at 268.
TEST_CASE("compute unit issue turns: one wave alone issues at most one instruction per four cycles", "[cu]") {
  CuRig rig(assemble(scalar_stream("s_add_u32 s5, s5, 1")), "scalars", quiet({{"issue_period", 4}}));
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 268);
  CHECK(rig.stat("instructions") == 65);
  CHECK(double(rig.stat("instructions")) / double(rig.stat("active_cycles")) <= 0.25);
}

// The same wave with every SIMD considered every cycle issues up to one a
// cycle (less while its two-block buffer waits for fetches): what the rule
// above takes away.
TEST_CASE("compute unit issue turns: with issue_period 1 one wave issues up to every cycle", "[cu]") {
  CuRig rig(assemble(scalar_stream("s_add_u32 s5, s5, 1")), "scalars", quiet({{"issue_period", 1}}));
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() < 11 + 2 * 64);
  CHECK(double(rig.stat("instructions")) / double(rig.stat("active_cycles")) > 0.5);
}

// s_nop 0 and s_waitcnt with nothing outstanding take the wave's turn.
TEST_CASE("compute unit issue turns: s_nop and s_waitcnt take their issue turn", "[cu]") {
  CuRig nops(assemble(scalar_stream("s_nop 0\ns_waitcnt vmcnt(0)")), "scalars", quiet({{"issue_period", 4}}));
  nops.launch(0, 64, 64);
  nops.run();
  CHECK(nops.stat("instructions") == 129);
  CHECK(nops.finish_cycle() == 12 + 128 * 4);
}

// A wave on SIMD 1 issues at cycles 1, 5, 9, 13...: with four one-wave
// workgroups on four SIMDs, wave k's first fetch blocks arrive at 11 + 2k
// (one fetch per cycle), and each issues 16 VALU ops, one per turn: the
// SIMDs run side by side and the CU issues up to one VALU per cycle.
TEST_CASE("compute unit issue turns: four SIMDs take turns, one VALU each per four cycles", "[cu]") {
  AsmKernel k;
  k.name = "sixteen";
  for (int i = 0; i < 16; ++i) k.body += "v_add_f32 v" + std::to_string(2 + i % 4) + ", v0, v1\n";
  k.body += "s_endpgm";
  CuRig rig(assemble(k), "sixteen", quiet({{"issue_period", 4}}));
  rig.launch(0, 4 * 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 4);
  std::vector<uint64_t> f;
  for (const auto& t : rig.dispatcher.finish_times) f.push_back(uint64_t(t.to_seconds() * 1e9 + 0.5));
  // Wave k on SIMD k: ready at 11 + 2k, first turn at the next c = k mod 4,
  // then 15 more ops and s_endpgm 4 cycles apart.
  std::vector<uint64_t> want;
  for (uint64_t w = 0; w < 4; ++w) {
    uint64_t first = 11 + 2 * w;
    while (first % 4 != w) ++first;
    want.push_back(first + 16 * 4);
  }
  CHECK(f == want);
  CHECK(rig.stat("issued_valu") == 64);
}

// Four waves on one SIMD (simds 1), one workgroup: every wave may issue an
// s_nop in each of the SIMD's turns (internal instructions use no unit, so no
// category limits them: on MI250 a kernel of s_nop issues about 7 per CU per
// cycle against 1 for v_mov_b32), but only one of them a SALU instruction
// per turn (the next test).
uint64_t four_waves_one_simd(const std::string& line) {
  CuRig rig(assemble(scalar_stream(line)), "scalars", quiet({{"issue_period", 4}, {"simds", 1}}));
  rig.launch(0, 4 * 64, 4 * 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.stat("instructions") == 4 * 65);
  return rig.finish_cycle();
}

// 65 turns of every wave (s_endpgm's included), the last wave's buffer
// filled a few cycles after the first's (one fetch per cycle).
TEST_CASE("compute unit issue turns: the waves of one SIMD issue their s_nop in the same turn", "[cu]") {
  const uint64_t c = four_waves_one_simd("s_nop 0");
  CHECK(c >= 12 + 64 * 4);
  CHECK(c <= 12 + 64 * 4 + 16);
}

// One SALU per cycle, so per turn of the one SIMD: 256 turns for the four
// waves' 256 s_add.
TEST_CASE("compute unit issue turns: the waves of one SIMD issue one SALU instruction per turn", "[cu]") {
  CHECK(four_waves_one_simd("s_add_u32 s5, s5, 1") >= 12 + 255 * 4);
}

// SALU and SMEM are one category with turns: two waves on one SIMD, each
// with 56 s_add and 8 s_load, issue one scalar instruction per turn between
// them, 128 turns (were they apart, a wave's s_load and the other's s_add
// would share eight of those turns).
TEST_CASE("compute unit issue turns: SALU and SMEM share one slot per cycle", "[cu]") {
  AsmKernel k;
  k.name = "scalars";
  for (int i = 0; i < 64; ++i) k.body += i % 8 == 0 ? "s_load_dword s6, s[0:1], 0x0\n" : "s_add_u32 s5, s5, 1\n";
  k.body += "s_endpgm";
  CuRig rig(assemble(k), "scalars", quiet({{"issue_period", 4}, {"simds", 1}}));
  rig.launch(0, 2 * 64, 2 * 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.stat("issued_smem") == 16);
  CHECK(rig.finish_cycle() >= 12 + 127 * 4);
}

// s_setprio: two one-wave workgroups share the CU's SALU (one scalar
// instruction per cycle for the whole CU), so where both are ready the
// arbiter's order decides who goes. Oldest first, workgroup 0 ends first;
// when workgroup 1's wave raises its priority it goes first and ends first.
// Returns the workgroup that finished first.
static uint32_t first_to_finish(bool raise) {
  AsmKernel k;
  k.name = raise ? "setprio" : "nosetprio";
  k.body = "s_cmp_eq_u32 s2, 1\ns_cbranch_scc0 BB_run\n";
  k.body += raise ? "s_setprio 3\n" : "s_setprio 0\n";
  k.body += "BB_run:\n";
  for (int i = 0; i < 64; ++i) k.body += "s_add_u32 s5, s5, 1\n";
  k.body += "s_endpgm";
  CuRig rig(assemble(k), k.name, quiet({{"issue_period", 1}}));
  rig.launch(0, 128, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 2);
  CHECK(rig.stat("instructions") == 67 + 68);  // workgroup 1 also issues its s_setprio
  return rig.dispatcher.finished[0].workgroup[0];
}

TEST_CASE("compute unit issue: without s_setprio the older wave goes first", "[cu]") {
  CHECK(first_to_finish(false) == 0);
}

TEST_CASE("compute unit issue: s_setprio puts a younger wave ahead of an older one", "[cu]") {
  CHECK(first_to_finish(true) == 1);
}
