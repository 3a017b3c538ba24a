// Packed math (VOP3P): two 16-bit lanes per dword (v_pk_* f16/i16/u16), the
// gfx90a packed f32 ops on register pairs, mixed-precision FMA and dot
// products. For each result half, op_sel (low result) and op_sel_hi (high
// result) pick which half of each source feeds it; neg_lo/neg_hi negate the
// float inputs of the low/high result.
#include <algorithm>
#include <cmath>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;

// The 16-bit inputs of one packed op: lo[i][l] / hi[i][l] for source i.
struct Halves {
  alignas(64) u16 lo[3][kWaveSize];
  alignas(64) u16 hi[3][kWaveSize];
};

void fetch_halves(const ValuOperands& ops, unsigned nsrc, Halves& h) {
  const Instruction& in = ops.inst();
  alignas(64) u32 buf[kWaveSize];
  for (unsigned i = 0; i < nsrc; ++i) {
    const u32* p = ops.u32(i, buf);
    // VOP2 packed forms (v_pk_fmac_f16, v_dot2c_*) have no selects: low
    // halves feed the low result, high halves the high one.
    const bool vop3p = in.format == Format::VOP3P;
    const unsigned sl = vop3p ? ((in.op_sel >> i) & 1) * 16 : 0;
    const unsigned sh = vop3p ? ((in.op_sel_hi >> i) & 1) * 16 : 16;
    for (int l = 0; l < kWaveSize; ++l) {
      h.lo[i][l] = static_cast<u16>(p[l] >> sl);
      h.hi[i][l] = static_cast<u16>(p[l] >> sh);
    }
  }
}

// f16 packed op: f(a, b, c) on f32-widened halves, rounded once to f16.
template <typename F>
void pk_f16(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  Halves h;
  fetch_halves(ops, nsrc, h);
  const bool keep = w.mode.f16_f64_denorms;
  alignas(64) u32 d[kWaveSize];
  auto value = [&](const u16* src, unsigned i, uint8_t neg, int l) {
    u16 b = static_cast<u16>(src[l] ^ (((neg >> i) & 1) ? 0x8000 : 0));
    if (!keep) b = flush_bits16(b);
    return f16_to_f32(b);
  };
  auto round = [&](float r) {
    if (in.clamp) r = std::clamp(r, 0.0f, 1.0f);
    const u16 x = f32_to_f16(r);
    return keep ? x : flush_bits16(x);
  };
  for (int l = 0; l < kWaveSize; ++l) {
    const float lo = f(value(h.lo[0], 0, in.neg, l), value(h.lo[1], 1, in.neg, l), value(h.lo[2], 2, in.neg, l));
    const float hi = f(value(h.hi[0], 0, in.neg_hi, l), value(h.hi[1], 1, in.neg_hi, l), value(h.hi[2], 2, in.neg_hi, l));
    d[l] = round(lo) | (static_cast<u32>(round(hi)) << 16);
  }
  ops.store_u32(d);
}

// Integer packed op on the two halves.
template <typename F>
void pk_int(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  Halves h;
  fetch_halves(ops, nsrc, h);
  alignas(64) u32 d[kWaveSize];
  const bool clamp = in.clamp;
  for (int l = 0; l < kWaveSize; ++l)
    d[l] = f(h.lo[0][l], h.lo[1][l], h.lo[2][l], clamp) | (static_cast<u32>(f(h.hi[0][l], h.hi[1][l], h.hi[2][l], clamp)) << 16);
  ops.store_u32(d);
}

inline u16 sat_u16(int64_t x) { return static_cast<u16>(std::clamp<int64_t>(x, 0, 0xffff)); }
inline u16 sat_i16(int64_t x) { return static_cast<u16>(std::clamp<int64_t>(x, -32768, 32767)); }
inline int32_t i16(u16 x) { return static_cast<int16_t>(x); }

// gfx90a packed f32 (v_pk_fma/mul/add_f32): sources are register pairs;
// op_sel / op_sel_hi pick the dword of each source for the low / high result.
template <typename F>
void pk_f32(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  alignas(64) u64 src[3][kWaveSize];
  for (unsigned i = 0; i < nsrc; ++i) ops.u64(i, src[i]);
  const bool keep = w.mode.f32_denorms;
  alignas(64) u64 d[kWaveSize];
  auto value = [&](unsigned i, bool hi_result, int l) {
    const uint8_t sel = hi_result ? in.op_sel_hi : in.op_sel;
    const uint8_t neg = hi_result ? in.neg_hi : in.neg;
    u32 b = static_cast<u32>(src[i][l] >> (((sel >> i) & 1) * 32));
    b ^= ((neg >> i) & 1) ? 0x80000000u : 0u;
    return f32(keep ? b : flush_bits(b));
  };
  auto finish = [&](float r) {
    if (in.clamp) r = std::clamp(r, 0.0f, 1.0f);
    return keep ? bits(r) : flush_bits(bits(r));
  };
  for (int l = 0; l < kWaveSize; ++l) {
    const float lo = f(value(0, false, l), nsrc > 1 ? value(1, false, l) : 0.0f, nsrc > 2 ? value(2, false, l) : 0.0f);
    const float hi = f(value(0, true, l), nsrc > 1 ? value(1, true, l) : 0.0f, nsrc > 2 ? value(2, true, l) : 0.0f);
    d[l] = finish(lo) | (static_cast<u64>(finish(hi)) << 32);
  }
  ops.store_u64(d);
}

