// Program control and hardware registers: SOPK and SOPP semantics, and
// s_getreg/s_setreg. Branch semantics set the wave's PC (which already points
// past the instruction when they run).
#include <cstdio>

#include "models/cu/isa/sem_groups.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

namespace {

using W = Wave;
using I = Instruction;

// Hardware register ids of s_getreg/s_setreg (gfx9).
enum HwReg : unsigned { kMode = 1, kStatus = 2, kTrapSts = 3, kHwId = 4, kGprAlloc = 5, kLdsAlloc = 6, kShMemBases = 15 };

// MODE bits 5:4 single-precision denormals, 7:6 double/half, 8 DX10_CLAMP, 9 IEEE,
// 27 GPR_IDX_EN.
constexpr uint32_t kModeModelled = 0x3f0 | (1u << 27);

uint32_t read_mode(const W& w) {
  return (w.mode_other_bits & ~kModeModelled) | (w.mode.f32_denorms ? 3u << 4 : 0) |
         (w.mode.f16_f64_denorms ? 3u << 6 : 0) | (uint32_t(w.mode.dx10_clamp) << 8) | (uint32_t(w.mode.ieee) << 9) |
         (uint32_t(w.gpr_idx_on) << 27);
}

// A denormal field of 3 keeps denormals; 0, 1 and 2 are treated as flushing.
void write_mode(W& w, uint32_t v) {
  w.mode_other_bits = v & ~kModeModelled;
  w.mode.f32_denorms = ((v >> 4) & 3) == 3;
  w.mode.f16_f64_denorms = ((v >> 6) & 3) == 3;
  w.mode.dx10_clamp = (v >> 8) & 1;
  w.mode.ieee = (v >> 9) & 1;
  w.gpr_idx_on = (v >> 27) & 1;
}

// The whole register, or false after faulting for one that is not modelled.
bool read_hwreg(W& w, unsigned id, uint32_t& out) {
  switch (id) {
    case kMode: out = read_mode(w); return true;
    case kStatus:
      out = uint32_t(w.scc) | (uint32_t(w.exec() == 0) << 9) | (uint32_t(w.vcc() == 0) << 10);
      return true;
    case kTrapSts: out = 0; return true;
    case kHwId:
      // wave_id 3:0, simd_id 5:4: a deterministic placement from the wave's index.
      out = (w.id.wave_in_group & 0xf) | ((w.id.wave_in_group & 3) << 4);
      return true;
    case kGprAlloc:
      out = ((w.num_vgprs() + w.num_agprs()) / 8 - 1) << 8;
      return true;
    case kLdsAlloc: out = (w.lds_size() / 512) << 12; return true;
    case kShMemBases:
      out = static_cast<uint32_t>(kPrivateApertureBase >> 48) | static_cast<uint32_t>((kSharedApertureBase >> 48) << 16);
      return true;
    default:
      w.fault("hardware register " + std::to_string(id) + " is not modelled by s_getreg/s_setreg");
      return false;
  }
}

// simm16 of s_getreg/s_setreg: id 5:0, offset 10:6, size-1 15:11.
struct Field {
  unsigned id, offset;
  uint32_t mask;  // in place
};
Field field(const I& i) {
  const uint32_t imm = static_cast<uint16_t>(i.simm16);
  const unsigned id = imm & 0x3f, offset = (imm >> 6) & 0x1f, size = ((imm >> 11) & 0x1f) + 1;
  const uint32_t bits = size >= 32 ? 0xffffffffu : (1u << size) - 1;
  return {id, offset, bits << offset};
}

void setreg(W& w, const I& i, uint32_t value) {
  const Field f = field(i);
  if (f.id != kMode) {
    w.fault("s_setreg of hardware register " + std::to_string(f.id) + " is not modelled (only MODE is)");
    return;
  }
  write_mode(w, (read_mode(w) & ~f.mask) | ((value << f.offset) & f.mask));
}

// The register a SOPK instruction reads and/or writes (its SDST field).
const Operand& sopk_reg(const I& i) { return i.num_dst ? i.dst[0] : i.src[0]; }
uint32_t sopk_read(const W& w, const I& i) { return w.scalar32(sopk_reg(i)); }
void sopk_write(W& w, const I& i, uint32_t v) { w.write_scalar32(sopk_reg(i), v); }
uint32_t simm_s(const I& i) { return static_cast<uint32_t>(i.simm16); }
uint32_t simm_u(const I& i) { return static_cast<uint16_t>(i.simm16); }

void register_sopk(SemanticsTable& t) {
  t.add("s_movk_i32", [](W& w, const I& i) { sopk_write(w, i, simm_s(i)); });
  t.add("s_cmovk_i32", [](W& w, const I& i) { if (w.scc) sopk_write(w, i, simm_s(i)); });
  t.add("s_cmpk_eq_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) == int32_t(simm_s(i)); });
  t.add("s_cmpk_lg_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) != int32_t(simm_s(i)); });
  t.add("s_cmpk_gt_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) > int32_t(simm_s(i)); });
  t.add("s_cmpk_ge_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) >= int32_t(simm_s(i)); });
  t.add("s_cmpk_lt_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) < int32_t(simm_s(i)); });
  t.add("s_cmpk_le_i32", [](W& w, const I& i) { w.scc = int32_t(sopk_read(w, i)) <= int32_t(simm_s(i)); });
  t.add("s_cmpk_eq_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) == simm_u(i); });
  t.add("s_cmpk_lg_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) != simm_u(i); });
  t.add("s_cmpk_gt_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) > simm_u(i); });
  t.add("s_cmpk_ge_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) >= simm_u(i); });
  t.add("s_cmpk_lt_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) < simm_u(i); });
  t.add("s_cmpk_le_u32", [](W& w, const I& i) { w.scc = sopk_read(w, i) <= simm_u(i); });
  t.add("s_addk_i32", [](W& w, const I& i) {
    const int64_t r = int64_t(int32_t(sopk_read(w, i))) + int32_t(simm_s(i));
    sopk_write(w, i, static_cast<uint32_t>(r));
    w.scc = r != int32_t(r);
  });
  t.add("s_mulk_i32", [](W& w, const I& i) { sopk_write(w, i, sopk_read(w, i) * simm_s(i)); });
  t.add("s_getreg_b32", [](W& w, const I& i) {
    const Field f = field(i);
    uint32_t v;
    if (read_hwreg(w, f.id, v)) sopk_write(w, i, (v & f.mask) >> f.offset);
  });
  t.add("s_setreg_b32", [](W& w, const I& i) { setreg(w, i, sopk_read(w, i)); });
  t.add("s_setreg_imm32_b32", [](W& w, const I& i) { setreg(w, i, i.literal); });
  t.add("s_call_b64", [](W& w, const I& i) {
    w.write_scalar64(i.dst[0], w.pc + w.code_base);
    w.pc = i.branch_target();
  });
}

void register_sopp(SemanticsTable& t) {
  t.add("s_nop", no_op);
  // Functional execution completes every access before the next instruction,
  // so the counters s_waitcnt waits for are always zero.
  t.add("s_waitcnt", no_op);
  t.add("s_setprio", no_op);
  t.add("s_sleep", no_op);
  t.add("s_icache_inv", no_op);
  t.add("s_incperflevel", no_op);
  t.add("s_decperflevel", no_op);
  t.add("s_ttracedata", no_op);
  t.add("s_endpgm", [](W& w, const I&) { w.end(); });
  t.add("s_endpgm_saved", [](W& w, const I&) { w.end(); });
  t.add("s_barrier", [](W& w, const I&) { w.arrive_at_barrier(); });
  t.add("s_set_gpr_idx_off", [](W& w, const I&) { w.gpr_idx_on = false; });
  t.add("s_set_gpr_idx_mode", [](W& w, const I& i) {
    uint32_t& m0 = w.s(reg::kM0);
    m0 = (m0 & ~0xf000u) | ((uint32_t(i.simm16) & 0xf) << 12);
  });
  t.add("s_branch", [](W& w, const I& i) { w.pc = i.branch_target(); });
  t.add("s_cbranch_scc0", [](W& w, const I& i) { if (!w.scc) w.pc = i.branch_target(); });
  t.add("s_cbranch_scc1", [](W& w, const I& i) { if (w.scc) w.pc = i.branch_target(); });
  t.add("s_cbranch_vccz", [](W& w, const I& i) { if (w.vcc() == 0) w.pc = i.branch_target(); });
  t.add("s_cbranch_vccnz", [](W& w, const I& i) { if (w.vcc() != 0) w.pc = i.branch_target(); });
  t.add("s_cbranch_execz", [](W& w, const I& i) { if (w.exec() == 0) w.pc = i.branch_target(); });
  t.add("s_cbranch_execnz", [](W& w, const I& i) { if (w.exec() != 0) w.pc = i.branch_target(); });
  t.add("s_trap", [](W& w, const I& i) {
    w.fault("s_trap " + std::to_string(i.simm16 & 0xff) + " executed (the kernel trapped, e.g. __builtin_trap)");
  });
  t.add("s_sethalt", [](W& w, const I& i) {
    if (i.simm16 & 1) w.fault("s_sethalt 1: the kernel halted itself");
  });
}

}  // namespace

void no_op(Wave&, const Instruction&) {}

void register_control_semantics(SemanticsTable& t) {
  register_sopk(t);
  register_sopp(t);
}

}  // namespace tessera::isa
