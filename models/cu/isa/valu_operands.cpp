#include "models/cu/isa/valu_operands.h"

#include <cstring>

namespace tessera::isa {

namespace {
constexpr uint8_t kSelDword = 6;
constexpr uint8_t kUnusedSext = 1, kUnusedPreserve = 2;

// SDWA source select: byte 0-3 or word 0-1, zero- or sign-extended.
inline uint32_t sdwa_select(uint32_t x, uint8_t sel, bool sext) {
  if (sel < 4) {
    const uint32_t b = (x >> (8 * sel)) & 0xffu;
    return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b))) : b;
  }
  const uint32_t h = (x >> (sel == 5 ? 16 : 0)) & 0xffffu;
  return sext ? static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(h))) : h;
}

// The source lane DPP control `ctrl` reads for lane l, or -1 when out of range.
int dpp_source_lane(uint16_t ctrl, int l) {
  const int row = l & ~15, in_row = l & 15, n = ctrl & 15;
  if (ctrl <= 0xff) return (l & ~3) | ((ctrl >> ((l & 3) * 2)) & 3);  // quad_perm
  if (ctrl >= 0x101 && ctrl <= 0x10f) return in_row + n < 16 ? l + n : -1;  // row_shl
  if (ctrl >= 0x111 && ctrl <= 0x11f) return in_row >= n ? l - n : -1;     // row_shr
  if (ctrl >= 0x121 && ctrl <= 0x12f) return row | ((in_row - n) & 15);    // row_ror
  if (ctrl >= 0x150 && ctrl <= 0x15f) return row | n;                      // row_newbcast
  switch (ctrl) {
    case 0x130: return l + 1 < kWaveSize ? l + 1 : -1;  // wave_shl:1
    case 0x134: return (l + 1) & 63;                    // wave_rol:1
    case 0x138: return l >= 1 ? l - 1 : -1;             // wave_shr:1
    case 0x13c: return (l - 1) & 63;                    // wave_ror:1
    case 0x140: return row | (15 - in_row);             // row_mirror
    case 0x141: return (l & ~7) | (7 - (l & 7));        // row_half_mirror
    case 0x142: return l >= 16 ? row - 1 : -1;          // row_bcast:15
    case 0x143: return l >= 32 ? 31 : -1;               // row_bcast:31
    default: return -1;
  }
}
}  // namespace

ValuOperands::ValuOperands(Wave& w, const Instruction& in) : w_(w), in_(in), mask_(w.exec()) {
  if (in.ext == ExtKind::Dpp) compute_dpp();
}

void ValuOperands::compute_dpp() {
  dpp_ = true;
  const uint64_t exec = w_.exec();
  for (int l = 0; l < kWaveSize; ++l) {
    const uint64_t bit = 1ull << l;
    const bool enabled = ((in_.row_mask >> (l >> 4)) & 1) && ((in_.bank_mask >> ((l >> 2) & 3)) & 1);
    if (!enabled) mask_ &= ~bit;
    const int src = dpp_source_lane(in_.dpp_ctrl, l);
    const bool valid = src >= 0 && ((exec >> src) & 1);
    if (!valid) {
      if (in_.bound_ctrl)
        dpp_zero_ |= bit;
      else
        mask_ &= ~bit;
    }
    dpp_src_[l] = static_cast<uint8_t>(valid ? src : l);
  }
}

const uint32_t* ValuOperands::u32(unsigned i, uint32_t* buf) const {
  const Operand& op = in_.src[i];
  const uint32_t* p = w_.src32(op, buf);
  if (dpp_ && i == 0) {
    // DPP src0 is a VGPR, so p is the register itself, never buf.
    for (int l = 0; l < kWaveSize; ++l) buf[l] = ((dpp_zero_ >> l) & 1) ? 0u : p[dpp_src_[l]];
    p = buf;
  }
  if (in_.ext == ExtKind::Sdwa && i < 2 && in_.src_sel[i] != kSelDword) {
    const uint8_t sel = in_.src_sel[i];
    const bool sext = in_.src_sext[i];
    for (int l = 0; l < kWaveSize; ++l) buf[l] = sdwa_select(p[l], sel, sext);
    p = buf;
  }
  return p;
}

void ValuOperands::f32(unsigned i, float* out) const {
  alignas(64) uint32_t buf[kWaveSize];
  const uint32_t* p = u32(i, buf);
  const uint32_t clear = ((in_.abs >> i) & 1) ? 0x7fffffffu : 0xffffffffu;
  const uint32_t flip = ((in_.neg >> i) & 1) ? 0x80000000u : 0u;
  const bool keep = w_.mode.f32_denorms;
  for (int l = 0; l < kWaveSize; ++l) {
    uint32_t b = (p[l] & clear) ^ flip;
    if (!keep) b = fp::flush_bits(b);
    out[l] = fp::f32(b);
  }
}

void ValuOperands::f64(unsigned i, double* out) const {
  alignas(64) uint64_t raw[kWaveSize];
  w_.src64(in_.src[i], raw);
  const uint64_t clear = ((in_.abs >> i) & 1) ? 0x7fffffffffffffffull : ~0ull;
  const uint64_t flip = ((in_.neg >> i) & 1) ? 0x8000000000000000ull : 0ull;
  const bool keep = w_.mode.f16_f64_denorms;
  for (int l = 0; l < kWaveSize; ++l) {
    uint64_t b = (raw[l] & clear) ^ flip;
    if (!keep) b = fp::flush_bits(b);
    out[l] = fp::f64(b);
  }
}

void ValuOperands::u16(unsigned i, uint16_t* out) const {
  alignas(64) uint32_t buf[kWaveSize];
  const uint32_t* p = u32(i, buf);
  const unsigned shift = (in_.format == Format::VOP3 && ((in_.op_sel >> i) & 1)) ? 16 : 0;
  for (int l = 0; l < kWaveSize; ++l) out[l] = static_cast<uint16_t>(p[l] >> shift);
}

