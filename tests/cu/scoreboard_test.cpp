// One wave's scoreboard on its own: ALU results by ready cycle, memory
// destinations by busy lanes until their last writer completes.
#include <catch2/catch.hpp>

#include "models/cu/scoreboard.h"

using namespace tessera;

namespace {

// An instruction reading `reads` and writing `writes` (runs of slots).
InstInfo sb_inst(std::initializer_list<SlotRun> reads, std::initializer_list<SlotRun> writes) {
  InstInfo i;
  for (const SlotRun& r : reads) i.read_runs[i.reads++] = r;
  for (const SlotRun& w : writes) i.write_runs[i.writes++] = w;
  return i;
}

SlotRun sb_vgpr(unsigned r, unsigned n = 1) { return SlotRun{uint16_t(kVgprSlot + r), uint8_t(n), false}; }
SlotRun sb_agpr(unsigned r, unsigned n = 1) { return SlotRun{uint16_t(kVgprSlot + r), uint8_t(n), true}; }
SlotRun sb_sgpr(unsigned r, unsigned n = 1) { return SlotRun{uint16_t(r), uint8_t(n), false}; }

}  // namespace

TEST_CASE("scoreboard: an operand is ready when its latest producer's result is", "[cu]") {
  Scoreboard b;
  b.reset(kVgprSlot + 8 + 4, 8);  // 8 VGPRs, 4 AGPRs
  CHECK(b.operands_ready(sb_inst({sb_vgpr(0, 2)}, {})) == 0);
  b.mark_results(sb_inst({}, {sb_vgpr(1)}), 10);
  b.mark_results(sb_inst({}, {sb_sgpr(4, 2)}), 7);
  CHECK(b.operands_ready(sb_inst({sb_vgpr(0, 2)}, {})) == 10);
  CHECK(b.operands_ready(sb_inst({sb_vgpr(0), sb_sgpr(5)}, {})) == 7);
  // AGPR a1 is slot kVgprSlot + 8 + 1, not v1's.
  b.mark_results(sb_inst({}, {sb_agpr(1)}), 20);
  CHECK(b.operands_ready(sb_inst({sb_vgpr(1)}, {})) == 10);
  CHECK(b.operands_ready(sb_inst({sb_agpr(1)}, {})) == 20);
  // A run past the wave's registers is clipped, not read out of range.
  CHECK(b.operands_ready(sb_inst({sb_agpr(3, 4)}, {})) == 0);
}

TEST_CASE("scoreboard: memory destinations stay busy per lane until their last writer completes", "[cu]") {
  Scoreboard b;
  b.reset(kVgprSlot + 8, 8);
  const InstInfo load_v2 = sb_inst({sb_vgpr(0)}, {sb_vgpr(2)}), load_v2_v3 = sb_inst({sb_vgpr(0)}, {sb_vgpr(2, 2)});
  b.memory_issued(load_v2, 0x00ff);
  b.memory_issued(load_v2_v3, 0xff00);
  CHECK(b.busy_lanes(kVgprSlot + 2) == 0xffff);
  CHECK(b.busy_lanes(kVgprSlot + 3) == 0xff00);
  CHECK(b.busy_operand_lanes(sb_inst({sb_vgpr(3)}, {})) == 0xff00);
  CHECK(b.busy_operand_lanes(sb_inst({sb_vgpr(4)}, {})) == 0);
  b.memory_completed(load_v2);
  CHECK(b.busy_lanes(kVgprSlot + 2) == 0xffff);  // the second load still writes v2
  b.memory_completed(load_v2_v3);
  CHECK(b.busy_lanes(kVgprSlot + 2) == 0);
  CHECK(b.busy_lanes(kVgprSlot + 3) == 0);
  // Memory in flight does not hold the ALU ready cycles (s_waitcnt orders it).
  CHECK(b.operands_ready(sb_inst({sb_vgpr(2)}, {})) == 0);
}
