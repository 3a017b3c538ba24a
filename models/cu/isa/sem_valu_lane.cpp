// Cross-lane and register-move VALU semantics: v_readlane, v_writelane,
// v_readfirstlane, v_swap, AGPR moves, and the no-ops.
#include "models/cu/isa/valu_operands.h"

namespace tessera::isa {

namespace {
// v_readfirstlane_b32: the first active lane's value (lane 0 when EXEC is 0).
void readfirstlane(Wave& w, const Instruction& in) {
  alignas(64) uint32_t buf[kWaveSize];
  const uint32_t* v = w.src32(in.src[0], buf);
  const uint64_t exec = w.exec();
  const int lane = exec ? __builtin_ctzll(exec) : 0;
  w.write_scalar32(in.dst[0], v[lane]);
}
// v_readlane_b32 sdst, vsrc, lane: the lane number comes from an SGPR or an
// inline constant; only its low 6 bits count (wave64).
void readlane(Wave& w, const Instruction& in) {
  alignas(64) uint32_t buf[kWaveSize];
  const uint32_t* v = w.src32(in.src[0], buf);
  w.write_scalar32(in.dst[0], v[w.scalar32(in.src[1]) & 63]);
}
// v_writelane_b32 vdst, ssrc, lane: writes one lane whatever EXEC says.
void writelane(Wave& w, const Instruction& in) {
  const unsigned lane = w.scalar32(in.src[1]) & 63;
  w.lanes(in.dst[0])[lane] = w.scalar32(in.src[0]);
}
// v_swap_b32 vdst, vsrc: exchanges the two registers in the active lanes.
void swap(Wave& w, const Instruction& in) {
  alignas(64) uint32_t a[kWaveSize], b[kWaveSize];
  const uint64_t exec = w.exec();
  const Operand& other = in.num_dst > 1 ? in.dst[1] : in.src[0];
  std::memcpy(a, w.lanes(in.dst[0]), sizeof a);
  std::memcpy(b, w.lanes(other), sizeof b);
  w.write32(in.dst[0], b, exec);
  w.write32(other, a, exec);
}
// Moves into and out of the AGPR file (v_accvgpr_read/write/mov).
void move32(Wave& w, const Instruction& in) {
  alignas(64) uint32_t buf[kWaveSize];
  w.write32(in.dst[0], w.src32(in.src[0], buf), w.exec());
}
void nop(Wave&, const Instruction&) {}
}  // namespace

void register_valu_lane_semantics(SemanticsTable& t) {
  t.add("v_readfirstlane_b32", readfirstlane);
  t.add("v_readlane_b32", readlane);
  t.add("v_writelane_b32", writelane);
  t.add("v_swap_b32", swap);
  t.add("v_accvgpr_mov_b32", move32);
  t.add("v_accvgpr_read_b32", move32);
  t.add("v_accvgpr_write_b32", move32);
  t.add("v_nop", nop);
  t.add("v_clrexcp", nop);
}

}  // namespace tessera::isa
