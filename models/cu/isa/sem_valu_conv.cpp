// Vector conversions between f16/f32/f64 and integers, with the hardware's
// rules: float -> integer truncates, saturates and turns NaN into 0; packing
// conversions round as each defines (pkrtz toward zero, pknorm to nearest).
#include <algorithm>
#include <cmath>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using namespace fp;
using u32 = uint32_t;

// Source fetch -> per-lane conversion -> destination store, for the
// combinations the conversions need.
template <typename F>
void f32_to_int(Wave& w, const Instruction& in, F f) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.f32(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l]);
  ops.store_u32(d);
}
template <typename F>
void f64_to_int(Wave& w, const Instruction& in, F f) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.f64(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l]);
  ops.store_u32(d);
}
template <typename F>
void int_to_f32(Wave& w, const Instruction& in, F f) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize];
  alignas(64) float d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l]);
  ops.store_f32(d);
}
template <typename F>
void int_to_f64(Wave& w, const Instruction& in, F f) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize];
  alignas(64) double d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l]);
  ops.store_f64(d);
}

void cvt_f32_f64(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize];
  alignas(64) float d[kWaveSize];
  ops.f64(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<float>(a[l]);
  ops.store_f32(d);
}
void cvt_f64_f32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) double d[kWaveSize];
  ops.f32(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<double>(a[l]);
  ops.store_f64(d);
}
void cvt_f16_f32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  ops.f32(0, a);
  ops.store_f16(a);
}
void cvt_f32_f16(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  ops.f16(0, a);
  ops.store_f32(a);
}
template <bool SIGNED>
void cvt_f16_int16(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) uint16_t a[kWaveSize];
  alignas(64) float d[kWaveSize];
  ops.u16(0, a);
  for (int l = 0; l < kWaveSize; ++l) d[l] = SIGNED ? static_cast<float>(static_cast<int16_t>(a[l])) : static_cast<float>(a[l]);
  ops.store_f16(d);
}
// f16 -> 16-bit integer; NORM: v_cvt_norm_*: scale by the integer range.
template <bool SIGNED, bool NORM>
void cvt_int16_f16(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) uint16_t d[kWaveSize];
  ops.f16(0, a);
  for (int l = 0; l < kWaveSize; ++l) {
    if (NORM)
      d[l] = SIGNED ? static_cast<uint16_t>(cvt_i16(rndne_f32(std::clamp(a[l], -1.0f, 1.0f) * 32767.0f)))
                    : cvt_u16(rndne_f32(std::clamp(a[l], 0.0f, 1.0f) * 65535.0f));
    else
      d[l] = SIGNED ? static_cast<uint16_t>(cvt_i16(a[l])) : cvt_u16(a[l]);
  }
  ops.store_u16(d);
}

// Two f32 sources packed into one dword of two 16-bit results.
template <typename F>
void pack2_f32(Wave& w, const Instruction& in, F f) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], b[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.f32(0, a);
  ops.f32(1, b);
  for (int l = 0; l < kWaveSize; ++l) d[l] = static_cast<u32>(f(a[l])) | (static_cast<u32>(f(b[l])) << 16);
  ops.store_u32(d);
}
inline uint16_t norm_i16(float x) { return static_cast<uint16_t>(cvt_i16(rndne_f32(std::clamp(x, -1.0f, 1.0f) * 32767.0f))); }
inline uint16_t norm_u16(float x) { return cvt_u16(rndne_f32(std::clamp(x, 0.0f, 1.0f) * 65535.0f)); }

// v_cvt_pk_u8_f32: one byte of src2 replaced by u8(src0) at byte src1[1:0].
void cvt_pk_u8_f32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize];
  alignas(64) u32 b1[kWaveSize], b2[kWaveSize], d[kWaveSize];
  ops.f32(0, a);
  const u32* sel = ops.u32(1, b1);
  const u32* c = ops.u32(2, b2);
  for (int l = 0; l < kWaveSize; ++l) {
    const u32 sh = (sel[l] & 3) * 8;
    const u32 byte = std::min<u32>(cvt_u32(rndne_f32(a[l])), 255u);
    d[l] = (c[l] & ~(0xffu << sh)) | (byte << sh);
  }
  ops.store_u32(d);
}

// v_pack_b32_f16: {src1.f16, src0.f16}, with abs/neg on each half.
void pack_b32_f16(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) uint16_t a[kWaveSize], b[kWaveSize];
  alignas(64) u32 d[kWaveSize];
  ops.u16(0, a);
  ops.u16(1, b);
  const uint16_t c0 = (in.abs & 1) ? 0x7fff : 0xffff, c1 = (in.abs & 2) ? 0x7fff : 0xffff;
  const uint16_t n0 = (in.neg & 1) ? 0x8000 : 0, n1 = (in.neg & 2) ? 0x8000 : 0;
  for (int l = 0; l < kWaveSize; ++l)
    d[l] = static_cast<u32>((a[l] & c0) ^ n0) | (static_cast<u32>((b[l] & c1) ^ n1) << 16);
  ops.store_u32(d);
}
}  // namespace

