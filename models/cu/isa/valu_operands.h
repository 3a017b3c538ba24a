// Source fetch and destination write for vector ALU semantics, with every
// modifier the encodings carry:
//   - DPP (src0 of VOP1/VOP2/VOPC): lane permutation, row/bank masks,
//     bound_ctrl; lanes whose source is invalid are either read as 0
//     (bound_ctrl) or not written.
//   - SDWA: byte/word source selects with sign/zero extension, destination
//     select with pad/sign-extend/preserve of the unused bits.
//   - VOP3: abs/neg per source (abs first), op_sel for 16-bit operands,
//     clamp and omod on float results.
// One ValuOperands lives on the stack per executed instruction; its buffers
// are arrays, so no instruction allocates. Lane loops run over all 64 lanes
// and the EXEC (and DPP) mask is applied once, at the write.
#pragma once
#include <cstdint>
#include <cstring>

#include "models/cu/isa/float_ops.h"
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

class ValuOperands {
 public:
  ValuOperands(Wave& w, const Instruction& in);

  Wave& wave() { return w_; }
  const Instruction& inst() const { return in_; }
  // The lanes this instruction writes: EXEC, narrowed by DPP masks.
  uint64_t mask() const { return mask_; }
  const FpMode& mode() const { return w_.mode; }

  // --- Sources (i = source index) ---
  // Raw 32 bits per lane after DPP and SDWA select (no abs/neg).
  const uint32_t* u32(unsigned i, uint32_t* buf) const;
  // 64-bit sources (VOP3 only: no DPP/SDWA).
  void u64(unsigned i, uint64_t* out) const { w_.src64(in_.src[i], out); }
  // Float sources with abs/neg applied and denormals flushed per mode.
  void f32(unsigned i, float* out) const;
  void f64(unsigned i, double* out) const;
  // A 16-bit source: the low half, or the high half under VOP3 op_sel or an
  // SDWA WORD_1 select.
  void u16(unsigned i, uint16_t* out) const;
  // An f16 source widened to f32 (exactly), abs/neg/flush applied.
  void f16(unsigned i, float* out) const;
  // The scalar value of a uniform source (readlane lane select, etc.).
  uint32_t scalar(unsigned i) const { return w_.scalar32(in_.src[i]); }
  // A lane mask source (VCC or an SGPR pair; carry-in, cndmask select).
  uint64_t lane_mask_src(unsigned i) const { return w_.scalar64(in_.src[i]); }

  // VOP3/SDWA/DPP float modifiers of source i as bit masks: value bits are
  // (raw & clear) ^ flip (abs clears the sign, neg flips it after abs).
  uint32_t clear32(unsigned i) const { return ((in_.abs >> i) & 1) ? 0x7fffffffu : ~0u; }
  uint32_t flip32(unsigned i) const { return ((in_.neg >> i) & 1) ? 0x80000000u : 0u; }

  // --- Destinations ---
  // f32 result bits already flushed per mode: omod/clamp (if any) applied,
  // then written like store_u32.
  void finish_f32(uint32_t* bits, unsigned d = 0);
  // Integer result: SDWA dst_sel/dst_unused applied, written under mask().
  void store_u32(const uint32_t* vals, unsigned d = 0);
  void store_u64(const uint64_t* vals, unsigned d = 0);
  // Float results: omod, clamp, denormal flush, then written.
  void store_f32(float* vals, unsigned d = 0);
  void store_f64(double* vals, unsigned d = 0);
  // f32 values rounded to f16 (omod/clamp first), written to the low half
  // with the high half zeroed (gfx9's rule for most 16-bit ops) or kept
  // (`keep_high`: v_mac_f16, v_madak_f16, v_madmk_f16), or to the high half
  // (op_sel bit 3) keeping the low half, or per SDWA dst_sel.
  void store_f16(float* vals, unsigned d = 0, bool keep_high = false);
  void store_u16(const uint16_t* vals, unsigned d = 0, bool keep_high = false);
  // A lane mask destination (VOPC result, carry-out): inactive lanes are 0.
  void store_lane_mask(uint64_t bits, unsigned d);

 private:
  void compute_dpp();
  void write_merged(unsigned d, const uint32_t* vals);

  Wave& w_;
  const Instruction& in_;
  uint64_t mask_;
  bool dpp_ = false;
  uint64_t dpp_zero_ = 0;         // lanes whose DPP source reads as 0
  uint8_t dpp_src_[kWaveSize]{};  // DPP source lane of each lane
};

// A lane mask from one 0/1 byte per lane: eight bytes at a time, as
// multiplying them by this constant gathers byte i's bit into bit 56 + i
// (the partial products never overlap, so nothing carries between them).
inline uint64_t pack_lane_bytes(const uint8_t* lanes) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte i of the word is lane 8g + i");
  uint64_t m = 0;
  for (int g = 0; g < kWaveSize / 8; ++g) {
    uint64_t x;
    std::memcpy(&x, lanes + 8 * g, 8);
    m |= ((x * 0x0102040810204080ull) >> 56) << (8 * g);
  }
  return m;
}

