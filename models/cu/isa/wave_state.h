// The architectural state of one wavefront (wave64): scalar and vector register
// files, EXEC, VCC, SCC, M0, the PC and the floating-point mode, plus the
// operand access helpers that instruction semantics use.
//
// The scalar file is indexed by hardware operand code (isa::reg), so VCC, M0
// and EXEC live at their codes and an Operand's `reg` indexes it directly.
// Vector registers are 64 lanes of 32 bits; a 64-bit value spans two
// consecutive registers (low dword in the first).
//
// Semantics compute every lane and then merge under EXEC with a blend, so the
// common full-EXEC case is a straight loop the compiler vectorises.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "models/cu/isa/instruction.h"

namespace tessera::isa {

constexpr int kWaveSize = 64;

// Flat-address apertures (gfx9 style): a flat address whose upper 32 bits
// equal a base below addresses LDS or the lane's private segment instead of
// device memory. src_shared_base / src_private_base read these upper halves.
constexpr uint64_t kSharedApertureBase = 0x0001'0000'0000'0000ull;
constexpr uint64_t kPrivateApertureBase = 0x0002'0000'0000'0000ull;
constexpr uint64_t kApertureSize = 0x1'0000'0000ull;

struct alignas(64) VReg {
  uint32_t lane[kWaveSize];
};

// Floating-point mode as the kernel descriptor sets it (FLOAT_DENORM_MODE_*,
// FLOAT_ROUND_MODE_*) and s_setreg may change. Only round-to-nearest-even is
// modelled for arithmetic; denormal flushing is applied explicitly.
struct FpMode {
  bool f32_denorms = false;     // false: f32 denormal inputs and outputs flush to zero
  bool f16_f64_denorms = true;  // false: f16/f64 denormals flush to zero
  bool ieee = true;             // IEEE mode bit (NaN quieting in min/max)
  bool dx10_clamp = true;
};

class WaveState {
 public:
  WaveState(unsigned vgprs, unsigned agprs) : vgpr_(vgprs), agpr_(agprs) { std::memset(sgpr_, 0, sizeof sgpr_); }

  // Scalar registers by code.
  uint32_t& s(uint16_t code) { return sgpr_[code]; }
  uint32_t s(uint16_t code) const { return sgpr_[code]; }
  uint64_t s64(uint16_t code) const { return sgpr_[code] | (static_cast<uint64_t>(sgpr_[code + 1]) << 32); }
  void set_s64(uint16_t code, uint64_t v) {
    sgpr_[code] = static_cast<uint32_t>(v);
    sgpr_[code + 1] = static_cast<uint32_t>(v >> 32);
  }

  uint64_t exec() const { return s64(reg::kExecLo); }
  void set_exec(uint64_t v) { set_s64(reg::kExecLo, v); }
  uint64_t vcc() const { return s64(reg::kVccLo); }
  void set_vcc(uint64_t v) { set_s64(reg::kVccLo, v); }
  uint32_t m0() const { return sgpr_[reg::kM0]; }

  bool scc = false;
  uint64_t pc = 0;
  FpMode mode;

  // Vector registers.
  unsigned num_vgprs() const { return static_cast<unsigned>(vgpr_.size()); }
  unsigned num_agprs() const { return static_cast<unsigned>(agpr_.size()); }
  uint32_t* v(unsigned r) { return vgpr_[r].lane; }
  const uint32_t* v(unsigned r) const { return vgpr_[r].lane; }
  uint32_t* a(unsigned r) { return agpr_[r].lane; }
  const uint32_t* a(unsigned r) const { return agpr_[r].lane; }

  // The lanes of a vector operand's register `dword` (0 = first register).
  uint32_t* lanes(const Operand& op, unsigned dword = 0) {
    return op.kind == OperandKind::Agpr ? a(op.reg + dword) : v(op.reg + dword);
  }
  const uint32_t* lanes(const Operand& op, unsigned dword = 0) const {
    return op.kind == OperandKind::Agpr ? a(op.reg + dword) : v(op.reg + dword);
  }

