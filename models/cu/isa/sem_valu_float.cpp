// Vector f32 and f64 arithmetic: add/sub/mul/fma/mad/mac, min/max/med3,
// transcendentals, rounding, frexp/ldexp and the division helpers.
#include <algorithm>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;
using u32 = uint32_t;

#define F32_1(expr) [](Wave& w, const Instruction& in) { map_f32(w, in, 1, [](float a, float, float) { return expr; }); }
#define F32_2(expr) [](Wave& w, const Instruction& in) { map_f32(w, in, 2, [](float a, float b, float) { return expr; }); }
#define F32_3(expr) [](Wave& w, const Instruction& in) { map_f32(w, in, 3, [](float a, float b, float c) { return expr; }); }
#define F64_1(expr) [](Wave& w, const Instruction& in) { map_f64(w, in, 1, [](double a, double, double) { return expr; }); }
#define F64_2(expr) [](Wave& w, const Instruction& in) { map_f64(w, in, 2, [](double a, double b, double) { return expr; }); }
#define F64_3(expr) [](Wave& w, const Instruction& in) { map_f64(w, in, 3, [](double a, double b, double c) { return expr; }); }

// min/max/med3 read the IEEE mode bit, so they capture it.
template <int KIND>
void minmax_f32(Wave& w, const Instruction& in) {
  const bool ieee = w.mode.ieee;
  if (KIND == 0) map_f32(w, in, 2, [ieee](float a, float b, float) { return min_f32(a, b, ieee); });
  if (KIND == 1) map_f32(w, in, 2, [ieee](float a, float b, float) { return max_f32(a, b, ieee); });
  if (KIND == 2) map_f32(w, in, 3, [ieee](float a, float b, float c) { return min_f32(min_f32(a, b, ieee), c, ieee); });
  if (KIND == 3) map_f32(w, in, 3, [ieee](float a, float b, float c) { return max_f32(max_f32(a, b, ieee), c, ieee); });
  if (KIND == 4) map_f32(w, in, 3, [ieee](float a, float b, float c) { return med3_f32(a, b, c, ieee); });
}
template <bool MAX>
void minmax_f64(Wave& w, const Instruction& in) {
  const bool ieee = w.mode.ieee;
  map_f64(w, in, 2, [ieee](double a, double b, double) { return MAX ? max_f64(a, b, ieee) : min_f64(a, b, ieee); });
}

// v_mad_f32 / v_mac_f32 / v_madmk / v_madak: an unfused multiply-add that
// never sees denormals (inputs and result flushed whatever the mode says).
void mad_f32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f32(0, a);
  ops.f32(1, b);
  ops.f32(2, c);
  for (int l = 0; l < kWaveSize; ++l) {
    const float p = flush(flush(a[l], false) * flush(b[l], false), false);
    d[l] = flush(p + flush(c[l], false), false);
  }
  ops.store_f32(d);
}
// v_mad_legacy_f32 / v_mul_legacy_f32: 0 times anything (inf, NaN) is 0.
inline float mul_legacy(float a, float b) { return (a == 0 || b == 0) ? 0.0f : a * b; }

void ldexp_f32_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], d[kWaveSize];
  alignas(64) u32 b1[kWaveSize];
  ops.f32(0, a);
  const u32* e = ops.u32(1, b1);
  for (int l = 0; l < kWaveSize; ++l) d[l] = ldexp_f32(a[l], static_cast<int32_t>(e[l]));
  ops.store_f32(d);
}
void ldexp_f64_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize], d[kWaveSize];
  alignas(64) u32 b1[kWaveSize];
  ops.f64(0, a);
  const u32* e = ops.u32(1, b1);
  for (int l = 0; l < kWaveSize; ++l) d[l] = ldexp_f64(a[l], static_cast<int32_t>(e[l]));
  ops.store_f64(d);
}
void frexp_exp_f32_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.f32(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<u32>(frexp_exp_f32(a[l]));
  ops.store_u32(d);
}
void frexp_exp_f64_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.f64(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<u32>(frexp_exp_f64(a[l]));
  ops.store_u32(d);
}

// v_div_scale_*: dst[0] the scaled value, dst[1] the lane mask telling
// v_div_fmas to post-scale. Inputs are not flushed (the division sequence
// runs with denormals enabled).
void div_scale_f32_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f32(0, a);
  ops.f32(1, b);
  ops.f32(2, c);
  uint64_t vcc = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    const DivScaleF32 r = div_scale_f32(a[l], b[l], c[l]);
    d[l] = r.value;
    vcc |= static_cast<uint64_t>(r.vcc) << l;
  }
  ops.store_f32(d);
  ops.store_lane_mask(vcc, 1);
}
void div_scale_f64_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f64(0, a);
  ops.f64(1, b);
  ops.f64(2, c);
  uint64_t vcc = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    const DivScaleF64 r = div_scale_f64(a[l], b[l], c[l]);
    d[l] = r.value;
    vcc |= static_cast<uint64_t>(r.vcc) << l;
  }
  ops.store_f64(d);
  ops.store_lane_mask(vcc, 1);
}
// v_div_fmas_* reads VCC implicitly (or as src[3] when the decoder lists it).
uint64_t fmas_vcc(const Wave& w, const Instruction& in) {
  return in.num_src > 3 ? w.scalar64(in.src[3]) : w.vcc();
}
void div_fmas_f32_op(Wave& w, const Instruction& in) {
  const uint64_t vcc = fmas_vcc(w, in);
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f32(0, a);
  ops.f32(1, b);
  ops.f32(2, c);
  for (int l = 0; l < kWaveSize; ++l) d[l] = div_fmas_f32(a[l], b[l], c[l], (vcc >> l) & 1);
  ops.store_f32(d);
}
void div_fmas_f64_op(Wave& w, const Instruction& in) {
  const uint64_t vcc = fmas_vcc(w, in);
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f64(0, a);
  ops.f64(1, b);
  ops.f64(2, c);
  for (int l = 0; l < kWaveSize; ++l) d[l] = div_fmas_f64(a[l], b[l], c[l], (vcc >> l) & 1);
  ops.store_f64(d);
}

