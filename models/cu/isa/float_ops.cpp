#include "models/cu/isa/float_ops.h"

#include <algorithm>
#include <cfloat>
#include <climits>
#include <limits>

namespace tessera::isa::fp {

// --- 16-bit formats ---

float f16_to_f32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // Zero or denormal: mant * 2^-24, exact in f32.
    const float mag = static_cast<float>(mant) * 0x1p-24f;
    return f32(bits(mag) | sign);
  }
  if (exp == 31) return f32(sign | 0x7f800000u | (mant << 13));  // inf, NaN (payload kept)
  return f32(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t f32_to_f16(float f) {
  const uint32_t b = bits(f);
  const uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  const uint32_t a = b & 0x7fffffffu;
  if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
  if (a >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 2^16 (and inf)
  if (a >= 0x38800000u) {
    // Normal f16 range: rebias the exponent, round away 13 bits to nearest
    // even; a carry into the exponent (up to inf) is the right answer.
    const uint32_t m = a - 0x38000000u;
    return static_cast<uint16_t>(sign | ((m + 0xfffu + ((m >> 13) & 1u)) >> 13));
  }
  const uint32_t e = a >> 23;
  if (e < 102) return sign;  // below half the smallest denormal
  const uint32_t mant = (a & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126 - e;  // 14..24: value in units of 2^-24
  uint32_t q = mant >> shift;
  const uint32_t rem = mant & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  return static_cast<uint16_t>(sign | q);
}

uint16_t f32_to_f16_rtz(float f) {
  const uint32_t b = bits(f);
  const uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  const uint32_t a = b & 0x7fffffffu;
  if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
  if (a == 0x7f800000u) return static_cast<uint16_t>(sign | 0x7c00u);
  if (a >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7bffu);
  if (a >= 0x38800000u) return static_cast<uint16_t>(sign | ((a - 0x38000000u) >> 13));
  const uint32_t e = a >> 23;
  if (e < 102) return sign;
  const uint32_t mant = (a & 0x7fffffu) | 0x800000u;
  return static_cast<uint16_t>(sign | (mant >> (126 - e)));
}

uint16_t f64_to_f16(double d) {
  const uint64_t b = bits(d);
  const uint16_t sign = static_cast<uint16_t>((b >> 48) & 0x8000u);
  const uint64_t a = b & 0x7fffffffffffffffull;
  if (a > 0x7ff0000000000000ull) return static_cast<uint16_t>(sign | 0x7e00u | ((a >> 42) & 0x3ffu));
  if (a >= 0x40f0000000000000ull) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 2^16
  if (a >= 0x3f10000000000000ull) {  // >= 2^-14
    const uint64_t m = a - (static_cast<uint64_t>(1023 - 15) << 52);
    return static_cast<uint16_t>(sign | ((m + ((1ull << 41) - 1) + ((m >> 42) & 1u)) >> 42));
  }
  const uint64_t e = a >> 52;
  if (e + 53 < 1051) return sign;  // shift > 53: below half the smallest denormal
  const uint64_t mant = (a & 0xfffffffffffffull) | (1ull << 52);
  const uint64_t shift = 1051 - e;  // 43..53
  uint64_t q = mant >> shift;
  const uint64_t rem = mant & ((1ull << shift) - 1);
  const uint64_t half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  return static_cast<uint16_t>(sign | q);
}

uint16_t f32_to_bf16(float f) {
  const uint32_t b = bits(f);
  if (is_nan_bits(b)) return static_cast<uint16_t>((b >> 16) | 0x40u);
  return static_cast<uint16_t>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
}

// --- min/max ---

namespace {
template <typename T>
T min_impl(T a, T b, bool ieee) {
  if (ieee) {
    if (is_snan_bits(bits(a))) return quiet(a);
    if (is_snan_bits(bits(b))) return quiet(b);
  }
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename T>
T max_impl(T a, T b, bool ieee) {
  if (ieee) {
    if (is_snan_bits(bits(a))) return quiet(a);
    if (is_snan_bits(bits(b))) return quiet(b);
  }
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
}  // namespace

float min_f32(float a, float b, bool ieee) { return min_impl(a, b, ieee); }
float max_f32(float a, float b, bool ieee) { return max_impl(a, b, ieee); }
double min_f64(double a, double b, bool ieee) { return min_impl(a, b, ieee); }
double max_f64(double a, double b, bool ieee) { return max_impl(a, b, ieee); }

float med3_f32(float a, float b, float c, bool ieee) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c)) return min_f32(min_f32(a, b, ieee), c, ieee);
  const float hi = max_f32(max_f32(a, b, ieee), c, ieee);
  if (hi == a) return max_f32(b, c, ieee);
  if (hi == b) return max_f32(a, c, ieee);
  return max_f32(a, b, ieee);
}

// --- Transcendentals ---

float rcp_f32(float x) { return 1.0f / x; }
float rsq_f32(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }
float sqrt_f32(float x) { return std::sqrt(x); }
float exp2_f32(float x) { return static_cast<float>(std::exp2(static_cast<double>(x))); }
float log2_f32(float x) { return static_cast<float>(std::log2(static_cast<double>(x))); }

namespace {
// 2*pi times the fraction of x, in double: the argument is in revolutions, so
// whole turns drop out exactly before the trigonometric function sees it.
double turns_to_radians(float x) {
  const double d = static_cast<double>(x);
  return 6.283185307179586476925 * (d - std::floor(d));
}
}  // namespace

float sin_f32(float x) {
  if (!std::isfinite(x)) return f32(kQuietNan32);
  return static_cast<float>(std::sin(turns_to_radians(x)));
}
float cos_f32(float x) {
  if (!std::isfinite(x)) return f32(kQuietNan32);
  return static_cast<float>(std::cos(turns_to_radians(x)));
}

double rcp_f64(double x) { return 1.0 / x; }
double rsq_f64(double x) { return 1.0 / std::sqrt(x); }
double sqrt_f64(double x) { return std::sqrt(x); }

// --- Rounding, fractions, exponents ---

float fract_f32(float x) {
  if (std::isnan(x)) return quiet(x);
  if (std::isinf(x)) return f32(kQuietNan32);
  return std::fmin(x - std::floor(x), f32(0x3f7fffffu));
}
double fract_f64(double x) {
  if (std::isnan(x)) return quiet(x);
  if (std::isinf(x)) return f64(kQuietNan64);
  return std::fmin(x - std::floor(x), f64(0x3fefffffffffffffull));
}

namespace {
// Round half to even without depending on the host's rounding mode.
template <typename T>
T rndne_impl(T x) {
  if (!std::isfinite(x)) return x;
  const T t = std::trunc(x);
  const T diff = std::fabs(x - t);
  if (diff > T(0.5) || (diff == T(0.5) && std::fmod(t, T(2)) != 0)) return t + std::copysign(T(1), x);
  return t == 0 ? std::copysign(T(0), x) : t;
}
}  // namespace

float rndne_f32(float x) { return rndne_impl(x); }
double rndne_f64(double x) { return rndne_impl(x); }

int32_t frexp_exp_f32(float x) {
  if (!std::isfinite(x) || x == 0) return 0;
  int e = 0;
  std::frexp(x, &e);
  return e;
}
int32_t frexp_exp_f64(double x) {
  if (!std::isfinite(x) || x == 0) return 0;
  int e = 0;
  std::frexp(x, &e);
  return e;
}
float frexp_mant_f32(float x) {
  if (!std::isfinite(x)) return x;
  int e = 0;
  return std::frexp(x, &e);
}
double frexp_mant_f64(double x) {
  if (!std::isfinite(x)) return x;
  int e = 0;
  return std::frexp(x, &e);
}

float ldexp_f32(float x, int32_t e) {
  // Exponents beyond +-512 saturate the result the same way; clamping keeps
  // std::ldexp's int argument meaningful.
  return std::ldexp(x, e < -512 ? -512 : (e > 512 ? 512 : e));
}
double ldexp_f64(double x, int32_t e) { return std::ldexp(x, e < -4096 ? -4096 : (e > 4096 ? 4096 : e)); }

// --- Conversions ---

int32_t cvt_i32(double x) {
  if (std::isnan(x)) return 0;
  if (x >= 2147483647.0) return INT32_MAX;
  if (x <= -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(x);
}
uint32_t cvt_u32(double x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 4294967295.0) return UINT32_MAX;
  return static_cast<uint32_t>(x);
}
int16_t cvt_i16(float x) {
  if (std::isnan(x)) return 0;
  if (x >= 32767.0f) return INT16_MAX;
  if (x <= -32768.0f) return INT16_MIN;
  return static_cast<int16_t>(x);
}
uint16_t cvt_u16(float x) {
  if (std::isnan(x) || x <= 0) return 0;
  if (x >= 65535.0f) return UINT16_MAX;
  return static_cast<uint16_t>(x);
}

// --- Division helpers ---

namespace {
int exponent_field(float x) { return static_cast<int>((bits(x) >> 23) & 0xff); }
int exponent_field(double x) { return static_cast<int>((bits(x) >> 52) & 0x7ff); }
bool is_denorm(float x) { return std::fpclassify(x) == FP_SUBNORMAL; }
bool is_denorm(double x) { return std::fpclassify(x) == FP_SUBNORMAL; }

// The shared definition of div_scale for F = float or double (result type R).
// The format's limits: exponent difference `big` (96/768), scale 2^`scale`
// (2^64/2^128), tiny numerator exponent `tiny` (23/53). 1/den is evaluated in
// f64 for both formats, as the hardware defines it.
template <typename F, typename R>
R div_scale_impl(F s0, F den, F num, int big, int scale, int tiny) {
  R r{s0, false};
  if (num == 0 || den == 0) {
    r.value = std::numeric_limits<F>::quiet_NaN();
  } else if (exponent_field(num) - exponent_field(den) >= big) {
    r.vcc = true;  // quotient near the largest value: scale only the denominator
    if (s0 == den) r.value = std::ldexp(s0, scale);
  } else if (is_denorm(den)) {
    r.value = std::ldexp(s0, scale);
  } else if (is_denorm(1.0 / static_cast<double>(den)) && is_denorm(static_cast<F>(num / den))) {
    // A huge denominator and a denormal quotient: scale only the denominator,
    // down (the reference pseudo-code's "ldexp(S0, 64)" here would overflow
    // the denominator; scaling down is what makes div_fmas's 2^-N post-scale
    // right).
    r.vcc = true;
    if (s0 == den) r.value = std::ldexp(s0, -scale);
  } else if (is_denorm(1.0 / static_cast<double>(den))) {
    r.value = std::ldexp(s0, -scale);
  } else if (is_denorm(static_cast<F>(num / den))) {
    r.vcc = true;  // quotient would be denormal: scale only the numerator
    if (s0 == num) r.value = std::ldexp(s0, scale);
  } else if (exponent_field(num) <= tiny) {
    r.value = std::ldexp(s0, scale);  // tiny numerator: scale both
  }
  return r;
}

template <typename F>
F div_fixup_impl(F q, F den, F num, int underflow_exp) {
  const bool neg = std::signbit(den) != std::signbit(num);
  const F inf = std::numeric_limits<F>::infinity();
  if (std::isnan(num)) return quiet(num);
  if (std::isnan(den)) return quiet(den);
  if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num))) return -std::numeric_limits<F>::quiet_NaN();
  if (den == 0 || std::isinf(num)) return neg ? -inf : inf;
  if (std::isinf(den) || num == 0) return neg ? F(-0.0) : F(0.0);
  if (exponent_field(num) - exponent_field(den) < underflow_exp) return neg ? F(-0.0) : F(0.0);
  // A NaN quotient with finite, non-zero inputs means the refinement
  // overflowed (inf - inf): the hardware returns the overflow value.
  if (std::isnan(q)) return neg ? -inf : inf;
  return neg ? -std::fabs(q) : std::fabs(q);
}
}  // namespace

