// MFMA semantics against a CPU matrix product. Each test fills A, B and C
// with small integers (so every sum is exact in f32 and the comparison is
// bit-exact), lays them out in registers as the CDNA2 layouts say, runs the
// instruction decoded from llvm-mc's encoding and reads D back.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/float_ops.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

using namespace tessera::isa;

namespace {
struct Harness {
  Wave w{64, 64};
  SemanticsTable t;
  Harness() {
    register_valu_semantics(t);
    register_packed_semantics(t);
    w.set_exec(~0ull);
  }
  Instruction decode(std::vector<uint32_t> words) {
    words.resize(words.size() + 2, 0);
    return tessera::isa::decode(words.data(), words.size(), 0);
  }
  void run(const Instruction& in) {
    REQUIRE(in.op != nullptr);
    ExecFn fn = t.find(in.mnemonic());
    INFO(in.mnemonic());
    REQUIRE(fn != nullptr);
    fn(w, in);
  }
};

enum class Type { F32, F16, BF16, I8 };

struct Case {
  std::vector<uint32_t> words;
  int m, k, blocks;
  Type type;
};

// A value for element (block, row, col) of a matrix, small and distinct.
int value(int which, int b, int r, int c) { return ((which * 7 + b * 5 + r * 3 + c * 11) % 9) - 4; }

uint32_t encode(Type t, int v) {
  switch (t) {
    case Type::F32: return fp::bits(static_cast<float>(v));
    case Type::F16: return fp::f32_to_f16(static_cast<float>(v));
    case Type::BF16: return fp::f32_to_bf16(static_cast<float>(v));
    case Type::I8: return static_cast<uint8_t>(static_cast<int8_t>(v));
  }
  return 0;
}
int bits_of(Type t) { return t == Type::F32 ? 32 : t == Type::I8 ? 8 : 16; }

// Places A (which = 0, element (i,k)) or B (which = 1, element (k,j)) in v`reg`.
void place_input(Wave& w, unsigned reg, const Case& c, int which) {
  const int kpl = c.m * c.k * c.blocks / 64, bits = bits_of(c.type);
  for (int b = 0; b < c.blocks; ++b)
    for (int x = 0; x < c.m; ++x)
      for (int k = 0; k < c.k; ++k) {
        const int lane = x + c.m * (b + c.blocks * (k / kpl));
        const int bit = (k % kpl) * bits;
        const int v = which == 0 ? value(0, b, x, k) : value(1, b, k, x);
        uint32_t& word = w.v(reg + bit / 32)[lane];
        const uint32_t mask = bits == 32 ? ~0u : ((1u << bits) - 1) << (bit % 32);
        word = (word & ~mask) | ((encode(c.type, v) << (bit % 32)) & mask);
      }
}

// The register and lane holding D[b][i][j] (CDNA2 output layout).
void out_pos(const Case& c, int b, int i, int j, int& reg, int& lane) {
  if (c.m == 32) {
    reg = 16 * b + 4 * (i / 8) + i % 4;
    lane = j + 32 * ((i / 4) % 2);
  } else if (c.m == 16) {
    reg = 4 * b + i % 4;
    lane = j + 16 * (i / 4);
  } else {
    reg = i;
    lane = j + 4 * b;
  }
}

void check_case(const Case& c) {
  Harness h;
  const Instruction in = h.decode(c.words);
  place_input(h.w, in.src[0].reg, c, 0);
  place_input(h.w, in.src[1].reg, c, 1);
  const bool integer = c.type == Type::I8;
  for (int b = 0; b < c.blocks; ++b)
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.m; ++j) {
        int reg, lane;
        out_pos(c, b, i, j, reg, lane);
        const int cv = value(2, b, i, j);
        h.w.lanes(in.src[2], reg)[lane] = integer ? static_cast<uint32_t>(cv) : fp::bits(static_cast<float>(cv));
      }
  h.run(in);
  for (int b = 0; b < c.blocks; ++b)
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.m; ++j) {
        long want = value(2, b, i, j);
        for (int k = 0; k < c.k; ++k) want += static_cast<long>(value(0, b, i, k)) * value(1, b, k, j);
        int reg, lane;
        out_pos(c, b, i, j, reg, lane);
        const uint32_t got = h.w.lanes(in.dst[0], reg)[lane];
        INFO(in.mnemonic() << " block " << b << " D[" << i << "][" << j << "]");
        if (integer)
          REQUIRE(static_cast<int32_t>(got) == want);
        else
          REQUIRE(fp::f32(got) == static_cast<float>(want));
      }
}
}  // namespace