void register_valu_conv_semantics(SemanticsTable& t) {
  t.add("v_cvt_i32_f32", [](Wave& w, const Instruction& in) { f32_to_int(w, in, [](float a) { return static_cast<u32>(cvt_i32(a)); }); });
  t.add("v_cvt_u32_f32", [](Wave& w, const Instruction& in) { f32_to_int(w, in, [](float a) { return cvt_u32(a); }); });
  t.add("v_cvt_rpi_i32_f32", [](Wave& w, const Instruction& in) {
    f32_to_int(w, in, [](float a) { return static_cast<u32>(cvt_i32(std::floor(static_cast<double>(a) + 0.5))); });
  });
  t.add("v_cvt_flr_i32_f32", [](Wave& w, const Instruction& in) { f32_to_int(w, in, [](float a) { return static_cast<u32>(cvt_i32(std::floor(a))); }); });
  t.add("v_cvt_i32_f64", [](Wave& w, const Instruction& in) { f64_to_int(w, in, [](double a) { return static_cast<u32>(cvt_i32(a)); }); });
  t.add("v_cvt_u32_f64", [](Wave& w, const Instruction& in) { f64_to_int(w, in, [](double a) { return cvt_u32(a); }); });
  t.add("v_cvt_f32_i32", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>(static_cast<int32_t>(a)); }); });
  t.add("v_cvt_f32_u32", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>(a); }); });
  t.add("v_cvt_f32_ubyte0", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>(a & 0xff); }); });
  t.add("v_cvt_f32_ubyte1", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>((a >> 8) & 0xff); }); });
  t.add("v_cvt_f32_ubyte2", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>((a >> 16) & 0xff); }); });
  t.add("v_cvt_f32_ubyte3", [](Wave& w, const Instruction& in) { int_to_f32(w, in, [](u32 a) { return static_cast<float>(a >> 24); }); });
  t.add("v_cvt_off_f32_i4", [](Wave& w, const Instruction& in) {
    int_to_f32(w, in, [](u32 a) { return static_cast<float>(static_cast<int32_t>(a << 28) >> 28) / 16.0f; });
  });
  t.add("v_cvt_f64_i32", [](Wave& w, const Instruction& in) { int_to_f64(w, in, [](u32 a) { return static_cast<double>(static_cast<int32_t>(a)); }); });
  t.add("v_cvt_f64_u32", [](Wave& w, const Instruction& in) { int_to_f64(w, in, [](u32 a) { return static_cast<double>(a); }); });
  t.add("v_cvt_f32_f64", cvt_f32_f64);
  t.add("v_cvt_f64_f32", cvt_f64_f32);
  t.add("v_cvt_f16_f32", cvt_f16_f32);
  t.add("v_cvt_f32_f16", cvt_f32_f16);
  t.add("v_cvt_f16_u16", cvt_f16_int16<false>);
  t.add("v_cvt_f16_i16", cvt_f16_int16<true>);
  t.add("v_cvt_u16_f16", cvt_int16_f16<false, false>);
  t.add("v_cvt_i16_f16", cvt_int16_f16<true, false>);
  t.add("v_cvt_norm_u16_f16", cvt_int16_f16<false, true>);
  t.add("v_cvt_norm_i16_f16", cvt_int16_f16<true, true>);
  t.add("v_cvt_pkrtz_f16_f32", [](Wave& w, const Instruction& in) { pack2_f32(w, in, [](float a) { return f32_to_f16_rtz(a); }); });
  t.add("v_cvt_pknorm_i16_f32", [](Wave& w, const Instruction& in) { pack2_f32(w, in, norm_i16); });
  t.add("v_cvt_pknorm_u16_f32", [](Wave& w, const Instruction& in) { pack2_f32(w, in, norm_u16); });
  t.add("v_cvt_pk_u8_f32", cvt_pk_u8_f32);
  t.add("v_cvt_pk_u16_u32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return std::min(a, 0xffffu) | (std::min(b, 0xffffu) << 16); });
  });
  t.add("v_cvt_pk_i16_i32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) {
      const auto sat = [](u32 x) { return static_cast<u32>(std::clamp(static_cast<int32_t>(x), -32768, 32767)) & 0xffffu; };
      return sat(a) | (sat(b) << 16);
    });
  });
  t.add("v_pack_b32_f16", pack_b32_f16);
}

}  // namespace tessera::isa
