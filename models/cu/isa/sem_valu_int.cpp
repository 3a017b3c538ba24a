// Vector integer and bitwise semantics: VOP1/VOP2/VOP3 add/sub with carry,
// multiplies, shifts, bit-field ops, min/max/med3, 16-bit integer ops.
#include <algorithm>

#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
using u32 = uint32_t;
using i32 = int32_t;
using u64 = uint64_t;

inline i32 s(u32 x) { return static_cast<i32>(x); }
inline u32 u(i32 x) { return static_cast<u32>(x); }
inline i32 sext24(u32 x) { return s(x << 8) >> 8; }
inline u32 clz32(u32 x) { return x ? static_cast<u32>(__builtin_clz(x)) : 0xffffffffu; }
inline u32 ctz32(u32 x) { return x ? static_cast<u32>(__builtin_ctz(x)) : 0xffffffffu; }
inline u32 med3(u32 a, u32 b, u32 c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }
inline i32 med3(i32 a, i32 b, i32 c) { return std::max(std::min(a, b), std::min(std::max(a, b), c)); }
inline u32 absdiff(u32 a, u32 b) { return a > b ? a - b : b - a; }

// Byte permute of v_perm_b32: `sel` picks from the 8 bytes {S0:S1}.
inline u32 perm_byte(u64 data, u32 sel) {
  sel &= 0xff;
  if (sel < 8) return static_cast<u32>(data >> (8 * sel)) & 0xffu;
  if (sel < 12) return ((data >> (16 * (sel - 8) + 15)) & 1) ? 0xffu : 0u;
  return sel == 12 ? 0u : 0xffu;
}

// Unsigned add/sub with VOP3 clamp: saturate instead of wrapping.
void add_u32(Wave& w, const Instruction& in) {
  if (in.clamp)
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a + b < a ? 0xffffffffu : a + b; });
  else
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a + b; });
}
void sub_u32(Wave& w, const Instruction& in) {
  if (in.clamp)
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a < b ? 0u : a - b; });
  else
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a - b; });
}
void subrev_u32(Wave& w, const Instruction& in) {
  if (in.clamp)
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return b < a ? 0u : b - a; });
  else
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return b - a; });
}
// v_add_i32 / v_sub_i32 (VOP3): signed, saturating under clamp.
i32 sat_i32(int64_t v) { return static_cast<i32>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); }
void add_i32(Wave& w, const Instruction& in) {
  const bool c = in.clamp;
  map_u32(w, in, 2, [c](u32 a, u32 b, u32) {
    const int64_t r = static_cast<int64_t>(s(a)) + s(b);
    return c ? u(sat_i32(r)) : a + b;
  });
}
void sub_i32(Wave& w, const Instruction& in) {
  const bool c = in.clamp;
  map_u32(w, in, 2, [c](u32 a, u32 b, u32) {
    const int64_t r = static_cast<int64_t>(s(a)) - s(b);
    return c ? u(sat_i32(r)) : a - b;
  });
}

// Carry-out forms: dst[1] is the carry/borrow lane mask; `cin` adds src[2]'s mask.
enum class CarryOp { Add, Sub, SubRev };
template <CarryOp OP, bool CIN>
void carry_op(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize], b1[kWaveSize], d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  const u32* b = ops.u32(1, b1);
  // Straight-line lane loops (carries as bytes, unpacked first and packed at
  // the end), which the compiler can vectorise.
  alignas(64) uint8_t carry_in[kWaveSize] = {}, carry[kWaveSize];
  if (CIN) unpack_lane_bytes(ops.lane_mask_src(2), carry_in);
  for (int l = 0; l < kWaveSize; ++l) {
    const u64 ci = carry_in[l];
    if (OP == CarryOp::Add) {
      const u64 r = static_cast<u64>(a[l]) + b[l] + ci;
      d[l] = static_cast<u32>(r);
      carry[l] = static_cast<uint8_t>(r >> 32);
    } else {
      const u64 x = OP == CarryOp::Sub ? a[l] : b[l], y = OP == CarryOp::Sub ? b[l] : a[l];
      d[l] = static_cast<u32>(x - y - ci);
      carry[l] = y + ci > x;
    }
  }
  if (in.clamp)
    for (int l = 0; l < kWaveSize; ++l)
      if (carry[l]) d[l] = OP == CarryOp::Add ? 0xffffffffu : 0u;
  ops.store_u32(d);
  ops.store_lane_mask(pack_lane_bytes(carry), 1);
}