  // Scalar value of a scalar, constant or special operand (low dword).
  uint32_t scalar32(const Operand& op) const {
    switch (op.kind) {
      case OperandKind::Scalar: return sgpr_[op.reg];
      case OperandKind::Constant: return static_cast<uint32_t>(op.value);
      case OperandKind::Special: return special(op.reg);
      default: return 0;
    }
  }
  uint64_t scalar64(const Operand& op) const {
    switch (op.kind) {
      case OperandKind::Scalar: return s64(op.reg);
      case OperandKind::Constant: return op.value;
      case OperandKind::Special: return special(op.reg);
      default: return 0;
    }
  }
  void write_scalar32(const Operand& op, uint32_t v) {
    if (op.kind == OperandKind::Scalar) sgpr_[op.reg] = v;
  }
  void write_scalar64(const Operand& op, uint64_t v) {
    if (op.kind == OperandKind::Scalar) set_s64(op.reg, v);
  }

  // A 32-bit source for every lane: the register itself, or `scratch` filled
  // with the broadcast scalar/constant. `dword` selects the high half of 64-bit operands.
  const uint32_t* src32(const Operand& op, uint32_t* scratch, unsigned dword = 0) const {
    if (op.kind == OperandKind::Vgpr || op.kind == OperandKind::Agpr) return lanes(op, dword);
    const uint64_t x = op.kind == OperandKind::Constant ? op.value : scalar64(op);
    const uint32_t word = static_cast<uint32_t>(dword ? x >> 32 : x);
    for (int i = 0; i < kWaveSize; ++i) scratch[i] = word;
    return scratch;
  }
  // A 64-bit source for every lane, into `out`.
  void src64(const Operand& op, uint64_t* out) const {
    if (op.kind == OperandKind::Vgpr || op.kind == OperandKind::Agpr) {
      const uint32_t* lo = lanes(op, 0);
      const uint32_t* hi = lanes(op, 1);
      for (int i = 0; i < kWaveSize; ++i) out[i] = lo[i] | (static_cast<uint64_t>(hi[i]) << 32);
      return;
    }
    const uint64_t x = scalar64(op);
    for (int i = 0; i < kWaveSize; ++i) out[i] = x;
  }

  // Writes `vals` to the lanes of a vector destination that are set in `mask`.
  void write32(const Operand& dst, const uint32_t* vals, uint64_t mask, unsigned dword = 0) {
    uint32_t* d = lanes(dst, dword);
    if (mask == ~0ull) {
      std::memcpy(d, vals, sizeof(uint32_t) * kWaveSize);
      return;
    }
    for (int i = 0; i < kWaveSize; ++i) d[i] = ((mask >> i) & 1) ? vals[i] : d[i];
  }
  void write64(const Operand& dst, const uint64_t* vals, uint64_t mask) {
    uint32_t* lo = lanes(dst, 0);
    uint32_t* hi = lanes(dst, 1);
    if (mask == ~0ull) {  // every lane: a loop without selects, which vectorises
      for (int i = 0; i < kWaveSize; ++i) {
        lo[i] = static_cast<uint32_t>(vals[i]);
        hi[i] = static_cast<uint32_t>(vals[i] >> 32);
      }
      return;
    }
    for (int i = 0; i < kWaveSize; ++i) {
      const bool on = (mask >> i) & 1;
      lo[i] = on ? static_cast<uint32_t>(vals[i]) : lo[i];
      hi[i] = on ? static_cast<uint32_t>(vals[i] >> 32) : hi[i];
    }
  }

 private:
  uint32_t special(uint16_t code) const {
    switch (code) {
      case reg::kVccz: return vcc() == 0;
      case reg::kExecz: return exec() == 0;
      case reg::kScc: return scc;
      case reg::kSrcSharedBase: return static_cast<uint32_t>(kSharedApertureBase >> 32);
      case reg::kSrcSharedLimit: return static_cast<uint32_t>((kSharedApertureBase + kApertureSize - 1) >> 32);
      case reg::kSrcPrivateBase: return static_cast<uint32_t>(kPrivateApertureBase >> 32);
      case reg::kSrcPrivateLimit: return static_cast<uint32_t>((kPrivateApertureBase + kApertureSize - 1) >> 32);
      default: return 0;
    }
  }

  uint32_t sgpr_[reg::kScalarFileSize];
  std::vector<VReg> vgpr_;
  std::vector<VReg> agpr_;
};

}  // namespace tessera::isa
