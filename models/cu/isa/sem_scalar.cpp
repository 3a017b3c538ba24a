// Scalar ALU and program-control semantics (SOP1/SOP2/SOPK/SOPC/SOPP).
#include "models/cu/isa/semantics.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

namespace {
void s_endpgm(Wave& w, const Instruction&) { w.end(); }
void s_nop(Wave&, const Instruction&) {}
void s_barrier(Wave& w, const Instruction&) { w.arrive_at_barrier(); }
}  // namespace

void register_scalar_semantics(SemanticsTable& t) {
  t.add("s_endpgm", s_endpgm);
  t.add("s_nop", s_nop);
  t.add("s_waitcnt", s_nop);
  t.add("s_barrier", s_barrier);
}

}  // namespace tessera::isa
