// Floating-point helpers with the gfx90a vector ALU's rules.
//
// The host's own floating-point environment is never relied on for GPU
// behaviour: denormal flushing is applied here, explicitly, per FpMode, and
// conversions to 16-bit formats are done on the bits. Arithmetic is done in
// host IEEE round-to-nearest-even, which is what the GPU does in its default
// rounding mode.
//
// Transcendentals (v_rcp, v_rsq, v_sqrt, v_exp, v_log, v_sin, v_cos): the
// hardware documents them as approximations within 1 ULP (sqrt and rcp f64
// slightly more). We compute the correctly rounded result (through double for
// f32, or exactly with the host's correctly rounded division/sqrt for f64),
// which is always inside the hardware's stated error, so code that refines
// these estimates (clang's division and sqrt expansions) converges exactly as
// it does on silicon. v_exp_f32 is 2^x, v_log_f32 is log2(x); v_sin/v_cos take
// their argument in revolutions (sin(2*pi*x)).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tessera::isa::fp {

// --- Bit casts ---
inline float f32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline uint32_t bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline double f64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
inline uint64_t bits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// --- Denormal flushing (sign-preserving, as the hardware flushes) ---
inline uint32_t flush_bits(uint32_t b) { return (b & 0x7f800000u) == 0 ? (b & 0x80000000u) : b; }
inline uint64_t flush_bits(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0 ? (b & 0x8000000000000000ull) : b;
}
inline uint16_t flush_bits16(uint16_t h) { return (h & 0x7c00u) == 0 ? static_cast<uint16_t>(h & 0x8000u) : h; }
// `keep` is the mode's "denormals enabled" bit for the format.
inline float flush(float x, bool keep) { return keep ? x : f32(flush_bits(bits(x))); }
inline double flush(double x, bool keep) { return keep ? x : f64(flush_bits(bits(x))); }
inline uint16_t flush16(uint16_t h, bool keep) { return keep ? h : flush_bits16(h); }

// --- NaN classification and quieting ---
inline bool is_nan_bits(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }
inline bool is_snan_bits(uint32_t b) { return is_nan_bits(b) && !(b & 0x00400000u); }
inline bool is_nan_bits(uint64_t b) { return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
inline bool is_snan_bits(uint64_t b) { return is_nan_bits(b) && !(b & 0x0008000000000000ull); }
inline bool is_nan16(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }
inline float quiet(float x) { return f32(bits(x) | 0x00400000u); }
inline double quiet(double x) { return f64(bits(x) | 0x0008000000000000ull); }
constexpr uint32_t kQuietNan32 = 0x7fc00000u;
constexpr uint64_t kQuietNan64 = 0x7ff8000000000000ull;
constexpr uint16_t kQuietNan16 = 0x7e00u;

// --- 16-bit formats ---
// f16 -> f32 is exact (every f16 is an f32, denormals become normals).
float f16_to_f32(uint16_t h);
// f32 -> f16, round to nearest even; overflow gives inf, NaN stays NaN
// (quieted, top payload bits kept).
uint16_t f32_to_f16(float f);
// f32 -> f16 rounding toward zero (v_cvt_pkrtz_f16_f32): overflow gives the
// largest finite f16, not inf.
uint16_t f32_to_f16_rtz(float f);
// f64 -> f16 in one rounding (no double rounding through f32).
uint16_t f64_to_f16(double d);
inline float bf16_to_f32(uint16_t h) { return f32(static_cast<uint32_t>(h) << 16); }
// f32 -> bf16, round to nearest even; NaN stays NaN (quieted).
uint16_t f32_to_bf16(float f);

// --- min/max with the hardware's NaN rules ---
// IEEE mode: a signalling NaN input gives a quiet NaN; otherwise a NaN input
// is ignored in favour of the other operand (IEEE-754 minNum/maxNum). With IEEE
// mode off, any NaN is ignored. -0 orders below +0.
float min_f32(float a, float b, bool ieee);
float max_f32(float a, float b, bool ieee);
double min_f64(double a, double b, bool ieee);
double max_f64(double a, double b, bool ieee);
// Median of three (v_med3_f32): with a NaN input the result is the min3 of
// the inputs under the rules above, as the hardware defines it.
float med3_f32(float a, float b, float c, bool ieee);

// --- Transcendentals (see the header comment for accuracy) ---
float rcp_f32(float x);
float rsq_f32(float x);
float sqrt_f32(float x);
float exp2_f32(float x);
float log2_f32(float x);
float sin_f32(float x);  // sin(2*pi*x)
float cos_f32(float x);  // cos(2*pi*x)
double rcp_f64(double x);
double rsq_f64(double x);
double sqrt_f64(double x);

// --- Rounding, fractions, exponents ---
float fract_f32(float x);    // x - floor(x), at most the largest float below 1.0
double fract_f64(double x);
float rndne_f32(float x);    // round to nearest integer, ties to even
double rndne_f64(double x);
int32_t frexp_exp_f32(float x);   // 0 for 0, inf and NaN
int32_t frexp_exp_f64(double x);
float frexp_mant_f32(float x);    // in [0.5, 1) with x's sign; inf and NaN pass through
double frexp_mant_f64(double x);
float ldexp_f32(float x, int32_t e);
double ldexp_f64(double x, int32_t e);

// --- Conversions with the hardware's saturation and NaN -> 0 rules ---
int32_t cvt_i32(double x);   // truncates; saturates at INT32_MIN/MAX; NaN -> 0
uint32_t cvt_u32(double x);  // truncates; saturates at 0/UINT32_MAX; NaN -> 0
int16_t cvt_i16(float x);
uint16_t cvt_u16(float x);

// --- Division helpers (v_div_scale, v_div_fmas, v_div_fixup) ---
// Scaling of one input of a division (S0 = the value to scale, equal to the
// denominator S1 or the numerator S2) so that the Newton-Raphson refinement
// sees no denormals; `vcc` says the quotient must be post-scaled by div_fmas.
struct DivScaleF32 {
  float value;
  bool vcc;
};
struct DivScaleF64 {
  double value;
  bool vcc;
};
DivScaleF32 div_scale_f32(float s0, float den, float num);
DivScaleF64 div_scale_f64(double s0, double den, double num);
// fma(a, b, c), post-scaled by 2^64 (f32) / 2^128 (f64) when vcc is set and the
// quotient estimate c is large, else by the inverse: it undoes exactly the
// one-sided scaling div_scale applied.
float div_fmas_f32(float a, float b, float c, bool vcc);
double div_fmas_f64(double a, double b, double c, bool vcc);
// Final step: special cases of num/den (NaN, 0/0, inf/inf, x/0, x/inf,
// overflow, underflow), else the quotient q with the sign of the division.
float div_fixup_f32(float q, float den, float num);
double div_fixup_f64(double q, double den, double num);

// --- Class tests (v_cmp_class_*): the mask bits of the hardware ---
enum ClassBit : uint32_t {
  kClassSNan = 1u << 0,
  kClassQNan = 1u << 1,
  kClassNegInf = 1u << 2,
  kClassNegNormal = 1u << 3,
  kClassNegDenorm = 1u << 4,
  kClassNegZero = 1u << 5,
  kClassPosZero = 1u << 6,
  kClassPosDenorm = 1u << 7,
  kClassPosNormal = 1u << 8,
  kClassPosInf = 1u << 9,
};
uint32_t class_of_f32(uint32_t b);
uint32_t class_of_f64(uint64_t b);
uint32_t class_of_f16(uint16_t h);

}  // namespace tessera::isa::fp