DivScaleF32 div_scale_f32(float s0, float den, float num) {
  return div_scale_impl<float, DivScaleF32>(s0, den, num, 96, 64, 23);
}
DivScaleF64 div_scale_f64(double s0, double den, double num) {
  return div_scale_impl<double, DivScaleF64>(s0, den, num, 768, 128, 53);
}

namespace {
// (hi, lo) with hi + lo == a + b exactly (Knuth's two-sum).
void two_sum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  const double bb = hi - a;
  lo = (a - (hi - bb)) + (b - bb);
}

// Rounds V * 2^k to the nearest value of a format with `digits` significand
// bits and smallest exponent `min_exp` (as std::frexp counts), ties to even,
// in one rounding. `x` is V rounded to nearest double and `residual` has the
// sign of V - x; only a tie in x needs it, to break the tie the way the exact
// value would.
double round_scaled(double x, int k, double residual, int digits, int min_exp) {
  if (x == 0 || !std::isfinite(x)) return std::ldexp(x, k);
  int e = 0;
  std::frexp(x, &e);
  const int quantum = std::max(e + k - digits, min_exp - digits);
  const double n = std::ldexp(std::fabs(x), k - quantum);  // exact: a shift
  double whole = std::floor(n);
  const double frac = n - whole;
  const double away = std::signbit(x) ? -residual : residual;  // > 0: V is further from zero than x
  if (frac > 0.5 || (frac == 0.5 && (away > 0 || (away == 0 && std::fmod(whole, 2.0) != 0)))) whole += 1;
  return std::copysign(std::ldexp(whole, quantum), x);
}
}  // namespace