void cndmask(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize], b1[kWaveSize], d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  const u32* b = ops.u32(1, b1);
  const uint64_t sel = ops.lane_mask_src(2);
  // abs/neg on cndmask's sources are float modifiers on the selected bits.
  const u32 clr0 = (in.abs & 1) ? 0x7fffffffu : ~0u, clr1 = (in.abs & 2) ? 0x7fffffffu : ~0u;
  const u32 neg0 = (in.neg & 1) ? 0x80000000u : 0u, neg1 = (in.neg & 2) ? 0x80000000u : 0u;
  for (int l = 0; l < kWaveSize; ++l)
    d[l] = ((sel >> l) & 1) ? ((b[l] & clr1) ^ neg1) : ((a[l] & clr0) ^ neg0);
  ops.store_u32(d);
}

// 64-bit results: v_mad_u64_u32 / v_mad_i64_i32 (dst[1] = carry out).
template <bool SIGNED>
void mad_64_32(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize], b1[kWaveSize];
  alignas(64) u64 c[kWaveSize], d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  const u32* b = ops.u32(1, b1);
  ops.u64(2, c);
  uint64_t cout = 0;
  for (int l = 0; l < kWaveSize; ++l) {
    if (SIGNED) {
      const __int128 r = static_cast<__int128>(static_cast<int64_t>(s(a[l])) * s(b[l])) + static_cast<int64_t>(c[l]);
      d[l] = static_cast<u64>(r);
      cout |= static_cast<uint64_t>(r > INT64_MAX || r < INT64_MIN) << l;
    } else {
      const unsigned __int128 r = static_cast<unsigned __int128>(static_cast<u64>(a[l]) * b[l]) + c[l];
      d[l] = static_cast<u64>(r);
      cout |= static_cast<uint64_t>((r >> 64) != 0) << l;
    }
  }
  ops.store_u64(d);
  if (in.num_dst > 1) ops.store_lane_mask(cout, 1);
}

// 64-bit shifts: the shift amount is src0 (32 bits), the value src1 (64 bits).
template <int KIND>
void shift64(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize];
  alignas(64) u64 v[kWaveSize], d[kWaveSize];
  const u32* sh = ops.u32(0, b0);
  ops.u64(1, v);
  for (int l = 0; l < kWaveSize; ++l) {
    const unsigned n = sh[l] & 63;
    d[l] = KIND == 0 ? v[l] << n : KIND == 1 ? v[l] >> n : static_cast<u64>(static_cast<int64_t>(v[l]) >> n);
  }
  ops.store_u64(d);
}

// v_mbcnt_lo/hi: count the bits of src0 belonging to lanes below this one.
template <bool HI>
void mbcnt(Wave& w, const Instruction& in) {
  ValuOperands ops(w, in);
  alignas(64) u32 b0[kWaveSize], b1[kWaveSize], d[kWaveSize];
  const u32* a = ops.u32(0, b0);
  const u32* b = ops.u32(1, b1);
  for (int l = 0; l < kWaveSize; ++l) {
    const u64 below = (l == 0) ? 0 : (~0ull >> (64 - l));
    const u32 m = static_cast<u32>(HI ? below >> 32 : below);
    d[l] = static_cast<u32>(__builtin_popcount(a[l] & m)) + b[l];
  }
  ops.store_u32(d);
}

