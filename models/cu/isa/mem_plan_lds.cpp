// lds_access(): the per-lane LDS addresses of a DS instruction, for the CU's
// LDS bank-conflict model. Each instruction's shape (addresses per lane,
// bytes, offset stride) is registered with its ExecFn (sem_memory_lds.cpp);
// the addressing is the ExecFns' own: ADDR + offset for single-address forms
// and atomics, mem::ds2_offsets() for ds_read2/ds_write2.
#include <array>

#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/op_table.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

namespace {

// Shapes by DS opcode (8 bits), built once; opcodes without semantics touch nothing.
const std::array<LdsShape, 256>& shapes() {
  static const std::array<LdsShape, 256> table = [] {
    LdsShapeTable by_name;
    register_ds_shapes(by_name);
    std::array<LdsShape, 256> t{};
    for (unsigned opc = 0; opc < 256; ++opc) {
      const OpInfo* op = find_op(Format::DS, opc);
      if (!op) continue;
      auto it = by_name.all().find(op->mnemonic);
      if (it != by_name.all().end()) t[opc] = it->second;
    }
    return t;
  }();
  return table;
}

}  // namespace

void lds_access(const Wave& wave, const Instruction& inst, LdsAccess& out) {
  const LdsShape shape = inst.op && inst.op->format == Format::DS ? shapes()[inst.op->opcode & 0xff] : LdsShape{};
  out.exec = wave.exec();
  out.addresses_per_lane = shape.addresses;
  out.bytes = shape.bytes;
  if (!shape.addresses) return;
  const uint32_t* a = wave.lanes(inst.src[0]);
  uint32_t o0 = static_cast<uint32_t>(inst.offset), o1 = 0;
  if (shape.addresses == 2) mem::ds2_offsets(inst, shape.bytes, shape.stride, o0, o1);
  // Every lane, active or not (the bank model reads only the active ones):
  // straight loops the compiler vectorises.
  for (unsigned lane = 0; lane < kWaveSize; ++lane) out.addr[0][lane] = a[lane] + o0;
  if (shape.addresses == 2)
    for (unsigned lane = 0; lane < kWaveSize; ++lane) out.addr[1][lane] = a[lane] + o1;
}

}  // namespace tessera::isa
