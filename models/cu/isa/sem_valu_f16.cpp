// Vector f16 arithmetic (VOP1/VOP2/VOP3). Operands are widened to f32
// exactly and each result is rounded to f16 once: for add, sub, mul, sqrt and
// rcp the f32 intermediate is wide enough that this equals a correctly
// rounded f16 operation; fma is evaluated in f64 before its single rounding.
#include <cmath>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;

#define F16_1(expr) [](Wave& w, const Instruction& in) { map_f16(w, in, 1, [](float a, float, float) { return expr; }); }
#define F16_2(expr) [](Wave& w, const Instruction& in) { map_f16(w, in, 2, [](float a, float b, float) { return expr; }); }
#define F16_3(expr) [](Wave& w, const Instruction& in) { map_f16(w, in, 3, [](float a, float b, float c) { return expr; }); }

// f16 fma: evaluated in f64 and rounded to f16 once; the f16 result is
// widened back to f32 exactly, so store_f16's rounding changes nothing.
inline float fma16(float a, float b, float c) {
  const double r = std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
  return f16_to_f32(f64_to_f16(r));
}
// Unfused multiply-add: the product is rounded to f16 first.
inline float mad16(float a, float b, float c) { return f16_to_f32(f32_to_f16(a * b)) + c; }

template <int KIND>
void minmax_f16(Wave& w, const Instruction& in) {
  const bool ieee = w.mode.ieee;
  if (KIND == 0) map_f16(w, in, 2, [ieee](float a, float b, float) { return min_f32(a, b, ieee); });
  if (KIND == 1) map_f16(w, in, 2, [ieee](float a, float b, float) { return max_f32(a, b, ieee); });
  if (KIND == 2) map_f16(w, in, 3, [ieee](float a, float b, float c) { return min_f32(min_f32(a, b, ieee), c, ieee); });
  if (KIND == 3) map_f16(w, in, 3, [ieee](float a, float b, float c) { return max_f32(max_f32(a, b, ieee), c, ieee); });
  if (KIND == 4) map_f16(w, in, 3, [ieee](float a, float b, float c) { return med3_f32(a, b, c, ieee); });
}

// v_ldexp_f16: the exponent is a 16-bit signed integer source.
void ldexp_f16_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], d[kWaveSize];
  alignas(64) uint16_t e[kWaveSize];
  ops.f16(0, a);
  ops.u16(1, e);
  for (int l = 0; l < kWaveSize; ++l) d[l] = ldexp_f32(a[l], static_cast<int16_t>(e[l]));
  ops.store_f16(d);
}
void frexp_exp_f16_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) uint16_t d[kWaveSize];
  ops.f16(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<uint16_t>(frexp_exp_f32(a[l]));
  ops.store_u16(d);
}
}  // namespace

void register_valu_f16_semantics(SemanticsTable& t) {
  t.add("v_add_f16", F16_2(a + b));
  t.add("v_sub_f16", F16_2(a - b));
  t.add("v_subrev_f16", F16_2(b - a));
  t.add("v_mul_f16", F16_2(a * b));
  t.add("v_fma_f16", F16_3(fma16(a, b, c)));
  t.add("v_fma_legacy_f16", F16_3(fma16(a, b, c)));
  t.add("v_mad_f16", F16_3(mad16(a, b, c)));
  t.add("v_mad_legacy_f16", F16_3(mad16(a, b, c)));
  // These three keep the destination's high half on gfx9 (the others zero it).
  const ExecFn mad16_keep_high = [](Wave& w, const Instruction& in) {
    map_f16(w, in, 3, [](float a, float b, float c) { return mad16(a, b, c); }, true);
  };
  t.add("v_mac_f16", mad16_keep_high);
  t.add("v_madmk_f16", mad16_keep_high);
  t.add("v_madak_f16", mad16_keep_high);
  t.add("v_min_f16", minmax_f16<0>);
  t.add("v_max_f16", minmax_f16<1>);
  t.add("v_min3_f16", minmax_f16<2>);
  t.add("v_max3_f16", minmax_f16<3>);
  t.add("v_med3_f16", minmax_f16<4>);
  t.add("v_ldexp_f16", ldexp_f16_op);
  t.add("v_rcp_f16", F16_1(rcp_f32(a)));
  t.add("v_sqrt_f16", F16_1(sqrt_f32(a)));
  t.add("v_rsq_f16", F16_1(rsq_f32(a)));
  t.add("v_log_f16", F16_1(log2_f32(a)));
  t.add("v_exp_f16", F16_1(exp2_f32(a)));
  t.add("v_sin_f16", F16_1(sin_f32(a)));
  t.add("v_cos_f16", F16_1(cos_f32(a)));
  t.add("v_floor_f16", F16_1(std::floor(a)));
  t.add("v_ceil_f16", F16_1(std::ceil(a)));
  t.add("v_trunc_f16", F16_1(std::trunc(a)));
  t.add("v_rndne_f16", F16_1(rndne_f32(a)));
  // fract clamps below 1.0 in f16: the largest f16 under 1 is 0x3bff.
  t.add("v_fract_f16", F16_1(std::fmin(fract_f32(a), 0.99951171875f)));
  t.add("v_frexp_mant_f16", F16_1(frexp_mant_f32(a)));
  t.add("v_frexp_exp_i16_f16", frexp_exp_f16_op);
  t.add("v_div_fixup_f16", F16_3(div_fixup_f32(a, b, c)));
  t.add("v_div_fixup_legacy_f16", F16_3(div_fixup_f32(a, b, c)));
}

}  // namespace tessera::isa