// With VCC set the scaled result may be denormal; it is rounded once, from the
// exact fused product-sum, as the hardware's scaling inside the FMA does.
float div_fmas_f32(float a, float b, float c, bool vcc) {
  if (!vcc) return std::fma(a, b, c);
  const double p = static_cast<double>(a) * static_cast<double>(b);  // exact
  double sum, err;
  two_sum(p, static_cast<double>(c), sum, err);
  const int k = exponent_field(c) > 127 ? 64 : -64;
  return static_cast<float>(round_scaled(sum, k, err, 24, -125));
}
double div_fmas_f64(double a, double b, double c, bool vcc) {
  const double r = std::fma(a, b, c);
  if (!vcc) return r;
  // The sign of the exact value minus r: a*b = ph + pl exactly, ph + c = s + e1.
  const double ph = a * b, pl = std::fma(a, b, -ph);
  double s, e1;
  two_sum(ph, c, s, e1);
  const double residual = (s - r) + e1 + pl;
  const int k = exponent_field(c) > 1023 ? 128 : -128;
  return round_scaled(r, k, residual, 53, -1021);
}

float div_fixup_f32(float q, float den, float num) { return div_fixup_impl(q, den, num, -150); }
double div_fixup_f64(double q, double den, double num) { return div_fixup_impl(q, den, num, -1075); }