void ValuOperands::f16(unsigned i, float* out) const {
  alignas(64) uint16_t h[kWaveSize];
  u16(i, h);
  const uint16_t clear = ((in_.abs >> i) & 1) ? 0x7fff : 0xffff;
  const uint16_t flip = ((in_.neg >> i) & 1) ? 0x8000 : 0;
  const bool keep = w_.mode.f16_f64_denorms;
  for (int l = 0; l < kWaveSize; ++l) {
    uint16_t b = static_cast<uint16_t>((h[l] & clear) ^ flip);
    if (!keep) b = fp::flush_bits16(b);
    out[l] = fp::f16_to_f32(b);
  }
}

void ValuOperands::write_merged(unsigned d, const uint32_t* vals) {
  const Operand& dst = in_.dst[d];
  if (in_.ext != ExtKind::Sdwa || in_.dst_sel == kSelDword) {
    w_.write32(dst, vals, mask_);
    return;
  }
  const unsigned width = in_.dst_sel < 4 ? 8 : 16;
  const unsigned shift = in_.dst_sel < 4 ? 8u * in_.dst_sel : (in_.dst_sel == 5 ? 16u : 0u);
  const uint32_t field = ((1u << width) - 1) << shift;
  const uint32_t* old = w_.lanes(dst);
  alignas(64) uint32_t out[kWaveSize];
  for (int l = 0; l < kWaveSize; ++l) {
    const uint32_t v = (vals[l] << shift) & field;
    uint32_t r = v;
    if (in_.dst_unused == kUnusedPreserve) {
      r = (old[l] & ~field) | v;
    } else if (in_.dst_unused == kUnusedSext && ((v >> (shift + width - 1)) & 1)) {
      r = v | ~((1u << (shift + width - 1)) * 2 - 1);  // ones above the field
      if (shift + width == 32) r = v;
    }
    out[l] = r;
  }
  w_.write32(dst, out, mask_);
}

void ValuOperands::store_u32(const uint32_t* vals, unsigned d) { write_merged(d, vals); }

void ValuOperands::store_u64(const uint64_t* vals, unsigned d) { w_.write64(in_.dst[d], vals, mask_); }

namespace {
template <typename T>
inline T apply_omod_clamp(T v, uint8_t omod, bool clamp) {
  if (omod == 1) v *= T(2);
  else if (omod == 2) v *= T(4);
  else if (omod == 3) v *= T(0.5);
  if (clamp) {
    v = v > T(1) ? T(1) : v;
    v = v >= T(0) ? v : T(0);  // NaN clamps to 0
  }
  return v;
}
}  // namespace

void ValuOperands::store_f32(float* vals, unsigned d) {
  alignas(64) uint32_t out[kWaveSize];
  if (w_.mode.f32_denorms)
    for (int l = 0; l < kWaveSize; ++l) out[l] = fp::bits(vals[l]);
  else
    for (int l = 0; l < kWaveSize; ++l) out[l] = fp::flush_bits(fp::bits(vals[l]));
  finish_f32(out, d);
}

void ValuOperands::finish_f32(uint32_t* out, unsigned d) {
  if (in_.omod || in_.clamp) {
    const bool keep = w_.mode.f32_denorms;
    for (int l = 0; l < kWaveSize; ++l) {
      const uint32_t b = fp::bits(apply_omod_clamp(fp::f32(out[l]), in_.omod, in_.clamp));
      out[l] = keep ? b : fp::flush_bits(b);
    }
  }
  write_merged(d, out);
}

void ValuOperands::store_f64(double* vals, unsigned d) {
  const bool keep = w_.mode.f16_f64_denorms;
  alignas(64) uint64_t out[kWaveSize];
  for (int l = 0; l < kWaveSize; ++l) {
    const double v = apply_omod_clamp(vals[l], in_.omod, in_.clamp);
    out[l] = keep ? fp::bits(v) : fp::flush_bits(fp::bits(v));
  }
  w_.write64(in_.dst[d], out, mask_);
}

void ValuOperands::store_f16(float* vals, unsigned d, bool keep_high) {
  const bool keep = w_.mode.f16_f64_denorms;
  alignas(64) uint16_t h[kWaveSize];
  for (int l = 0; l < kWaveSize; ++l) {
    const uint16_t r = fp::f32_to_f16(apply_omod_clamp(vals[l], in_.omod, in_.clamp));
    h[l] = keep ? r : fp::flush_bits16(r);
  }
  store_u16(h, d, keep_high);
}

void ValuOperands::store_u16(const uint16_t* vals, unsigned d, bool keep_high) {
  alignas(64) uint32_t out[kWaveSize];
  if (in_.format == Format::VOP3 && (in_.op_sel & 8)) {
    const uint32_t* old = w_.lanes(in_.dst[d]);
    for (int l = 0; l < kWaveSize; ++l) out[l] = (old[l] & 0xffffu) | (static_cast<uint32_t>(vals[l]) << 16);
    w_.write32(in_.dst[d], out, mask_);
    return;
  }
  if (keep_high && in_.ext != ExtKind::Sdwa) {
    const uint32_t* old = w_.lanes(in_.dst[d]);
    for (int l = 0; l < kWaveSize; ++l) out[l] = (old[l] & 0xffff0000u) | vals[l];
  } else {
    for (int l = 0; l < kWaveSize; ++l) out[l] = vals[l];
  }
  write_merged(d, out);
}

void ValuOperands::store_lane_mask(uint64_t bits, unsigned d) { w_.write_scalar64(in_.dst[d], bits & mask_); }

}  // namespace tessera::isa