void register_basic(SemanticsTable& t) {
  t.add("v_mov_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 1, [](u32 a, u32, u32) { return a; }); });
  t.add("v_not_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 1, [](u32 a, u32, u32) { return ~a; }); });
  t.add("v_bfrev_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 1, [](u32 a, u32, u32) {
      u32 r = 0;
      for (int i = 0; i < 32; ++i) r |= ((a >> i) & 1u) << (31 - i);
      return r;
    });
  });
  t.add("v_ffbh_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 1, [](u32 a, u32, u32) { return clz32(a); }); });
  t.add("v_ffbl_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 1, [](u32 a, u32, u32) { return ctz32(a); }); });
  t.add("v_ffbh_i32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 1, [](u32 a, u32, u32) { return (a == 0 || a == ~0u) ? ~0u : clz32(s(a) < 0 ? ~a : a); });
  });
  t.add("v_cndmask_b32", cndmask);
  t.add("v_and_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a & b; }); });
  t.add("v_or_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a | b; }); });
  t.add("v_xor_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a ^ b; }); });
  t.add("v_xnor_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return ~(a ^ b); }); });
  t.add("v_lshlrev_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return b << (a & 31); }); });
  t.add("v_lshrrev_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return b >> (a & 31); }); });
  t.add("v_ashrrev_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return u(s(b) >> (a & 31)); }); });
  t.add("v_min_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return u(std::min(s(a), s(b))); }); });
  t.add("v_max_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return u(std::max(s(a), s(b))); }); });
  t.add("v_min_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return std::min(a, b); }); });
  t.add("v_max_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return std::max(a, b); }); });
  t.add("v_add_u32", add_u32);
  t.add("v_sub_u32", sub_u32);
  t.add("v_subrev_u32", subrev_u32);
  t.add("v_add_i32", add_i32);
  t.add("v_sub_i32", sub_i32);
  t.add("v_add_co_u32", carry_op<CarryOp::Add, false>);
  t.add("v_sub_co_u32", carry_op<CarryOp::Sub, false>);
  t.add("v_subrev_co_u32", carry_op<CarryOp::SubRev, false>);
  t.add("v_addc_co_u32", carry_op<CarryOp::Add, true>);
  t.add("v_subb_co_u32", carry_op<CarryOp::Sub, true>);
  t.add("v_subbrev_co_u32", carry_op<CarryOp::SubRev, true>);
}

void register_mul(SemanticsTable& t) {
  t.add("v_mul_i32_i24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return u(sext24(a) * sext24(b)); });
  });
  t.add("v_mul_hi_i32_i24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return static_cast<u32>((static_cast<int64_t>(sext24(a)) * sext24(b)) >> 32); });
  });
  t.add("v_mul_u32_u24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return (a & 0xffffffu) * (b & 0xffffffu); });
  });
  t.add("v_mul_hi_u32_u24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return static_cast<u32>((static_cast<u64>(a & 0xffffffu) * (b & 0xffffffu)) >> 32); });
  });
  t.add("v_mad_i32_i24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return u(sext24(a) * sext24(b)) + c; });
  });
  t.add("v_mad_u32_u24", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a & 0xffffffu) * (b & 0xffffffu) + c; });
  });
  t.add("v_mul_lo_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 2, [](u32 a, u32 b, u32) { return a * b; }); });
  t.add("v_mul_hi_u32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return static_cast<u32>((static_cast<u64>(a) * b) >> 32); });
  });
  t.add("v_mul_hi_i32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return static_cast<u32>(static_cast<u64>(static_cast<int64_t>(s(a)) * s(b)) >> 32); });
  });
  t.add("v_mad_u32_u16", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a & 0xffffu) * (b & 0xffffu) + c; });
  });
  t.add("v_mad_i32_i16", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return u(static_cast<int16_t>(a) * static_cast<int16_t>(b)) + c; });
  });
  t.add("v_mad_u64_u32", mad_64_32<false>);
  t.add("v_mad_i64_i32", mad_64_32<true>);
}

