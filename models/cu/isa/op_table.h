// Opcode tables of gfx90a: which OpInfo an encoding's opcode field names.
//
// The tables are plain arrays (op_table_scalar.cpp, op_table_vector.cpp,
// op_table_memory.cpp), indexed once into dense per-format arrays so that a
// lookup is one load. VOP1, VOP2 and VOPC instructions encoded as VOP3 (e64)
// resolve to the same OpInfo as their short encoding: the VOP3 opcode space
// is VOPC at 0x000-0x0ff, VOP2 at 0x100 + op, VOP1 at 0x140 + op and the
// VOP3-only instructions from 0x1c0 (0x380 and up is VOP3P).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/cu/isa/instruction.h"

namespace tessera::isa {

// The OpInfo for `opcode` of `format`, or nullptr when gfx90a assigns none.
// For Format::VOP3 the opcode is the 10-bit VOP3 opcode (see above).
const OpInfo* find_op(Format format, unsigned opcode);

// Every table entry, in table order (for tests and documentation).
std::vector<const OpInfo*> all_ops();

// The name of a format as the documentation and error messages print it.
const char* format_name(Format format);

// Registers (dwords) an operand of this type covers.
inline unsigned type_dwords(DataType t) {
  switch (t) {
    case DataType::None: return 0;
    case DataType::B64: case DataType::I64: case DataType::U64: case DataType::F64: case DataType::V2F32: return 2;
    case DataType::B96: return 3;
    case DataType::B128: return 4;
    case DataType::B256: return 8;
    case DataType::B512: return 16;
    case DataType::B1024: return 32;
    default: return 1;
  }
}

// Raw tables, defined in op_table_*.cpp.
namespace op_tables {
extern const OpInfo kSop1[], kSop2[], kSopk[], kSopc[], kSopp[], kSmem[];
extern const size_t kSop1Count, kSop2Count, kSopkCount, kSopcCount, kSoppCount, kSmemCount;
extern const OpInfo kVop1[], kVop2[], kVopc[], kVop3[], kVop3p[];
extern const size_t kVop1Count, kVop2Count, kVopcCount, kVop3Count, kVop3pCount;
extern const OpInfo kDs[], kFlat[], kGlobal[], kScratch[], kMubuf[], kMtbuf[];
extern const size_t kDsCount, kFlatCount, kGlobalCount, kScratchCount, kMubufCount, kMtbufCount;
}  // namespace op_tables

}  // namespace tessera::isa
