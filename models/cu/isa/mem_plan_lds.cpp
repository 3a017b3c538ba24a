// lds_access(): the per-lane LDS addresses of a DS instruction, for the CU's
// LDS bank-conflict model. The addressing is that of sem_memory_lds.cpp:
// ADDR + offset for single-address forms and atomics; ADDR + offset0 * size
// and ADDR + offset1 * size (size times 64 for st64) for ds_read2/ds_write2.
#include <array>
#include <string>
#include <unordered_map>

#include "models/cu/isa/mem_plan.h"
#include "models/cu/isa/op_table.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

namespace {

// How a DS instruction touches the LDS banks; addresses 0 = not at all.
struct LdsShape {
  uint8_t addresses = 0;  // per lane: 1, or 2 for the two-address forms
  uint8_t bytes = 0;      // per address
  uint8_t stride = 1;     // two-address forms: offsets count elements of bytes * stride
};

// Every DS mnemonic with semantics that reads or writes LDS memory.
std::unordered_map<std::string, LdsShape> shapes_by_mnemonic() {
  std::unordered_map<std::string, LdsShape> m;
  const auto one = [&](const char* name, unsigned bytes) { m[name] = {1, static_cast<uint8_t>(bytes), 1}; };
  const auto two = [&](const char* name, unsigned bytes, unsigned stride) {
    m[name] = {2, static_cast<uint8_t>(bytes), static_cast<uint8_t>(stride)};
  };
  for (const char* n : {"ds_read_u8", "ds_read_i8", "ds_read_u8_d16", "ds_read_u8_d16_hi", "ds_read_i8_d16",
                        "ds_read_i8_d16_hi", "ds_write_b8", "ds_write_b8_d16_hi"})
    one(n, 1);
  for (const char* n : {"ds_read_u16", "ds_read_i16", "ds_read_u16_d16", "ds_read_u16_d16_hi", "ds_write_b16",
                        "ds_write_b16_d16_hi"})
    one(n, 2);
  one("ds_read_b32", 4);
  one("ds_write_b32", 4);
  one("ds_read_b64", 8);
  one("ds_write_b64", 8);
  one("ds_read_b96", 12);
  one("ds_write_b96", 12);
  one("ds_read_b128", 16);
  one("ds_write_b128", 16);
  two("ds_read2_b32", 4, 1);
  two("ds_read2st64_b32", 4, 64);
  two("ds_read2_b64", 8, 1);
  two("ds_read2st64_b64", 8, 64);
  two("ds_write2_b32", 4, 1);
  two("ds_write2st64_b32", 4, 64);
  two("ds_write2_b64", 8, 1);
  two("ds_write2st64_b64", 8, 64);
  // Atomics, with and without return (the names of sem_memory_lds.cpp).
  const char* ops32[] = {"add_u32", "sub_u32", "rsub_u32", "inc_u32", "dec_u32", "min_i32", "max_i32",
                         "min_u32", "max_u32", "and_b32", "or_b32", "xor_b32", "mskor_b32", "cmpst_b32",
                         "cmpst_f32", "min_f32", "max_f32", "add_f32"};
  const char* ops64[] = {"add_u64", "sub_u64", "rsub_u64", "inc_u64", "dec_u64", "min_i64", "max_i64",
                         "min_u64", "max_u64", "and_b64", "or_b64", "xor_b64", "mskor_b64", "cmpst_b64",
                         "cmpst_f64", "min_f64", "max_f64", "add_f64"};
  for (const char* op : ops32) {
    const std::string s(op), u = s.substr(s.find('_'));
    one(("ds_" + s).c_str(), 4);
    one(("ds_" + s.substr(0, s.find('_')) + "_rtn" + u).c_str(), 4);
  }
  for (const char* op : ops64) {
    const std::string s(op), u = s.substr(s.find('_'));
    one(("ds_" + s).c_str(), 8);
    one(("ds_" + s.substr(0, s.find('_')) + "_rtn" + u).c_str(), 8);
  }
  one("ds_wrxchg_rtn_b32", 4);
  one("ds_wrxchg_rtn_b64", 8);
  return m;
}

// Shapes by DS opcode (8 bits), built once.
const std::array<LdsShape, 256>& shapes() {
  static const std::array<LdsShape, 256> table = [] {
    std::array<LdsShape, 256> t{};
    const auto by_name = shapes_by_mnemonic();
    for (unsigned opc = 0; opc < 256; ++opc) {
      const OpInfo* op = find_op(Format::DS, opc);
      if (!op) continue;
      auto it = by_name.find(op->mnemonic);
      if (it != by_name.end()) t[opc] = it->second;
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
  if (shape.addresses == 2) {
    o0 = uint32_t(inst.offset & 0xff) * shape.bytes * shape.stride;
    o1 = uint32_t(inst.offset1) * shape.bytes * shape.stride;
  }
  for (unsigned lane = 0; lane < kWaveSize; ++lane) {
    if (!((out.exec >> lane) & 1)) continue;
    out.addr[0][lane] = a[lane] + o0;
    if (shape.addresses == 2) out.addr[1][lane] = a[lane] + o1;
  }
}

}  // namespace tessera::isa
