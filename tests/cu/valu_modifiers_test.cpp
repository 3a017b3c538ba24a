// Operand modifiers of the VALU encodings: VOP3 abs/neg/clamp/omod, DPP lane
// permutations with row/bank masks and bound_ctrl, SDWA selects. Encodings
// are llvm-mc-14's for the assembly in the comments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/float_ops.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

using namespace tessera::isa;
using fp::bits;

namespace {
struct Harness {
  Wave w{16, 0};
  SemanticsTable t;
  std::mt19937 rng{7};
  Harness() {
    register_valu_semantics(t);
    w.set_exec(~0ull);
    for (unsigned r = 0; r < 4; ++r)
      for (int l = 0; l < kWaveSize; ++l) w.v(r)[l] = rng();
  }
  void run(std::vector<uint32_t> words) {
    words.resize(words.size() + 2, 0);
    const Instruction in = decode(words.data(), words.size(), 0);
    REQUIRE(in.op != nullptr);
    ExecFn fn = t.find(in.mnemonic());
    REQUIRE(fn != nullptr);
    fn(w, in);
  }
  void fill(unsigned reg, const std::function<uint32_t(int)>& f) {
    for (int l = 0; l < kWaveSize; ++l) w.v(reg)[l] = f(l);
  }
  std::vector<uint32_t> snapshot(unsigned reg) const { return {w.v(reg), w.v(reg) + kWaveSize}; }
};
float F(uint32_t b) { return fp::f32(b); }
}  // namespace

TEST_CASE("VOP3 abs, neg and clamp / omod multiplies by 2 or 0.5", "[valu_modifiers]") {
  Harness h;
  h.fill(1, [](int l) { return bits((l - 32) / 16.0f); });
  h.fill(2, [](int l) { return bits(l / 20.0f); });
  h.run({0xd1018100, 0x20020501});  // v_add_f32_e64 v0, -|v1|, v2 clamp
  for (int l = 0; l < 64; ++l) {
    const float r = -std::fabs((l - 32) / 16.0f) + l / 20.0f;
    REQUIRE(h.w.v(0)[l] == bits(std::min(std::max(r, 0.0f), 1.0f)));
  }
  h.run({0xd1050000, 0x08020501});  // v_mul_f32_e64 v0, v1, v2 mul:2
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == bits(F(h.w.v(1)[l]) * F(h.w.v(2)[l]) * 2.0f));
  h.run({0xd1050000, 0x18020501});  // v_mul_f32_e64 v0, v1, v2 div:2
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == bits(F(h.w.v(1)[l]) * F(h.w.v(2)[l]) * 0.5f));
  h.fill(1, [](int l) { return l == 3 ? 0x7fc00000u : bits(5.0f); });
  h.run({0xd1018100, 0x20020501});  // NaN clamps to 0
  REQUIRE(h.w.v(0)[3] == 0u);
}

TEST_CASE("DPP quad_perm, row_shr with and without bound_ctrl", "[valu_modifiers]") {
  Harness h;
  h.fill(1, [](int l) { return 100u + l; });
  h.run({0x7e0002fa, 0xff001b01});  // v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0]
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == 100u + ((l & ~3) | (3 - (l & 3))));

  auto before = h.snapshot(0);
  h.run({0x7e0002fa, 0xff011101});  // v_mov_b32_dpp v0, v1 row_shr:1
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == (l % 16 == 0 ? before[l] : 100u + l - 1));
  h.run({0x7e0002fa, 0xff091101});  // v_mov_b32_dpp v0, v1 row_shr:1 bound_ctrl (BC=1)
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == (l % 16 == 0 ? 0u : 100u + l - 1));

  // A source lane outside EXEC is invalid too: not written without bound_ctrl.
  h.w.set_exec(~(1ull << 5));
  before = h.snapshot(0);
  h.run({0x7e0002fa, 0xff001b01});  // quad_perm:[3,2,1,0]: lane 6 reads lane 5
  REQUIRE(h.w.v(0)[6] == before[6]);
  REQUIRE(h.w.v(0)[5] == before[5]);
  REQUIRE(h.w.v(0)[7] == 104u);
}

TEST_CASE("DPP row_bcast:15 with a row mask, wave_shr, row_mirror with a bank mask", "[valu_modifiers]") {
  Harness h;
  h.fill(1, [](int l) { return bits(static_cast<float>(l)); });
  h.fill(2, [](int l) { return bits(1000.0f * l); });
  auto before = h.snapshot(0);
  h.run({0x020004fa, 0xaf014201});  // v_add_f32_dpp v0, v1, v2 row_bcast:15 row_mask:0xa bank_mask:0xf
  for (int l = 0; l < 64; ++l) {
    const int row = l / 16;
    if (row == 1 || row == 3)
      REQUIRE(F(h.w.v(0)[l]) == static_cast<float>(16 * row - 1) + 1000.0f * l);
    else
      REQUIRE(h.w.v(0)[l] == before[l]);
  }
  h.fill(1, [](int l) { return 100u + l; });
  before = h.snapshot(0);
  h.run({0x7e0002fa, 0xff013801});  // v_mov_b32_dpp v0, v1 wave_shr:1
  REQUIRE(h.w.v(0)[0] == before[0]);
  for (int l = 1; l < 64; ++l) REQUIRE(h.w.v(0)[l] == 100u + l - 1);
  before = h.snapshot(0);
  h.run({0x7e0002fa, 0xf5014001});  // v_mov_b32_dpp v0, v1 row_mirror bank_mask:0x5
  for (int l = 0; l < 64; ++l) {
    const int bank = (l % 16) / 4;
    if (bank == 0 || bank == 2)
      REQUIRE(h.w.v(0)[l] == 100u + ((l & ~15) | (15 - (l & 15))));
    else
      REQUIRE(h.w.v(0)[l] == before[l]);
  }
}

TEST_CASE("SDWA source selects, sign extension and destination selects", "[valu_modifiers]") {
  Harness h;
  auto before = h.snapshot(0);
  // v_add_u32_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:WORD_0
  h.run({0x680004f9, 0x04011501});
  for (int l = 0; l < 64; ++l) {
    const uint32_t r = ((h.w.v(1)[l] >> 8) & 0xff) + (h.w.v(2)[l] & 0xffff);
    REQUIRE(h.w.v(0)[l] == ((before[l] & 0xffffu) | ((r & 0xffffu) << 16)));
  }
  h.run({0x7e0002f9, 0x00080601});  // v_mov_b32_sdwa v0, sext(v1) dst_sel:DWORD src0_sel:BYTE_0
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == static_cast<uint32_t>(static_cast<int8_t>(h.w.v(1)[l])));
  h.run({0x7e0002f9, 0x00060901});  // v_mov_b32_sdwa v0, v1 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT
  for (int l = 0; l < 64; ++l) {
    const uint32_t byte = h.w.v(1)[l] & 0xff;
    REQUIRE(h.w.v(0)[l] == ((byte << 8) | ((byte & 0x80) ? 0xffff0000u : 0u)));
  }
  h.fill(1, [](int l) { return static_cast<uint32_t>(fp::f32_to_f16(static_cast<float>(l))) << 16 | 0x1111u; });
  h.fill(2, [](int) { return 0x22220000u | fp::f32_to_f16(0.5f); });
  // v_add_f16_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_0
  h.run({0x3e0004f9, 0x04050501});
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == static_cast<uint32_t>(fp::f32_to_f16(l + 0.5f)) << 16);
}
