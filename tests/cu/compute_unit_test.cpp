// The cycle-level compute unit: exact cycle counts for issue, dependencies,
// throughput, memory waits and barriers on hand-written gfx90a kernels.
//
// The rig (compute_unit_harness.h) runs at 1 GHz (a cycle is 1 ns) with an
// instruction fetch latency of 10 cycles, scalar memory 20 and vector memory
// 100, and launch_latency 0 unless a test says otherwise. With fetch_bytes 32
// and ib_depth 2 a wave fetches its first two blocks at cycles 0 and 1; they
// arrive at 10 and 11, so a kernel's first instruction issues at cycle 10.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

std::string repeat(const std::string& line, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line + "\n";
  return s;
}

json quiet(json extra = json::object()) {
  json p = {{"launch_latency", 0}};
  for (auto& [k, v] : extra.items()) p[k] = v;
  return p;
}

}  // namespace

// 16 v_add_f32 each reading the previous result: with valu_latency 8 each
// waits 8 cycles for its predecessor. Issue cycles 10, 18, ..., 10 + 15*8 =
// 130; s_endpgm at 131, and with nothing outstanding the workgroup finishes
// there. 15 waits of 7 cycles are dependency stalls; cycles 0..9 wait for the
// first fetch.
TEST_CASE("compute unit: a chain of dependent VALU ops waits valu_latency each", "[cu]") {
  AsmKernel k;
  k.name = "chain";
  k.body = repeat("v_add_f32 v1, v1, v1", 16) + "s_endpgm";
  CuRig rig(assemble(k), "chain", quiet({{"valu_latency", 8}}));
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  CHECK(rig.finish_cycle() == 131);
  CHECK(rig.stat("issued_valu") == 16);
  CHECK(rig.stat("instructions") == 17);
  CHECK(rig.stat("stall_dependency") == 15 * 7);
  CHECK(rig.stat("stall_no_instruction") == 10);
  CHECK(rig.stat("active_cycles") == 131);
}

// Independent VALU ops of one wave: the SIMD takes one every 4 cycles
// (64 lanes / 16 per cycle): issue at 10, 14, ..., 70; s_endpgm at 71.
TEST_CASE("compute unit: independent VALU ops issue every 4 cycles on one SIMD", "[cu]") {
  AsmKernel k;
  k.name = "indep";
  std::string body;
  for (int i = 0; i < 16; ++i) body += "v_add_f32 v" + std::to_string(2 + i % 4) + ", v0, v1\n";
  k.body = body + "s_endpgm";
  CuRig rig(assemble(k), "indep", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 71);
  CHECK(rig.stat("stall_structural") == 15 * 3);
  CHECK(rig.stat("stall_dependency") == 0);
}
