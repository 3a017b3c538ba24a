// Scalar ALU semantics: SOP2, SOP1 and SOPC, as the gfx9 ISA defines them
// (SCC results included). Operands: dst[0] = SDST, src[0] = SSRC0, src[1] = SSRC1.
#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;

uint32_t a32(const W& w, const I& i) { return w.scalar32(i.src[0]); }
uint32_t b32(const W& w, const I& i) { return w.scalar32(i.src[1]); }
uint64_t a64(const W& w, const I& i) { return w.scalar64(i.src[0]); }
uint64_t b64(const W& w, const I& i) { return w.scalar64(i.src[1]); }
void d32(W& w, const I& i, uint32_t v) { w.write_scalar32(i.dst[0], v); }
void d64(W& w, const I& i, uint64_t v) { w.write_scalar64(i.dst[0], v); }

// Result and SCC = result != 0, the rule of the bitwise ops.
void d32z(W& w, const I& i, uint32_t v) {
  d32(w, i, v);
  w.scc = v != 0;
}
void d64z(W& w, const I& i, uint64_t v) {
  d64(w, i, v);
  w.scc = v != 0;
}

// Bit counts of 32- and 64-bit values (C++17 has no <bit>); zero is handled by callers.
unsigned popcount(uint32_t v) { return static_cast<unsigned>(__builtin_popcount(v)); }
unsigned popcount(uint64_t v) { return static_cast<unsigned>(__builtin_popcountll(v)); }
unsigned ctz(uint32_t v) { return static_cast<unsigned>(__builtin_ctz(v)); }
unsigned ctz(uint64_t v) { return static_cast<unsigned>(__builtin_ctzll(v)); }
unsigned clz(uint32_t v) { return static_cast<unsigned>(__builtin_clz(v)); }
unsigned clz(uint64_t v) { return static_cast<unsigned>(__builtin_clzll(v)); }

template <class T>
T bfe(T value, uint32_t ctl, bool is_signed) {
  constexpr unsigned bits = sizeof(T) * 8;
  const unsigned offset = ctl & (bits - 1);
  const unsigned width = (ctl >> 16) & 0x7f;
  if (width == 0) return 0;
  T v = value >> offset;
  if (width < bits) {
    v &= (T(1) << width) - 1;
    if (is_signed && ((v >> (width - 1)) & 1)) v |= ~((T(1) << width) - 1);
  }
  return v;
}

// Shifted add: D = (S0 << n) + S1, SCC = carry out of 32 bits.
template <unsigned N>
void s_lshl_add(W& w, const I& i) {
  const uint64_t r = (uint64_t(a32(w, i)) << N) + b32(w, i);
  d32(w, i, static_cast<uint32_t>(r));
  w.scc = r >> 32;
}