// --- Class tests ---

uint32_t class_of_f32(uint32_t b) {
  const bool neg = b >> 31;
  const uint32_t exp = (b >> 23) & 0xffu, mant = b & 0x7fffffu;
  if (exp == 0xff) {
    if (mant == 0) return neg ? kClassNegInf : kClassPosInf;
    return (mant & 0x400000u) ? kClassQNan : kClassSNan;
  }
  if (exp == 0) {
    if (mant == 0) return neg ? kClassNegZero : kClassPosZero;
    return neg ? kClassNegDenorm : kClassPosDenorm;
  }
  return neg ? kClassNegNormal : kClassPosNormal;
}

uint32_t class_of_f64(uint64_t b) {
  const bool neg = b >> 63;
  const uint64_t exp = (b >> 52) & 0x7ffu, mant = b & 0xfffffffffffffull;
  if (exp == 0x7ff) {
    if (mant == 0) return neg ? kClassNegInf : kClassPosInf;
    return (mant & 0x8000000000000ull) ? kClassQNan : kClassSNan;
  }
  if (exp == 0) {
    if (mant == 0) return neg ? kClassNegZero : kClassPosZero;
    return neg ? kClassNegDenorm : kClassPosDenorm;
  }
  return neg ? kClassNegNormal : kClassPosNormal;
}

uint32_t class_of_f16(uint16_t h) {
  const bool neg = h >> 15;
  const uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0x1f) {
    if (mant == 0) return neg ? kClassNegInf : kClassPosInf;
    return (mant & 0x200u) ? kClassQNan : kClassSNan;
  }
  if (exp == 0) {
    if (mant == 0) return neg ? kClassNegZero : kClassPosZero;
    return neg ? kClassNegDenorm : kClassPosDenorm;
  }
  return neg ? kClassNegNormal : kClassPosNormal;
}

}  // namespace tessera::isa::fp