// v_pk_mov_b32 vdst, src0, src1 op_sel:[a,b]: low = src0.dword[a], high = src1.dword[b].
void pk_mov_b32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u64 a[kWaveSize], b[kWaveSize], d[kWaveSize];
  ops.u64(0, a);
  ops.u64(1, b);
  const unsigned sa = (in.op_sel & 1) * 32, sb = ((in.op_sel >> 1) & 1) * 32;
  for (int l = 0; l < kWaveSize; ++l) d[l] = ((a[l] >> sa) & 0xffffffffull) | (((b[l] >> sb) & 0xffffffffull) << 32);
  ops.store_u64(d);
}

// v_fma_mix*: each source is f32, or f16 when its op_sel_hi bit is set (then
// op_sel picks the half); neg and neg_hi (as abs) apply to each source.
enum class MixDst { F32, Lo16, Hi16 };
template <MixDst D>
void fma_mix(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 buf[3][kWaveSize];
  const u32* src[3];
  for (unsigned i = 0; i < 3; ++i) src[i] = ops.u32(i, buf[i]);
  alignas(64) float r[kWaveSize];
  for (int l = 0; l < kWaveSize; ++l) {
    float v[3];
    for (unsigned i = 0; i < 3; ++i) {
      float x = ((in.op_sel_hi >> i) & 1) ? f16_to_f32(static_cast<u16>(src[i][l] >> (((in.op_sel >> i) & 1) * 16)))
                                          : f32(src[i][l]);
      if ((in.neg_hi >> i) & 1) x = std::fabs(x);
      if ((in.neg >> i) & 1) x = -x;
      v[i] = x;
    }
    r[l] = std::fma(v[0], v[1], v[2]);
    if (in.clamp) r[l] = std::clamp(r[l], 0.0f, 1.0f);
  }
  alignas(64) u32 d[kWaveSize];
  const u32* old = w.lanes(in.dst[0]);
  for (int l = 0; l < kWaveSize; ++l) {
    if (D == MixDst::F32) d[l] = bits(r[l]);
    if (D == MixDst::Lo16) d[l] = (old[l] & 0xffff0000u) | f32_to_f16(r[l]);
    if (D == MixDst::Hi16) d[l] = (old[l] & 0xffffu) | (static_cast<u32>(f32_to_f16(r[l])) << 16);
  }
  ops.store_u32(d);
}

// Dot products: sum of element products of src0 and src1 plus src2 (or the
// destination for the VOP2 "c" forms, which decode it as src2).
template <int BITS, bool SIGNED>
u32 dot_int(u32 a, u32 b, u32 c, bool clamp) {
  int64_t sum = SIGNED ? static_cast<int32_t>(c) : static_cast<int64_t>(c);
  for (int i = 0; i < 32; i += BITS) {
    const u32 m = (1u << BITS) - 1;
    int64_t x = (a >> i) & m, y = (b >> i) & m;
    if (SIGNED) {
      x = (x ^ (1u << (BITS - 1))) - (1 << (BITS - 1));
      y = (y ^ (1u << (BITS - 1))) - (1 << (BITS - 1));
    }
    sum += x * y;
  }
  if (clamp) return SIGNED ? static_cast<u32>(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX)) : static_cast<u32>(std::min<int64_t>(sum, UINT32_MAX));
  return static_cast<u32>(sum);
}
template <int BITS, bool SIGNED>
void dot_int_op(Wave& w, const Instruction& in) {
  const bool clamp = in.clamp;
  map_u32(w, in, 3, [clamp](u32 a, u32 b, u32 c) { return dot_int<BITS, SIGNED>(a, b, c, clamp); });
}
void dot2_f32_f16(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  Halves h;
  fetch_halves(ops, 2, h);
  alignas(64) float c[kWaveSize], d[kWaveSize];
  ops.f32(2, c);
  for (int l = 0; l < kWaveSize; ++l) {
    const auto v = [&](const u16* s, unsigned i, uint8_t neg) {
      const float x = f16_to_f32(s[l]);
      return ((neg >> i) & 1) ? -x : x;
    };
    const double p = static_cast<double>(v(h.lo[0], 0, in.neg)) * v(h.lo[1], 1, in.neg) +
                     static_cast<double>(v(h.hi[0], 0, in.neg_hi)) * v(h.hi[1], 1, in.neg_hi);
    d[l] = static_cast<float>(p + c[l]);
  }
  ops.store_f32(d);
}
}  // namespace