// Fused multiply-add is the inner loop of most kernels. Without -mfma the
// compiler turns std::fma into a library call per lane, so the loops below
// are also compiled for the host's FMA unit and chosen at registration when
// the CPU has one. Both give the same, correctly rounded, results.
#define TESSERA_FMA_LOOP(T, MAP, FMA) \
  MAP(w, in, 3, [](T a, T b, T c) { return FMA(a, b, c); })
__attribute__((target("fma"))) void fma_f32_hw(Wave& w, const Instruction& in) {
  TESSERA_FMA_LOOP(float, map_f32, __builtin_fmaf);
}
__attribute__((target("fma"))) void fma_f64_hw(Wave& w, const Instruction& in) {
  TESSERA_FMA_LOOP(double, map_f64, __builtin_fma);
}
void fma_f32_sw(Wave& w, const Instruction& in) { TESSERA_FMA_LOOP(float, map_f32, std::fma); }
void fma_f64_sw(Wave& w, const Instruction& in) { TESSERA_FMA_LOOP(double, map_f64, std::fma); }
#undef TESSERA_FMA_LOOP

bool host_has_fma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma");
}

void register_f32(SemanticsTable& t) {
  t.add("v_add_f32", F32_2(a + b));
  t.add("v_sub_f32", F32_2(a - b));
  t.add("v_subrev_f32", F32_2(b - a));
  t.add("v_mul_f32", F32_2(a * b));
  t.add("v_mul_legacy_f32", F32_2(mul_legacy(a, b)));
  t.add("v_min_f32", minmax_f32<0>);
  t.add("v_max_f32", minmax_f32<1>);
  t.add("v_min3_f32", minmax_f32<2>);
  t.add("v_max3_f32", minmax_f32<3>);
  t.add("v_med3_f32", minmax_f32<4>);
  const ExecFn fma32 = host_has_fma() ? fma_f32_hw : fma_f32_sw;
  t.add("v_fma_f32", fma32);
  t.add("v_fmac_f32", fma32);
  t.add("v_mad_f32", mad_f32);
  t.add("v_mac_f32", mad_f32);
  t.add("v_madmk_f32", mad_f32);
  t.add("v_madak_f32", mad_f32);
  t.add("v_mad_legacy_f32", F32_3(mul_legacy(a, b) + c));
  t.add("v_ldexp_f32", ldexp_f32_op);
  t.add("v_rcp_f32", F32_1(rcp_f32(a)));
  t.add("v_rcp_iflag_f32", F32_1(rcp_f32(a)));
  t.add("v_rsq_f32", F32_1(rsq_f32(a)));
  t.add("v_sqrt_f32", F32_1(sqrt_f32(a)));
  t.add("v_exp_f32", F32_1(exp2_f32(a)));
  t.add("v_log_f32", F32_1(log2_f32(a)));
  t.add("v_sin_f32", F32_1(sin_f32(a)));
  t.add("v_cos_f32", F32_1(cos_f32(a)));
  t.add("v_fract_f32", F32_1(fract_f32(a)));
  t.add("v_trunc_f32", F32_1(std::trunc(a)));
  t.add("v_ceil_f32", F32_1(std::ceil(a)));
  t.add("v_floor_f32", F32_1(std::floor(a)));
  t.add("v_rndne_f32", F32_1(rndne_f32(a)));
  t.add("v_frexp_mant_f32", F32_1(frexp_mant_f32(a)));
  t.add("v_frexp_exp_i32_f32", frexp_exp_f32_op);
  t.add("v_div_scale_f32", div_scale_f32_op);
  t.add("v_div_fmas_f32", div_fmas_f32_op);
  t.add("v_div_fixup_f32", F32_3(div_fixup_f32(a, b, c)));
}

void register_f64(SemanticsTable& t) {
  t.add("v_add_f64", F64_2(a + b));
  t.add("v_mul_f64", F64_2(a * b));
  t.add("v_min_f64", minmax_f64<false>);
  t.add("v_max_f64", minmax_f64<true>);
  const ExecFn fma64 = host_has_fma() ? fma_f64_hw : fma_f64_sw;
  t.add("v_fma_f64", fma64);
  t.add("v_fmac_f64", fma64);
  t.add("v_ldexp_f64", ldexp_f64_op);
  t.add("v_rcp_f64", F64_1(rcp_f64(a)));
  t.add("v_rsq_f64", F64_1(rsq_f64(a)));
  t.add("v_sqrt_f64", F64_1(sqrt_f64(a)));
  t.add("v_fract_f64", F64_1(fract_f64(a)));
  t.add("v_trunc_f64", F64_1(std::trunc(a)));
  t.add("v_ceil_f64", F64_1(std::ceil(a)));
  t.add("v_floor_f64", F64_1(std::floor(a)));
  t.add("v_rndne_f64", F64_1(rndne_f64(a)));
  t.add("v_frexp_mant_f64", F64_1(frexp_mant_f64(a)));
  t.add("v_frexp_exp_i32_f64", frexp_exp_f64_op);
  t.add("v_div_scale_f64", div_scale_f64_op);
  t.add("v_div_fmas_f64", div_fmas_f64_op);
  t.add("v_div_fixup_f64", F64_3(div_fixup_f64(a, b, c)));
}
}  // namespace

void register_valu_float_semantics(SemanticsTable& t) {
  register_f32(t);
  register_f64(t);
}

}  // namespace tessera::isa
