// The gfx90a floating-point helpers against known bit patterns.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "models/cu/isa/float_ops.h"

using namespace tessera::isa::fp;

TEST_CASE("f16 to f32 is exact for normals, denormals, inf and NaN", "[float_ops]") {
  CHECK(bits(f16_to_f32(0x3c00)) == 0x3f800000u);  // 1.0
  CHECK(bits(f16_to_f32(0xc000)) == 0xc0000000u);  // -2.0
  CHECK(bits(f16_to_f32(0x7bff)) == bits(65504.0f));
  CHECK(bits(f16_to_f32(0x0001)) == bits(0x1p-24f));  // smallest denormal
  CHECK(bits(f16_to_f32(0x03ff)) == bits(1023 * 0x1p-24f));
  CHECK(bits(f16_to_f32(0x8000)) == 0x80000000u);
  CHECK(bits(f16_to_f32(0x7c00)) == 0x7f800000u);
  CHECK(bits(f16_to_f32(0xfc00)) == 0xff800000u);
  CHECK(bits(f16_to_f32(0x7e01)) == 0x7fc02000u);  // quiet NaN, payload shifted
  CHECK(bits(f16_to_f32(0x7d00)) == 0x7fa00000u);  // signalling NaN stays signalling
}

TEST_CASE("f32 to f16 rounds to nearest even", "[float_ops]") {
  CHECK(f32_to_f16(1.0f) == 0x3c00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (down).
  CHECK(f32_to_f16(1.0f + 0x1p-11f) == 0x3c00);
  // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even): up.
  CHECK(f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3c02);
  CHECK(f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f) == 0x3c01);  // just above the tie
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);  // tie to even is inf
  CHECK(f32_to_f16(1e10f) == 0x7c00);
  CHECK(f32_to_f16(-INFINITY) == 0xfc00);
  CHECK(f32_to_f16(0x1p-24f) == 0x0001);
  CHECK(f32_to_f16(0x1p-25f) == 0x0000);        // tie to even: 0
  CHECK(f32_to_f16(0x1.8p-24f) == 0x0002);      // 1.5 units: tie to even 2
  CHECK(f32_to_f16(0x1.0001p-25f) == 0x0001);   // just above half a unit
  CHECK(f32_to_f16(-0x1p-30f) == 0x8000);
  CHECK(f32_to_f16(0x1.ffcp-15f) == 0x0400);    // rounds up into the smallest normal
  CHECK(f32_to_f16(f32(0x7fc00000u)) == 0x7e00);
  CHECK(f32_to_f16(f32(0xffc12345u)) == (0xfe00 | ((0x412345u >> 13) & 0x3ff)));
  CHECK(f32_to_f16(f32(0x7f800001u)) == 0x7e00);  // signalling NaN is quieted
}

TEST_CASE("f32 to f16 round-trips every f16", "[float_ops]") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if (is_nan16(static_cast<uint16_t>(h))) continue;
    REQUIRE(f32_to_f16(f16_to_f32(static_cast<uint16_t>(h))) == h);
    REQUIRE(f64_to_f16(static_cast<double>(f16_to_f32(static_cast<uint16_t>(h)))) == h);
  }
}

TEST_CASE("f32 to f16 toward zero and f64 to f16 in one rounding", "[float_ops]") {
  CHECK(f32_to_f16_rtz(1.0f + 3 * 0x1p-11f) == 0x3c01);
  CHECK(f32_to_f16_rtz(-1e10f) == 0xfbff);
  CHECK(f32_to_f16_rtz(INFINITY) == 0x7c00);
  CHECK(f32_to_f16_rtz(0x1.fp-24f) == 0x0001);
  // 1 + 2^-11 + 2^-40: in f32 the 2^-40 is lost and the tie rounds down; in
  // one rounding from f64 it rounds up.
  CHECK(f64_to_f16(1.0 + 0x1p-11 + 0x1p-40) == 0x3c01);
  CHECK(f64_to_f16(65520.0) == 0x7c00);
  CHECK(f64_to_f16(0x1p-25) == 0x0000);
  CHECK(f64_to_f16(0x1.00001p-25) == 0x0001);
}

TEST_CASE("bf16 conversions round to nearest even and keep NaN", "[float_ops]") {
  CHECK(bits(bf16_to_f32(0x3f80)) == 0x3f800000u);
  CHECK(f32_to_bf16(1.0f) == 0x3f80);
  CHECK(f32_to_bf16(f32(0x3f808000u)) == 0x3f80);  // tie, even stays
  CHECK(f32_to_bf16(f32(0x3f818000u)) == 0x3f82);  // tie, odd rounds up
  CHECK(f32_to_bf16(f32(0x3f808001u)) == 0x3f81);
  CHECK(f32_to_bf16(f32(0x7f7fffffu)) == 0x7f80);  // FLT_MAX rounds to inf
  CHECK(f32_to_bf16(f32(0x7f800001u)) == 0x7fc0);  // sNaN quieted, not turned into inf
  CHECK(f32_to_bf16(f32(0x00008000u)) == 0x0000);  // denormal tie to even
}