void register_packed_semantics(SemanticsTable& t) {
  t.add("v_pk_fma_f16", [](Wave& w, const Instruction& in) { pk_f16(w, in, 3, [](float a, float b, float c) { return f16_to_f32(f64_to_f16(std::fma(double(a), double(b), double(c)))); }); });
  t.add("v_pk_fmac_f16", [](Wave& w, const Instruction& in) { pk_f16(w, in, 3, [](float a, float b, float c) { return f16_to_f32(f64_to_f16(std::fma(double(a), double(b), double(c)))); }); });
  t.add("v_pk_add_f16", [](Wave& w, const Instruction& in) { pk_f16(w, in, 2, [](float a, float b, float) { return a + b; }); });
  t.add("v_pk_mul_f16", [](Wave& w, const Instruction& in) { pk_f16(w, in, 2, [](float a, float b, float) { return a * b; }); });
  t.add("v_pk_min_f16", [](Wave& w, const Instruction& in) {
    const bool ieee = w.mode.ieee;
    pk_f16(w, in, 2, [ieee](float a, float b, float) { return min_f32(a, b, ieee); });
  });
  t.add("v_pk_max_f16", [](Wave& w, const Instruction& in) {
    const bool ieee = w.mode.ieee;
    pk_f16(w, in, 2, [ieee](float a, float b, float) { return max_f32(a, b, ieee); });
  });
  t.add("v_pk_add_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool c) { return c ? sat_u16(int64_t(a) + b) : u16(a + b); }); });
  t.add("v_pk_sub_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool c) { return c ? sat_u16(int64_t(a) - b) : u16(a - b); }); });
  t.add("v_pk_add_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool c) { return c ? sat_i16(i16(a) + i16(b)) : u16(a + b); }); });
  t.add("v_pk_sub_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool c) { return c ? sat_i16(i16(a) - i16(b)) : u16(a - b); }); });
  t.add("v_pk_mul_lo_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(u32(a) * b); }); });
  t.add("v_pk_mad_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 3, [](u16 a, u16 b, u16 c, bool cl) { return cl ? sat_u16(int64_t(a) * b + c) : u16(u32(a) * b + c); }); });
  t.add("v_pk_mad_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 3, [](u16 a, u16 b, u16 c, bool cl) { return cl ? sat_i16(int64_t(i16(a)) * i16(b) + i16(c)) : u16(i16(a) * i16(b) + i16(c)); }); });
  t.add("v_pk_lshlrev_b16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(b << (a & 15)); }); });
  t.add("v_pk_lshrrev_b16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(b >> (a & 15)); }); });
  t.add("v_pk_ashrrev_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(i16(b) >> (a & 15)); }); });
  t.add("v_pk_max_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(std::max(i16(a), i16(b))); }); });
  t.add("v_pk_min_i16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return u16(std::min(i16(a), i16(b))); }); });
  t.add("v_pk_max_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return std::max(a, b); }); });
  t.add("v_pk_min_u16", [](Wave& w, const Instruction& in) { pk_int(w, in, 2, [](u16 a, u16 b, u16, bool) { return std::min(a, b); }); });
  t.add("v_pk_fma_f32", [](Wave& w, const Instruction& in) { pk_f32(w, in, 3, [](float a, float b, float c) { return std::fma(a, b, c); }); });
  t.add("v_pk_mul_f32", [](Wave& w, const Instruction& in) { pk_f32(w, in, 2, [](float a, float b, float) { return a * b; }); });
  t.add("v_pk_add_f32", [](Wave& w, const Instruction& in) { pk_f32(w, in, 2, [](float a, float b, float) { return a + b; }); });
  t.add("v_pk_mov_b32", pk_mov_b32);
  t.add("v_fma_mix_f32", fma_mix<MixDst::F32>);
  t.add("v_fma_mixlo_f16", fma_mix<MixDst::Lo16>);
  t.add("v_fma_mixhi_f16", fma_mix<MixDst::Hi16>);
  t.add("v_dot2_f32_f16", dot2_f32_f16);
  t.add("v_dot2c_f32_f16", dot2_f32_f16);
  t.add("v_dot2_i32_i16", dot_int_op<16, true>);
  t.add("v_dot2c_i32_i16", dot_int_op<16, true>);
  t.add("v_dot2_u32_u16", dot_int_op<16, false>);
  t.add("v_dot4_i32_i8", dot_int_op<8, true>);
  t.add("v_dot4c_i32_i8", dot_int_op<8, true>);
  t.add("v_dot4_u32_u8", dot_int_op<8, false>);
  t.add("v_dot8_i32_i4", dot_int_op<4, true>);
  t.add("v_dot8c_i32_i4", dot_int_op<4, true>);
  t.add("v_dot8_u32_u4", dot_int_op<4, false>);
  register_mfma_semantics(t);
}

}  // namespace tessera::isa