// The inverse: lane l's bit of `mask` as byte l (0 or 1), eight at a time.
// Each byte of the replicated mask keeps its own bit (2^i or 0); adding 0x7f
// moves any nonzero byte's top bit up without carrying into the next byte.
inline void unpack_lane_bytes(uint64_t mask, uint8_t* lanes) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte i of the word is lane 8g + i");
  for (int g = 0; g < kWaveSize / 8; ++g) {
    const uint64_t x = (((mask >> (8 * g)) & 0xff) * 0x0101010101010101ull) & 0x8040201008040201ull;
    const uint64_t bytes = ((x + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
    std::memcpy(lanes + 8 * g, &bytes, 8);
  }
}

// Lane-mask helper: bit i set where pred(i). The predicates go to bytes
// first, a loop the compiler can vectorise; a bit at a time it cannot.
template <typename Pred>
inline uint64_t lane_bits(Pred pred) {
  alignas(64) uint8_t t[kWaveSize];
  for (int i = 0; i < kWaveSize; ++i) t[i] = pred(i) ? 1 : 0;
  return pack_lane_bytes(t);
}

// Lane loops shared by the semantics files: fetch the sources, apply `f` to
// every lane, store under the write mask. `f` is inlined, so each loop is a
// straight line the compiler can vectorise.
template <typename F>
inline void map_u32(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  alignas(64) uint32_t b0[kWaveSize], b1[kWaveSize], b2[kWaveSize], d[kWaveSize];
  const uint32_t* a = ops.u32(0, b0);
  const uint32_t* b = nsrc > 1 ? ops.u32(1, b1) : a;
  const uint32_t* c = nsrc > 2 ? ops.u32(2, b2) : a;
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l], b[l], c[l]);
  ops.store_u32(d);
}
template <typename F>
__attribute__((always_inline)) inline void map_f32(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  alignas(64) uint32_t b0[kWaveSize], b1[kWaveSize], b2[kWaveSize], d[kWaveSize];
  const uint32_t* a = ops.u32(0, b0);
  const uint32_t* b = nsrc > 1 ? ops.u32(1, b1) : a;
  const uint32_t* c = nsrc > 2 ? ops.u32(2, b2) : a;
  const uint32_t ca = ops.clear32(0), cb = ops.clear32(1), cc = ops.clear32(2);
  const uint32_t fa = ops.flip32(0), fb = ops.flip32(1), fc = ops.flip32(2);
  // One fused pass: modifiers, (flush,) operation, (flush,) all vectorisable.
  if (w.mode.f32_denorms) {
    for (int l = 0; l < kWaveSize; ++l)
      d[l] = fp::bits(f(fp::f32((a[l] & ca) ^ fa), fp::f32((b[l] & cb) ^ fb), fp::f32((c[l] & cc) ^ fc)));
  } else {
    for (int l = 0; l < kWaveSize; ++l)
      d[l] = fp::flush_bits(fp::bits(f(fp::f32(fp::flush_bits((a[l] & ca) ^ fa)), fp::f32(fp::flush_bits((b[l] & cb) ^ fb)),
                                       fp::f32(fp::flush_bits((c[l] & cc) ^ fc)))));
  }
  ops.finish_f32(d);
}
template <typename F>
__attribute__((always_inline)) inline void map_f64(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  alignas(64) double a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f64(0, a);
  if (nsrc > 1) ops.f64(1, b);
  if (nsrc > 2) ops.f64(2, c);
  const double* pb = nsrc > 1 ? b : a;
  const double* pc = nsrc > 2 ? c : a;
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l], pb[l], pc[l]);
  ops.store_f64(d);
}
// f16 operands are widened to f32 exactly; `f` returns an f32 that
// store_f16 rounds to f16 once.
template <typename F>
inline void map_f16(Wave& w, const Instruction& in, unsigned nsrc, F f, bool keep_high = false) {
  ValuOperands ops(w, in);
  alignas(64) float a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.f16(0, a);
  if (nsrc > 1) ops.f16(1, b);
  if (nsrc > 2) ops.f16(2, c);
  const float* pb = nsrc > 1 ? b : a;
  const float* pc = nsrc > 2 ? c : a;
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l], pb[l], pc[l]);
  ops.store_f16(d, 0, keep_high);
}
template <typename F>
inline void map_u16(Wave& w, const Instruction& in, unsigned nsrc, F f) {
  ValuOperands ops(w, in);
  alignas(64) uint16_t a[kWaveSize], b[kWaveSize], c[kWaveSize], d[kWaveSize];
  ops.u16(0, a);
  if (nsrc > 1) ops.u16(1, b);
  if (nsrc > 2) ops.u16(2, c);
  const uint16_t* pb = nsrc > 1 ? b : a;
  const uint16_t* pc = nsrc > 2 ? c : a;
  for (int l = 0; l < kWaveSize; ++l) d[l] = f(a[l], pb[l], pc[l]);
  ops.store_u16(d);
}

// Registration of the VALU families (one file each), called by
// register_valu_semantics / register_packed_semantics.
void register_valu_int_semantics(SemanticsTable& t);
void register_valu_float_semantics(SemanticsTable& t);
void register_valu_f16_semantics(SemanticsTable& t);
void register_valu_cmp_semantics(SemanticsTable& t);
void register_valu_conv_semantics(SemanticsTable& t);
void register_valu_lane_semantics(SemanticsTable& t);
void register_mfma_semantics(SemanticsTable& t);

}  // namespace tessera::isa