TEST_CASE("denormal flushing keeps the sign", "[float_ops]") {
  CHECK(bits(flush(f32(0x00000001u), false)) == 0u);
  CHECK(bits(flush(f32(0x807fffffu), false)) == 0x80000000u);
  CHECK(bits(flush(f32(0x807fffffu), true)) == 0x807fffffu);
  CHECK(bits(flush(f32(0x00800000u), false)) == 0x00800000u);
  CHECK(bits(flush(f64(0x000fffffffffffffull), false)) == 0ull);
  CHECK(flush16(0x83ff, false) == 0x8000);
  CHECK(flush16(0x0400, false) == 0x0400);
}

TEST_CASE("min and max follow the IEEE-mode NaN rules", "[float_ops]") {
  const float qnan = f32(0x7fc00001u), snan = f32(0x7f800001u);
  CHECK(min_f32(qnan, 2.0f, true) == 2.0f);
  CHECK(max_f32(3.0f, qnan, true) == 3.0f);
  CHECK(bits(min_f32(snan, 2.0f, true)) == 0x7fc00001u);
  CHECK(bits(max_f32(2.0f, snan, true)) == 0x7fc00001u);
  CHECK(min_f32(snan, 2.0f, false) == 2.0f);
  CHECK(bits(min_f32(0.0f, -0.0f, true)) == 0x80000000u);
  CHECK(bits(max_f32(-0.0f, 0.0f, true)) == 0u);
  CHECK(min_f64(-1.0, 5.0, true) == -1.0);
  CHECK(med3_f32(3.0f, 1.0f, 2.0f, true) == 2.0f);
  CHECK(med3_f32(1.0f, 2.0f, 3.0f, true) == 2.0f);
  CHECK(med3_f32(2.0f, 3.0f, 1.0f, true) == 2.0f);
  CHECK(med3_f32(qnan, 3.0f, 1.0f, true) == 1.0f);
}

TEST_CASE("transcendentals: rcp, rsq, sqrt, exp2, log2, sin, cos", "[float_ops]") {
  CHECK(rcp_f32(4.0f) == 0.25f);
  CHECK(bits(rcp_f32(-0.0f)) == 0xff800000u);
  CHECK(rcp_f32(INFINITY) == 0.0f);
  CHECK(rsq_f32(4.0f) == 0.5f);
  CHECK(std::isinf(rsq_f32(0.0f)));
  CHECK(std::isnan(rsq_f32(-1.0f)));
  CHECK(sqrt_f32(2.0f) == std::sqrt(2.0f));
  CHECK(exp2_f32(10.0f) == 1024.0f);
  CHECK(exp2_f32(-1.0f) == 0.5f);
  CHECK(std::isinf(exp2_f32(200.0f)));
  CHECK(log2_f32(8.0f) == 3.0f);
  CHECK(bits(log2_f32(0.0f)) == 0xff800000u);
  CHECK(std::isnan(log2_f32(-1.0f)));
  CHECK(sin_f32(0.25f) == 1.0f);
  CHECK(cos_f32(0.5f) == -1.0f);
  CHECK(sin_f32(3.25f) == 1.0f);  // whole revolutions drop out
  CHECK(std::isnan(sin_f32(INFINITY)));
  CHECK(rcp_f64(8.0) == 0.125);
  CHECK(rsq_f64(16.0) == 0.25);
}

TEST_CASE("fract, rndne, frexp and ldexp", "[float_ops]") {
  CHECK(fract_f32(2.75f) == 0.75f);
  CHECK(fract_f32(-0.25f) == 0.75f);
  CHECK(bits(fract_f32(-1e-10f)) == 0x3f7fffffu);  // clamped below 1.0
  CHECK(std::isnan(fract_f32(INFINITY)));
  CHECK(fract_f64(-1.5) == 0.5);
  CHECK(rndne_f32(2.5f) == 2.0f);
  CHECK(rndne_f32(3.5f) == 4.0f);
  CHECK(rndne_f32(-2.5f) == -2.0f);
  CHECK(bits(rndne_f32(-0.4f)) == 0x80000000u);
  CHECK(rndne_f32(2.6f) == 3.0f);
  CHECK(rndne_f64(-3.5) == -4.0);
  CHECK(frexp_exp_f32(8.0f) == 4);
  CHECK(frexp_mant_f32(-8.0f) == -0.5f);
  CHECK(frexp_exp_f32(INFINITY) == 0);
  CHECK(std::isinf(frexp_mant_f32(INFINITY)));
  CHECK(frexp_exp_f64(0x1p-1074) == -1073);
  CHECK(ldexp_f32(1.5f, 3) == 12.0f);
  CHECK(ldexp_f32(1.0f, -149) == 0x1p-149f);
  CHECK(std::isinf(ldexp_f32(1.0f, 2000000000)));
  CHECK(ldexp_f32(1.0f, -2000000000) == 0.0f);
}

