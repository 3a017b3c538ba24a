// Packed math (VOP3P): op_sel/op_sel_hi/neg_lo selection of halves, packed
// f32 on register pairs, dot products. Encodings are llvm-mc-14's.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
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
  Harness() {
    register_valu_semantics(t);
    register_packed_semantics(t);
    w.set_exec(~0ull);
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
};
uint32_t pack(float lo, float hi) {
  return fp::f32_to_f16(lo) | (static_cast<uint32_t>(fp::f32_to_f16(hi)) << 16);
}
}  // namespace

TEST_CASE("v_pk_fma_f16 and v_pk_add_f16 with op_sel, op_sel_hi and neg_lo", "[valu_packed]") {
  Harness h;
  h.fill(1, [](int l) { return pack(l, -l); });
  h.fill(2, [](int l) { return pack(0.5f, 2.0f + l); });
  h.fill(3, [](int) { return pack(1.0f, 3.0f); });
  h.run({0xd38e4000, 0x1c0e0501});  // v_pk_fma_f16 v0, v1, v2, v3
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == pack(l * 0.5f + 1.0f, -l * (2.0f + l) + 3.0f));
  // v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]:
  // low = v1.hi + -(v2.lo), high = v1.lo + v2.hi.
  h.run({0xd38f4800, 0x50020501});
  for (int l = 0; l < 64; ++l) REQUIRE(h.w.v(0)[l] == pack(-l - 0.5f, l + 2.0f + l));
}

TEST_CASE("packed f32 on register pairs and v_pk_mov_b32", "[valu_packed]") {
  Harness h;
  for (unsigned r = 2; r < 8; ++r) h.fill(r, [r](int l) { return bits(static_cast<float>(r * 100 + l)); });
  h.run({0xd3b04000, 0x1c1a0902});  // v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]
  for (int l = 0; l < 64; ++l) {
    REQUIRE(h.w.v(0)[l] == bits(std::fma(200.0f + l, 400.0f + l, 600.0f + l)));
    REQUIRE(h.w.v(1)[l] == bits(std::fma(300.0f + l, 500.0f + l, 700.0f + l)));
  }
  // v_pk_mul_f32 v[0:1], v[2:3], v[4:5] op_sel:[1,0] op_sel_hi:[0,1]:
  // low = v3 * v4, high = v2 * v5.
  h.run({0xd3b14800, 0x10020902});
  for (int l = 0; l < 64; ++l) {
    REQUIRE(h.w.v(0)[l] == bits((300.0f + l) * (400.0f + l)));
    REQUIRE(h.w.v(1)[l] == bits((200.0f + l) * (500.0f + l)));
  }
  h.run({0xd3b34800, 0x18020902});  // v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[1,0]
  for (int l = 0; l < 64; ++l) {
    REQUIRE(h.w.v(0)[l] == h.w.v(3)[l]);
    REQUIRE(h.w.v(1)[l] == h.w.v(4)[l]);
  }
}

TEST_CASE("v_pk_add_u16 wraps each half / v_dot2_f32_f16 accumulates", "[valu_packed]") {
  Harness h;
  h.fill(1, [](int l) { return ((0xfff0u + static_cast<uint32_t>(l)) & 0xffffu) | (static_cast<uint32_t>(l) << 16); });
  h.fill(2, [](int) { return 0x00200003u; });
  h.run({0xd38a4000, 0x18020501});  // v_pk_add_u16 v0, v1, v2
  for (int l = 0; l < 64; ++l)
    REQUIRE(h.w.v(0)[l] == (((0xfff0u + l + 3u) & 0xffffu) | (static_cast<uint32_t>(l + 0x20) << 16)));
  h.fill(1, [](int l) { return pack(l, 2.0f); });
  h.fill(2, [](int) { return pack(0.5f, -4.0f); });
  h.fill(3, [](int l) { return bits(1000.0f + l); });
  h.run({0xd3a34000, 0x1c0e0501});  // v_dot2_f32_f16 v0, v1, v2, v3
  for (int l = 0; l < 64; ++l) REQUIRE(fp::f32(h.w.v(0)[l]) == l * 0.5f - 8.0f + 1000.0f + l);
}