void register_bitfield(SemanticsTable& t) {
  t.add("v_bfe_u32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      const u32 off = b & 31, width = c & 31;
      return width ? (a >> off) & ((1u << width) - 1) : 0u;
    });
  });
  t.add("v_bfe_i32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      const u32 off = b & 31, width = c & 31;
      if (!width) return 0u;
      const u32 x = a >> off;
      return off + width < 32 ? u(s(x << (32 - width)) >> (32 - width)) : u(s(a) >> off);
    });
  });
  t.add("v_bfi_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a & b) | (~a & c); });
  });
  t.add("v_bfm_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return ((1u << (a & 31)) - 1) << (b & 31); });
  });
  t.add("v_alignbit_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return static_cast<u32>(((static_cast<u64>(a) << 32) | b) >> (c & 31)); });
  });
  t.add("v_alignbyte_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return static_cast<u32>(((static_cast<u64>(a) << 32) | b) >> (8 * (c & 3))); });
  });
  t.add("v_perm_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      const u64 data = (static_cast<u64>(a) << 32) | b;
      return perm_byte(data, c) | (perm_byte(data, c >> 8) << 8) | (perm_byte(data, c >> 16) << 16) |
             (perm_byte(data, c >> 24) << 24);
    });
  });
  t.add("v_bcnt_u32_b32", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 2, [](u32 a, u32 b, u32) { return static_cast<u32>(__builtin_popcount(a)) + b; });
  });
  t.add("v_mbcnt_lo_u32_b32", mbcnt<false>);
  t.add("v_mbcnt_hi_u32_b32", mbcnt<true>);
  t.add("v_lshlrev_b64", shift64<0>);
  t.add("v_lshrrev_b64", shift64<1>);
  t.add("v_ashrrev_i64", shift64<2>);
}