void register_sop2(SemanticsTable& t) {
  t.add("s_add_u32", [](W& w, const I& i) {
    const uint64_t r = uint64_t(a32(w, i)) + b32(w, i);
    d32(w, i, static_cast<uint32_t>(r));
    w.scc = r >> 32;
  });
  t.add("s_sub_u32", [](W& w, const I& i) {
    const uint32_t a = a32(w, i), b = b32(w, i);
    d32(w, i, a - b);
    w.scc = b > a;
  });
  t.add("s_addc_u32", [](W& w, const I& i) {
    const uint64_t r = uint64_t(a32(w, i)) + b32(w, i) + w.scc;
    d32(w, i, static_cast<uint32_t>(r));
    w.scc = r >> 32;
  });
  t.add("s_subb_u32", [](W& w, const I& i) {
    const uint64_t a = a32(w, i), b = uint64_t(b32(w, i)) + w.scc;
    d32(w, i, static_cast<uint32_t>(a - b));
    w.scc = b > a;
  });
  t.add("s_add_i32", [](W& w, const I& i) {
    const int64_t r = int64_t(int32_t(a32(w, i))) + int32_t(b32(w, i));
    d32(w, i, static_cast<uint32_t>(r));
    w.scc = r != int32_t(r);
  });
  t.add("s_sub_i32", [](W& w, const I& i) {
    const int64_t r = int64_t(int32_t(a32(w, i))) - int32_t(b32(w, i));
    d32(w, i, static_cast<uint32_t>(r));
    w.scc = r != int32_t(r);
  });
  t.add("s_min_i32", [](W& w, const I& i) {
    const int32_t a = a32(w, i), b = b32(w, i);
    w.scc = a < b;
    d32(w, i, a < b ? a : b);
  });
  t.add("s_min_u32", [](W& w, const I& i) {
    const uint32_t a = a32(w, i), b = b32(w, i);
    w.scc = a < b;
    d32(w, i, a < b ? a : b);
  });
  t.add("s_max_i32", [](W& w, const I& i) {
    const int32_t a = a32(w, i), b = b32(w, i);
    w.scc = a > b;
    d32(w, i, a > b ? a : b);
  });
  t.add("s_max_u32", [](W& w, const I& i) {
    const uint32_t a = a32(w, i), b = b32(w, i);
    w.scc = a > b;
    d32(w, i, a > b ? a : b);
  });
  t.add("s_cselect_b32", [](W& w, const I& i) { d32(w, i, w.scc ? a32(w, i) : b32(w, i)); });
  t.add("s_cselect_b64", [](W& w, const I& i) { d64(w, i, w.scc ? a64(w, i) : b64(w, i)); });
  t.add("s_and_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) & b32(w, i)); });
  t.add("s_and_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) & b64(w, i)); });
  t.add("s_or_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) | b32(w, i)); });
  t.add("s_or_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) | b64(w, i)); });
  t.add("s_xor_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) ^ b32(w, i)); });
  t.add("s_xor_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) ^ b64(w, i)); });
  t.add("s_andn2_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) & ~b32(w, i)); });
  t.add("s_andn2_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) & ~b64(w, i)); });
  t.add("s_orn2_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) | ~b32(w, i)); });
  t.add("s_orn2_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) | ~b64(w, i)); });
  t.add("s_nand_b32", [](W& w, const I& i) { d32z(w, i, ~(a32(w, i) & b32(w, i))); });
  t.add("s_nand_b64", [](W& w, const I& i) { d64z(w, i, ~(a64(w, i) & b64(w, i))); });
  t.add("s_nor_b32", [](W& w, const I& i) { d32z(w, i, ~(a32(w, i) | b32(w, i))); });
  t.add("s_nor_b64", [](W& w, const I& i) { d64z(w, i, ~(a64(w, i) | b64(w, i))); });
  t.add("s_xnor_b32", [](W& w, const I& i) { d32z(w, i, ~(a32(w, i) ^ b32(w, i))); });
  t.add("s_xnor_b64", [](W& w, const I& i) { d64z(w, i, ~(a64(w, i) ^ b64(w, i))); });
  t.add("s_lshl_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) << (b32(w, i) & 31)); });
  t.add("s_lshl_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) << (b32(w, i) & 63)); });
  t.add("s_lshr_b32", [](W& w, const I& i) { d32z(w, i, a32(w, i) >> (b32(w, i) & 31)); });
  t.add("s_lshr_b64", [](W& w, const I& i) { d64z(w, i, a64(w, i) >> (b32(w, i) & 63)); });
  t.add("s_ashr_i32", [](W& w, const I& i) { d32z(w, i, uint32_t(int32_t(a32(w, i)) >> (b32(w, i) & 31))); });
  t.add("s_ashr_i64", [](W& w, const I& i) { d64z(w, i, uint64_t(int64_t(a64(w, i)) >> (b32(w, i) & 63))); });
  t.add("s_bfm_b32", [](W& w, const I& i) {
    d32(w, i, ((1u << (a32(w, i) & 31)) - 1) << (b32(w, i) & 31));
  });
  t.add("s_bfm_b64", [](W& w, const I& i) {
    d64(w, i, ((1ull << (a32(w, i) & 63)) - 1) << (b32(w, i) & 63));
  });
  t.add("s_mul_i32", [](W& w, const I& i) { d32(w, i, a32(w, i) * b32(w, i)); });
  t.add("s_mul_hi_u32", [](W& w, const I& i) { d32(w, i, uint32_t((uint64_t(a32(w, i)) * b32(w, i)) >> 32)); });
  t.add("s_mul_hi_i32", [](W& w, const I& i) {
    d32(w, i, uint32_t(uint64_t(int64_t(int32_t(a32(w, i))) * int32_t(b32(w, i))) >> 32));
  });
  t.add("s_bfe_u32", [](W& w, const I& i) { d32z(w, i, bfe<uint32_t>(a32(w, i), b32(w, i), false)); });
  t.add("s_bfe_i32", [](W& w, const I& i) { d32z(w, i, bfe<uint32_t>(a32(w, i), b32(w, i), true)); });
  t.add("s_bfe_u64", [](W& w, const I& i) { d64z(w, i, bfe<uint64_t>(a64(w, i), b32(w, i), false)); });
  t.add("s_bfe_i64", [](W& w, const I& i) { d64z(w, i, bfe<uint64_t>(a64(w, i), b32(w, i), true)); });
  t.add("s_absdiff_i32", [](W& w, const I& i) {
    const int64_t d = int64_t(int32_t(a32(w, i))) - int32_t(b32(w, i));
    d32z(w, i, static_cast<uint32_t>(d < 0 ? -d : d));
  });
  t.add("s_lshl1_add_u32", s_lshl_add<1>);
  t.add("s_lshl2_add_u32", s_lshl_add<2>);
  t.add("s_lshl3_add_u32", s_lshl_add<3>);
  t.add("s_lshl4_add_u32", s_lshl_add<4>);
  t.add("s_pack_ll_b32_b16", [](W& w, const I& i) { d32(w, i, (a32(w, i) & 0xffff) | (b32(w, i) << 16)); });
  t.add("s_pack_lh_b32_b16", [](W& w, const I& i) { d32(w, i, (a32(w, i) & 0xffff) | (b32(w, i) & 0xffff0000u)); });
  t.add("s_pack_hh_b32_b16", [](W& w, const I& i) { d32(w, i, (a32(w, i) >> 16) | (b32(w, i) & 0xffff0000u)); });
}

// s_*_saveexec_b64: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
template <uint64_t (*F)(uint64_t s, uint64_t exec)>
void saveexec(W& w, const I& i) {
  const uint64_t s = a64(w, i), exec = w.exec();
  d64(w, i, exec);
  w.set_exec(F(s, exec));
  w.scc = w.exec() != 0;
}
// s_andn{1,2}_wrexec_b64: EXEC = D = f(S0, EXEC); SCC = result != 0.
template <uint64_t (*F)(uint64_t s, uint64_t exec)>
void wrexec(W& w, const I& i) {
  const uint64_t r = F(a64(w, i), w.exec());
  w.set_exec(r);
  d64z(w, i, r);
}

uint64_t op_and(uint64_t s, uint64_t e) { return s & e; }
uint64_t op_or(uint64_t s, uint64_t e) { return s | e; }
uint64_t op_xor(uint64_t s, uint64_t e) { return s ^ e; }
uint64_t op_andn2(uint64_t s, uint64_t e) { return s & ~e; }
uint64_t op_orn2(uint64_t s, uint64_t e) { return s | ~e; }
uint64_t op_nand(uint64_t s, uint64_t e) { return ~(s & e); }
uint64_t op_nor(uint64_t s, uint64_t e) { return ~(s | e); }
uint64_t op_xnor(uint64_t s, uint64_t e) { return ~(s ^ e); }
uint64_t op_andn1(uint64_t s, uint64_t e) { return ~s & e; }
uint64_t op_orn1(uint64_t s, uint64_t e) { return ~s | e; }

// Whole-quad mode: each 4-bit group becomes all ones if any bit is set.
template <class T>
T wqm(T v) {
  T r = 0;
  for (unsigned q = 0; q < sizeof(T) * 8; q += 4)
    if ((v >> q) & 0xf) r |= T(0xf) << q;
  return r;
}
template <class T>
T quadmask(T v) {
  T r = 0;
  for (unsigned q = 0; q < sizeof(T) * 8 / 4; ++q)
    if ((v >> (q * 4)) & 0xf) r |= T(1) << q;
  return r;
}

template <class T>
uint32_t find_first_one(T v) {
  return v ? static_cast<uint32_t>(ctz(v)) : 0xffffffffu;
}
template <class T>
uint32_t find_last_one_from_msb(T v) {
  return v ? static_cast<uint32_t>(clz(v)) : 0xffffffffu;
}
// Leading bits equal to the sign bit, from the MSB; -1 if all bits equal it.
template <class T>
uint32_t flbit_signed(T v) {
  const T x = (v >> (sizeof(T) * 8 - 1)) ? ~v : v;
  return x ? static_cast<uint32_t>(clz(x)) : 0xffffffffu;
}

void register_sop1(SemanticsTable& t) {
  t.add("s_mov_b32", [](W& w, const I& i) { d32(w, i, a32(w, i)); });
  t.add("s_mov_b64", [](W& w, const I& i) { d64(w, i, a64(w, i)); });
  t.add("s_cmov_b32", [](W& w, const I& i) { if (w.scc) d32(w, i, a32(w, i)); });
  t.add("s_cmov_b64", [](W& w, const I& i) { if (w.scc) d64(w, i, a64(w, i)); });
  t.add("s_not_b32", [](W& w, const I& i) { d32z(w, i, ~a32(w, i)); });
  t.add("s_not_b64", [](W& w, const I& i) { d64z(w, i, ~a64(w, i)); });
  t.add("s_wqm_b32", [](W& w, const I& i) { d32z(w, i, wqm<uint32_t>(a32(w, i))); });
  t.add("s_wqm_b64", [](W& w, const I& i) { d64z(w, i, wqm<uint64_t>(a64(w, i))); });
  t.add("s_quadmask_b32", [](W& w, const I& i) { d32z(w, i, quadmask<uint32_t>(a32(w, i))); });
  t.add("s_quadmask_b64", [](W& w, const I& i) { d64z(w, i, quadmask<uint64_t>(a64(w, i))); });
  t.add("s_brev_b32", [](W& w, const I& i) {
    uint32_t v = a32(w, i), r = 0;
    for (int b = 0; b < 32; ++b) r |= ((v >> b) & 1u) << (31 - b);
    d32(w, i, r);
  });
  t.add("s_brev_b64", [](W& w, const I& i) {
    uint64_t v = a64(w, i), r = 0;
    for (int b = 0; b < 64; ++b) r |= ((v >> b) & 1ull) << (63 - b);
    d64(w, i, r);
  });
  t.add("s_bcnt0_i32_b32", [](W& w, const I& i) { d32z(w, i, 32 - popcount(a32(w, i))); });
  t.add("s_bcnt0_i32_b64", [](W& w, const I& i) { d32z(w, i, 64 - popcount(a64(w, i))); });
  t.add("s_bcnt1_i32_b32", [](W& w, const I& i) { d32z(w, i, popcount(a32(w, i))); });
  t.add("s_bcnt1_i32_b64", [](W& w, const I& i) { d32z(w, i, popcount(a64(w, i))); });
  t.add("s_ff0_i32_b32", [](W& w, const I& i) { d32(w, i, find_first_one<uint32_t>(~a32(w, i))); });
  t.add("s_ff0_i32_b64", [](W& w, const I& i) { d32(w, i, find_first_one<uint64_t>(~a64(w, i))); });
  t.add("s_ff1_i32_b32", [](W& w, const I& i) { d32(w, i, find_first_one<uint32_t>(a32(w, i))); });
  t.add("s_ff1_i32_b64", [](W& w, const I& i) { d32(w, i, find_first_one<uint64_t>(a64(w, i))); });
  t.add("s_flbit_i32_b32", [](W& w, const I& i) { d32(w, i, find_last_one_from_msb<uint32_t>(a32(w, i))); });
  t.add("s_flbit_i32_b64", [](W& w, const I& i) { d32(w, i, find_last_one_from_msb<uint64_t>(a64(w, i))); });
  t.add("s_flbit_i32", [](W& w, const I& i) { d32(w, i, flbit_signed<uint32_t>(a32(w, i))); });
  t.add("s_flbit_i32_i64", [](W& w, const I& i) { d32(w, i, flbit_signed<uint64_t>(a64(w, i))); });
  t.add("s_sext_i32_i8", [](W& w, const I& i) { d32(w, i, uint32_t(int32_t(int8_t(a32(w, i))))); });
  t.add("s_sext_i32_i16", [](W& w, const I& i) { d32(w, i, uint32_t(int32_t(int16_t(a32(w, i))))); });
  t.add("s_bitset0_b32", [](W& w, const I& i) { w.s(i.dst[0].reg) &= ~(1u << (a32(w, i) & 31)); });
  t.add("s_bitset1_b32", [](W& w, const I& i) { w.s(i.dst[0].reg) |= 1u << (a32(w, i) & 31); });
  t.add("s_bitset0_b64", [](W& w, const I& i) { w.set_s64(i.dst[0].reg, w.s64(i.dst[0].reg) & ~(1ull << (a32(w, i) & 63))); });
  t.add("s_bitset1_b64", [](W& w, const I& i) { w.set_s64(i.dst[0].reg, w.s64(i.dst[0].reg) | (1ull << (a32(w, i) & 63))); });
  t.add("s_abs_i32", [](W& w, const I& i) {
    const int32_t v = int32_t(a32(w, i));
    d32z(w, i, v < 0 ? 0u - uint32_t(v) : uint32_t(v));
  });
  t.add("s_bitreplicate_b64_b32", [](W& w, const I& i) {
    const uint32_t v = a32(w, i);
    uint64_t r = 0;
    for (int b = 0; b < 32; ++b) r |= uint64_t((v >> b) & 1) * (3ull << (2 * b));
    d64(w, i, r);
  });
  // The program sees device addresses: the code's load base plus `pc`.
  // GPR indexing: M0[7:0] the index, M0[15:12] which VGPR operands of VALU
  // instructions it applies to (see detail::execute_indexed).
  t.add("s_set_gpr_idx_on", [](W& w, const I& i) {
    uint32_t& m0 = w.s(reg::kM0);
    m0 = (m0 & ~0xf0ffu) | (w.scalar32(i.src[0]) & 0xff) | ((uint32_t(i.simm16) & 0xf) << 12);
    w.gpr_idx_on = true;
  });
  t.add("s_set_gpr_idx_idx", [](W& w, const I& i) {
    uint32_t& m0 = w.s(reg::kM0);
    m0 = (m0 & ~0xffu) | (w.scalar32(i.src[0]) & 0xff);
  });
  t.add("s_getpc_b64", [](W& w, const I& i) { d64(w, i, w.pc + w.code_base); });
  t.add("s_setpc_b64", [](W& w, const I& i) { w.pc = a64(w, i) - w.code_base; });
  t.add("s_swappc_b64", [](W& w, const I& i) {
    const uint64_t target = a64(w, i);
    d64(w, i, w.pc + w.code_base);
    w.pc = target - w.code_base;
  });
  t.add("s_and_saveexec_b64", saveexec<op_and>);
  t.add("s_or_saveexec_b64", saveexec<op_or>);
  t.add("s_xor_saveexec_b64", saveexec<op_xor>);
  t.add("s_andn2_saveexec_b64", saveexec<op_andn2>);
  t.add("s_orn2_saveexec_b64", saveexec<op_orn2>);
  t.add("s_nand_saveexec_b64", saveexec<op_nand>);
  t.add("s_nor_saveexec_b64", saveexec<op_nor>);
  t.add("s_xnor_saveexec_b64", saveexec<op_xnor>);
  t.add("s_andn1_saveexec_b64", saveexec<op_andn1>);
  t.add("s_orn1_saveexec_b64", saveexec<op_orn1>);
  t.add("s_andn1_wrexec_b64", wrexec<op_andn1>);
  t.add("s_andn2_wrexec_b64", wrexec<op_andn2>);
  // M0-relative moves: SGPR index + M0.
  t.add("s_movrels_b32", [](W& w, const I& i) {
    d32(w, i, w.s(static_cast<uint16_t>((i.src[0].reg + w.m0()) % reg::kScalarFileSize)));
  });
  t.add("s_movreld_b32", [](W& w, const I& i) {
    w.s(static_cast<uint16_t>((i.dst[0].reg + w.m0()) % reg::kScalarFileSize)) = a32(w, i);
  });
}

template <class T, bool (*F)(T, T)>
void cmp32(W& w, const I& i) {
  w.scc = F(static_cast<T>(a32(w, i)), static_cast<T>(b32(w, i)));
}
template <class T> bool eq(T a, T b) { return a == b; }
template <class T> bool ne(T a, T b) { return a != b; }
template <class T> bool gt(T a, T b) { return a > b; }
template <class T> bool ge(T a, T b) { return a >= b; }
template <class T> bool lt(T a, T b) { return a < b; }
template <class T> bool le(T a, T b) { return a <= b; }

void register_sopc(SemanticsTable& t) {
  t.add("s_cmp_eq_i32", cmp32<int32_t, eq<int32_t>>);
  t.add("s_cmp_lg_i32", cmp32<int32_t, ne<int32_t>>);
  t.add("s_cmp_gt_i32", cmp32<int32_t, gt<int32_t>>);
  t.add("s_cmp_ge_i32", cmp32<int32_t, ge<int32_t>>);
  t.add("s_cmp_lt_i32", cmp32<int32_t, lt<int32_t>>);
  t.add("s_cmp_le_i32", cmp32<int32_t, le<int32_t>>);
  t.add("s_cmp_eq_u32", cmp32<uint32_t, eq<uint32_t>>);
  t.add("s_cmp_lg_u32", cmp32<uint32_t, ne<uint32_t>>);
  t.add("s_cmp_gt_u32", cmp32<uint32_t, gt<uint32_t>>);
  t.add("s_cmp_ge_u32", cmp32<uint32_t, ge<uint32_t>>);
  t.add("s_cmp_lt_u32", cmp32<uint32_t, lt<uint32_t>>);
  t.add("s_cmp_le_u32", cmp32<uint32_t, le<uint32_t>>);
  t.add("s_cmp_eq_u64", [](W& w, const I& i) { w.scc = a64(w, i) == b64(w, i); });
  t.add("s_cmp_lg_u64", [](W& w, const I& i) { w.scc = a64(w, i) != b64(w, i); });
  t.add("s_bitcmp0_b32", [](W& w, const I& i) { w.scc = !((a32(w, i) >> (b32(w, i) & 31)) & 1); });
  t.add("s_bitcmp1_b32", [](W& w, const I& i) { w.scc = (a32(w, i) >> (b32(w, i) & 31)) & 1; });
  t.add("s_bitcmp0_b64", [](W& w, const I& i) { w.scc = !((a64(w, i) >> (b32(w, i) & 63)) & 1); });
  t.add("s_bitcmp1_b64", [](W& w, const I& i) { w.scc = (a64(w, i) >> (b32(w, i) & 63)) & 1; });
}

}  // namespace

void register_sop_semantics(SemanticsTable& t) {
  register_sop2(t);
  register_sop1(t);
  register_sopc(t);
}

void register_scalar_semantics(SemanticsTable& t) {
  register_sop_semantics(t);
  register_control_semantics(t);
}

}  // namespace tessera::isa