TEST_CASE("MFMA f32 shapes match a CPU matrix product", "[mfma]") {
  check_case({{0xd3c08000, 0x04020300}, 32, 1, 2, Type::F32});   // v_mfma_f32_32x32x1f32 a[0:31], v0, v1, a[0:31]
  check_case({{0xd3c18000, 0x04020300}, 16, 1, 4, Type::F32});   // v_mfma_f32_16x16x1f32
  check_case({{0xd3c28000, 0x04020300}, 4, 1, 16, Type::F32});   // v_mfma_f32_4x4x1f32
  check_case({{0xd3c48000, 0x04020300}, 32, 2, 1, Type::F32});   // v_mfma_f32_32x32x2f32
  check_case({{0xd3c58000, 0x04020300}, 16, 4, 1, Type::F32});   // v_mfma_f32_16x16x4f32
}

TEST_CASE("MFMA f16 shapes match a CPU matrix product", "[mfma]") {
  check_case({{0xd3cc8000, 0x04020500}, 32, 8, 1, Type::F16});   // v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
  check_case({{0xd3cd8000, 0x04020500}, 16, 16, 1, Type::F16});  // v_mfma_f32_16x16x16f16
  check_case({{0xd3c88000, 0x04020500}, 32, 4, 2, Type::F16});   // v_mfma_f32_32x32x4f16
  check_case({{0xd3c98000, 0x04020500}, 16, 4, 4, Type::F16});   // v_mfma_f32_16x16x4f16
  check_case({{0xd3ca8000, 0x04020500}, 4, 4, 16, Type::F16});   // v_mfma_f32_4x4x4f16
}

TEST_CASE("MFMA bf16 and i8 shapes match a CPU matrix product", "[mfma]") {
  check_case({{0xd3e88000, 0x04020300}, 32, 2, 2, Type::BF16});  // v_mfma_f32_32x32x2bf16 a[0:31], v0, v1, a[0:31]
  check_case({{0xd3ed8000, 0x04020300}, 16, 8, 1, Type::BF16});  // v_mfma_f32_16x16x8bf16
  check_case({{0xd3e38000, 0x04020500}, 32, 4, 2, Type::BF16});  // v_mfma_f32_32x32x4bf16_1k
  check_case({{0xd3d58000, 0x04020300}, 16, 16, 1, Type::I8});   // v_mfma_i32_16x16x16i8
}

// With values whose sums round, D must be C + (the f64 sum of the exact
// products in k order), rounded once to f32: a different summation order or
// rounding would change some of the results.
void check_rounding(const Case& c) {
  Harness h;
  const Instruction in = h.decode(c.words);
  std::mt19937 rng(7);
  auto rnd = [&] {
    const float mant = static_cast<float>(rng() % 2000001) / 1000000.0f - 1.0f;
    return std::ldexp(mant, static_cast<int>(rng() % 40) - 20);
  };
  const int kpl = c.m * c.k * c.blocks / 64;
  std::vector<float> a(c.blocks * c.m * c.k), b(a.size()), cm(c.blocks * c.m * c.m);
  for (float& x : a) x = rnd();
  for (float& x : b) x = rnd();
  for (float& x : cm) x = rnd();
  for (int blk = 0; blk < c.blocks; ++blk)
    for (int x = 0; x < c.m; ++x)
      for (int k = 0; k < c.k; ++k) {
        const int lane = x + c.m * (blk + c.blocks * (k / kpl));
        h.w.v(0 + k % kpl)[lane] = fp::bits(a[(blk * c.m + x) * c.k + k]);
        h.w.v(4 + k % kpl)[lane] = fp::bits(b[(blk * c.k + k) * c.m + x]);
      }
  for (int blk = 0; blk < c.blocks; ++blk)
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.m; ++j) {
        int reg, lane;
        out_pos(c, blk, i, j, reg, lane);
        h.w.lanes(in.src[2], reg)[lane] = fp::bits(cm[(blk * c.m + i) * c.m + j]);
      }
  h.run(in);
  unsigned inexact = 0;
  for (int blk = 0; blk < c.blocks; ++blk)
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.m; ++j) {
        double sum = 0;
        float naive = cm[(blk * c.m + i) * c.m + j];
        for (int k = 0; k < c.k; ++k) {
          const float x = a[(blk * c.m + i) * c.k + k], y = b[(blk * c.k + k) * c.m + j];
          sum += static_cast<double>(x) * static_cast<double>(y);
          naive += x * y;
        }
        const float want = static_cast<float>(static_cast<double>(cm[(blk * c.m + i) * c.m + j]) + sum);
        inexact += naive != want;
        int reg, lane;
        out_pos(c, blk, i, j, reg, lane);
        INFO(in.mnemonic() << " block " << blk << " D[" << i << "][" << j << "]");
        REQUIRE(h.w.lanes(in.dst[0], reg)[lane] == fp::bits(want));
      }
  CHECK(inexact > 0);  // the values do make the order of rounding matter
}

