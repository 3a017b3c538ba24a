// The matrix-core rate (mfma_rate): every MFMA's cycles divided by it, so
// the dependent chain of compute_unit_test.cpp's MFMA case (a 64-cycle
// 32x32x8f16 issued at 11, the second at 75, s_endpgm at 76) shortens to
// 11 + 64 / rate + 1.
#include <catch2/catch.hpp>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

uint64_t chain_cycles(unsigned rate) {
  AsmKernel k;
  k.name = "mfma_rate";
  k.agprs = 16;
  k.body = R"(v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
s_endpgm)";
  CuRig rig(assemble(k), "mfma_rate", quiet({{"mfma_rate", rate}}));
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.stat("issued_mfma") == 2);
  return rig.finish_cycle();
}

}  // namespace

TEST_CASE("compute unit: mfma_rate 1 leaves an MFMA its 64 cycles", "[cu]") { CHECK(chain_cycles(1) == 76); }
TEST_CASE("compute unit: mfma_rate 2 halves an MFMA's cycles", "[cu]") { CHECK(chain_cycles(2) == 44); }
TEST_CASE("compute unit: mfma_rate 4 quarters an MFMA's cycles", "[cu]") { CHECK(chain_cycles(4) == 28); }