TEST_CASE("integer conversions saturate and turn NaN into 0", "[float_ops]") {
  CHECK(cvt_i32(-3.9) == -3);
  CHECK(cvt_i32(3e9) == INT32_MAX);
  CHECK(cvt_i32(-3e9) == INT32_MIN);
  CHECK(cvt_i32(NAN) == 0);
  CHECK(cvt_i32(-INFINITY) == INT32_MIN);
  CHECK(cvt_u32(-5.0) == 0u);
  CHECK(cvt_u32(5e9) == UINT32_MAX);
  CHECK(cvt_u32(4294967295.0) == UINT32_MAX);
  CHECK(cvt_u32(7.99) == 7u);
  CHECK(cvt_u32(NAN) == 0u);
  CHECK(cvt_i16(40000.0f) == INT16_MAX);
  CHECK(cvt_u16(-1.0f) == 0);
}

TEST_CASE("class masks", "[float_ops]") {
  CHECK(class_of_f32(0x7f800001u) == kClassSNan);
  CHECK(class_of_f32(0xffc00000u) == kClassQNan);
  CHECK(class_of_f32(0xff800000u) == kClassNegInf);
  CHECK(class_of_f32(0x80000001u) == kClassNegDenorm);
  CHECK(class_of_f32(0x80000000u) == kClassNegZero);
  CHECK(class_of_f32(0x3f800000u) == kClassPosNormal);
  CHECK(class_of_f64(0x0000000000000001ull) == kClassPosDenorm);
  CHECK(class_of_f16(0x7c00) == kClassPosInf);
  CHECK(class_of_f16(0x7d00) == kClassSNan);
}

namespace {
// The f32 division sequence clang emits for a correctly rounded a / b
// (v_div_scale x2, v_rcp, five v_fma/v_mul, v_div_fmas, v_div_fixup), run on
// the helpers with denormals enabled, as the kernel enables them around it.
float divide_like_the_gpu(float a, float b) {
  const DivScaleF32 den = div_scale_f32(b, b, a);
  const DivScaleF32 num = div_scale_f32(a, b, a);
  const float r = rcp_f32(den.value);
  const float e = std::fma(-den.value, r, 1.0f);
  const float r1 = std::fma(e, r, r);
  const float m = num.value * r1;
  const float f2 = std::fma(-den.value, m, num.value);
  const float f3 = std::fma(f2, r1, m);
  const float f4 = std::fma(-den.value, f3, num.value);
  return div_fixup_f32(div_fmas_f32(f4, r1, f3, num.vcc), b, a);
}
double divide_like_the_gpu(double a, double b) {
  const DivScaleF64 den = div_scale_f64(b, b, a);
  const DivScaleF64 num = div_scale_f64(a, b, a);
  const double r = rcp_f64(den.value);
  double e = std::fma(-den.value, r, 1.0);
  double r1 = std::fma(r, e, r);
  e = std::fma(-den.value, r1, 1.0);
  r1 = std::fma(r1, e, r1);
  const double m = num.value * r1;
  const double f = std::fma(-den.value, m, num.value);
  return div_fixup_f64(div_fmas_f64(f, r1, m, num.vcc), b, a);
}
}  // namespace

TEST_CASE("the division helpers give correctly rounded quotients", "[float_ops]") {
  std::mt19937 rng(1234);
  std::uniform_int_distribution<uint32_t> any32;
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    const float a = f32(any32(rng)), b = f32(any32(rng));
    const float want = a / b, got = divide_like_the_gpu(a, b);
    if (std::isnan(want)) {
      REQUIRE(std::isnan(got));
    } else {
      INFO("a=" << std::hexfloat << a << " b=" << b);
      REQUIRE(bits(got) == bits(want));
      ++checked;
    }
  }
  CHECK(checked > 150000);
  // The scaling paths: huge quotients, denormal quotients, denormal inputs.
  const float cases[][2] = {{0x1p127f, 0x1p-20f}, {0x1p-126f, 0x1p20f}, {0x1p-140f, 3.0f},
                            {3.0f, 0x1p-140f},    {0x1.8p100f, 0x1p-27f}, {1e-40f, 7e-39f},
                            {0.0f, 5.0f},         {5.0f, 0.0f},           {INFINITY, 2.0f}};
  for (const auto& c : cases) CHECK(bits(divide_like_the_gpu(c[0], c[1])) == bits(c[0] / c[1]));
  CHECK(std::isnan(divide_like_the_gpu(0.0f, 0.0f)));

  std::uniform_int_distribution<uint64_t> any64;
  for (int i = 0; i < 100000; ++i) {
    const double a = f64(any64(rng)), b = f64(any64(rng));
    const double want = a / b, got = divide_like_the_gpu(a, b);
    if (std::isnan(want)) {
      REQUIRE(std::isnan(got));
    } else {
      INFO("a=" << std::hexfloat << a << " b=" << b);
      REQUIRE(bits(got) == bits(want));
    }
  }
}