TEST_CASE("MFMA sums exact f64 products in k order and rounds once to f32", "[mfma]") {
  check_rounding({{0xd3c58000, 0x04020900}, 16, 4, 1, Type::F32});  // v_mfma_f32_16x16x4f32 a[0:3], v0, v4, a[0:3]
  check_rounding({{0xd3c48000, 0x04020900}, 32, 2, 1, Type::F32});  // v_mfma_f32_32x32x2f32 a[0:15], v0, v4, a[0:15]
  check_rounding({{0xd3c08000, 0x04020900}, 32, 1, 2, Type::F32});  // v_mfma_f32_32x32x1f32 a[0:31], v0, v4, a[0:31]
}

TEST_CASE("MFMA with an inline-constant C starts from that constant", "[mfma]") {
  Harness h;
  // v_mfma_f32_16x16x4f32 a[0:3], v0, v1, 0
  const Instruction in = h.decode({0xd3c58000, 0x02020300});
  for (int l = 0; l < 64; ++l) {
    h.w.v(0)[l] = fp::bits(1.0f);
    h.w.v(1)[l] = fp::bits(2.0f);
    for (int r = 0; r < 4; ++r) h.w.a(r)[l] = 0xdeadbeef;
  }
  h.run(in);
  for (int r = 0; r < 4; ++r)
    for (int l = 0; l < 64; ++l) REQUIRE(fp::f32(h.w.a(r)[l]) == 8.0f);  // K = 4 products of 1*2
}

TEST_CASE("MFMA cbsz/abid broadcast A and blgp rotates B", "[mfma]") {
  Harness h;
  // v_mfma_f32_4x4x1f32 a[0:3], v0, v1, a[0:3] cbsz:2 abid:1 blgp:3
  const Instruction in = h.decode({0xd3c28a00, 0x64020300});
  REQUIRE(in.cbsz == 2);
  REQUIRE(in.abid == 1);
  REQUIRE(in.blgp == 3);
  for (int l = 0; l < 64; ++l) {
    h.w.v(0)[l] = fp::bits(static_cast<float>(l));        // A[b][i][0] = 4b + i
    h.w.v(1)[l] = fp::bits(static_cast<float>(100 + l));  // B[b][0][j] = 100 + 4b + j
    for (int r = 0; r < 4; ++r) h.w.a(r)[l] = 0;
  }
  h.run(in);
  for (int b = 0; b < 16; ++b)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        const int a_block = (b & ~3) | 1;            // groups of 4 blocks read block 1 of the group
        const int b_lane = (j + 4 * b + 16) & 63;    // blgp 3: B lanes rotated down by 16
        const float want = static_cast<float>(4 * a_block + i) * static_cast<float>(100 + b_lane);
        REQUIRE(fp::f32(h.w.a(i)[j + 4 * b]) == want);
      }
}

TEST_CASE("MFMA f64 16x16x4 matches a CPU matrix product", "[mfma]") {
  Harness h;
  // v_mfma_f64_16x16x4f64 a[0:7], v[0:1], v[2:3], a[0:7]
  const Instruction in = h.decode({0xd3ee8000, 0x04020500});
  auto put64 = [&](unsigned reg, bool agpr, int lane, double v) {
    uint32_t* lo = agpr ? h.w.a(reg) : h.w.v(reg);
    uint32_t* hi = agpr ? h.w.a(reg + 1) : h.w.v(reg + 1);
    lo[lane] = static_cast<uint32_t>(fp::bits(v));
    hi[lane] = static_cast<uint32_t>(fp::bits(v) >> 32);
  };
  for (int x = 0; x < 16; ++x)
    for (int k = 0; k < 4; ++k) {
      put64(0, false, x + 16 * k, value(0, 0, x, k));
      put64(2, false, x + 16 * k, value(1, 0, k, x));
    }
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) put64(2 * (i % 4), true, j + 16 * (i / 4), value(2, 0, i, j));
  h.run(in);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = value(2, 0, i, j);
      for (int k = 0; k < 4; ++k) want += value(0, 0, i, k) * value(1, 0, k, j);
      const int lane = j + 16 * (i / 4);
      const unsigned reg = 2 * (i % 4);
      const uint64_t got = h.w.a(reg)[lane] | (static_cast<uint64_t>(h.w.a(reg + 1)[lane]) << 32);
      REQUIRE(fp::f64(got) == want);
    }
}