void register_three_input(SemanticsTable& t) {
  t.add("v_min3_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return u(std::min({s(a), s(b), s(c)})); }); });
  t.add("v_max3_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return u(std::max({s(a), s(b), s(c)})); }); });
  t.add("v_med3_i32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return u(med3(s(a), s(b), s(c))); }); });
  t.add("v_min3_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return std::min({a, b, c}); }); });
  t.add("v_max3_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return std::max({a, b, c}); }); });
  t.add("v_med3_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return med3(a, b, c); }); });
  t.add("v_lshl_add_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a << (b & 31)) + c; }); });
  t.add("v_add_lshl_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a + b) << (c & 31); }); });
  t.add("v_add3_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return a + b + c; }); });
  t.add("v_lshl_or_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a << (b & 31)) | c; }); });
  t.add("v_and_or_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a & b) | c; }); });
  t.add("v_or3_b32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return a | b | c; }); });
  t.add("v_xad_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return (a ^ b) + c; }); });
  t.add("v_sad_u8", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      for (int i = 0; i < 32; i += 8) c += absdiff((a >> i) & 0xff, (b >> i) & 0xff);
      return c;
    });
  });
  t.add("v_sad_hi_u8", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      u32 sum = 0;
      for (int i = 0; i < 32; i += 8) sum += absdiff((a >> i) & 0xff, (b >> i) & 0xff);
      return (sum << 16) + c;
    });
  });
  t.add("v_sad_u16", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return c + absdiff(a & 0xffff, b & 0xffff) + absdiff(a >> 16, b >> 16); });
  });
  t.add("v_sad_u32", [](Wave& w, const Instruction& in) { map_u32(w, in, 3, [](u32 a, u32 b, u32 c) { return absdiff(a, b) + c; }); });
  t.add("v_msad_u8", [](Wave& w, const Instruction& in) {
    map_u32(w, in, 3, [](u32 a, u32 b, u32 c) {
      for (int i = 0; i < 32; i += 8)
        if ((b >> i) & 0xff) c += absdiff((a >> i) & 0xff, (b >> i) & 0xff);
      return c;
    });
  });
}

// 16-bit integer ops: operands are the low halves (op_sel in VOP3).
void register_int16(SemanticsTable& t) {
  using u16 = uint16_t;
  using i16 = int16_t;
  t.add("v_add_u16", [](Wave& w, const Instruction& in) {
    if (in.clamp)
      map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(std::min<u32>(u32(a) + b, 0xffff)); });
    else
      map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(a + b); });
  });
  t.add("v_sub_u16", [](Wave& w, const Instruction& in) {
    const bool c = in.clamp;
    map_u16(w, in, 2, [c](u16 a, u16 b, u16) { return static_cast<u16>(c && b > a ? 0 : a - b); });
  });
  t.add("v_subrev_u16", [](Wave& w, const Instruction& in) {
    const bool c = in.clamp;
    map_u16(w, in, 2, [c](u16 a, u16 b, u16) { return static_cast<u16>(c && a > b ? 0 : b - a); });
  });
  t.add("v_add_i16", [](Wave& w, const Instruction& in) {
    const bool c = in.clamp;
    map_u16(w, in, 2, [c](u16 a, u16 b, u16) {
      const int r = i16(a) + i16(b);
      return static_cast<u16>(c ? std::clamp(r, -32768, 32767) : r);
    });
  });
  t.add("v_sub_i16", [](Wave& w, const Instruction& in) {
    const bool c = in.clamp;
    map_u16(w, in, 2, [c](u16 a, u16 b, u16) {
      const int r = i16(a) - i16(b);
      return static_cast<u16>(c ? std::clamp(r, -32768, 32767) : r);
    });
  });
  t.add("v_mul_lo_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(u32(a) * b); }); });
  t.add("v_lshlrev_b16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(b << (a & 15)); }); });
  t.add("v_lshrrev_b16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(b >> (a & 15)); }); });
  t.add("v_ashrrev_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(i16(b) >> (a & 15)); }); });
  t.add("v_max_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return std::max(a, b); }); });
  t.add("v_min_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return std::min(a, b); }); });
  t.add("v_max_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(std::max(i16(a), i16(b))); }); });
  t.add("v_min_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 2, [](u16 a, u16 b, u16) { return static_cast<u16>(std::min(i16(a), i16(b))); }); });
  const ExecFn mad_u16 = [](Wave& w, const Instruction& in) {
    map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(u32(a) * b + c); });
  };
  const ExecFn mad_i16 = [](Wave& w, const Instruction& in) {
    map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(i16(a) * i16(b) + i16(c)); });
  };
  t.add("v_mad_u16", mad_u16);
  t.add("v_mad_i16", mad_i16);
  // The gfx8 encodings, which clang-14 still emits for gfx9 (at -O0 for
  // 16-bit multiply-adds): no op_sel, the high half of the result zeroed.
  t.add("v_mad_legacy_u16", mad_u16);
  t.add("v_mad_legacy_i16", mad_i16);
  t.add("v_min3_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return std::min({a, b, c}); }); });
  t.add("v_max3_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return std::max({a, b, c}); }); });
  t.add("v_med3_u16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(med3(u32(a), u32(b), u32(c))); }); });
  t.add("v_min3_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(std::min({i16(a), i16(b), i16(c)})); }); });
  t.add("v_max3_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(std::max({i16(a), i16(b), i16(c)})); }); });
  t.add("v_med3_i16", [](Wave& w, const Instruction& in) { map_u16(w, in, 3, [](u16 a, u16 b, u16 c) { return static_cast<u16>(med3(i32(i16(a)), i32(i16(b)), i32(i16(c)))); }); });
}
}  // namespace

void register_valu_int_semantics(SemanticsTable& t) {
  register_basic(t);
  register_mul(t);
  register_bitfield(t);
  register_three_input(t);
  register_int16(t);
}

}  // namespace tessera::isa
