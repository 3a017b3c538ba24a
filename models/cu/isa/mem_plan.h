// Two-phase execution of memory instructions, for the cycle-level CU.
//
// The functional executor runs a memory instruction in one step (its ExecFn
// reads or writes device memory directly). The cycle-level CU cannot: a load's
// data comes back from the cache hierarchy later, possibly stale. So every
// instruction that reaches device memory (SMEM loads and stores,
// FLAT/GLOBAL/SCRATCH loads, stores and atomics, MUBUF loads, stores and
// atomics) also has a plan/complete pair, built from the same address helpers
// (sem_memory_common.h) as its ExecFn and registered from the same list of
// mnemonics, so the two cannot drift apart:
//
//   plan(wave, inst, out)     at issue: clears `out` (any plan may be passed),
//                             reads the wave's registers (addresses,
//                             EXEC, store data, atomic operands) and lists the
//                             accesses as chunks; checks every chunk against
//                             the wave's device memory (or LDS) and faults the
//                             wave with exactly the message, and at exactly
//                             the first lane, that the ExecFn would report.
//                             After a fault the plan has no chunks and must
//                             not be issued.
//   [the CU moves the bytes:  loads fill `data`, stores send it, atomics get
//                             their old values back into `data`]
//   complete(wave, inst, p)   when every chunk is back: writes the loaded
//                             bytes (or atomics' old values) into the
//                             destination registers of the lanes in p.exec.
//                             Stores and atomics without glc write nothing
//                             (complete is then a no-op, never nullptr).
//
// plan() never changes registers and complete() never reads source registers
// other than a d16 load's destination, so instructions issued later may
// overwrite the sources while the access is in flight, as on hardware.
//
// What the chunks look like:
//   - Vector instructions: lane L's bytes live at data[L * lane_stride ...];
//     chunks are listed in lane order, one per lane unless the lane's access is
//     not contiguous (scratch and flat-to-private are swizzled per dword, a
//     swizzled buffer resource places each dword alone; contiguous pieces are
//     merged back). Lanes outside EXEC have no chunk. lane_stride is
//     kLaneBytes, except for a FLAT/GLOBAL load or store whose lanes all
//     fall in one allocation (the common case): its data is then packed
//     (lane_stride = the access size) and lanes at consecutive addresses
//     share a chunk, so a unit-stride access moves as one chunk of
//     n * size bytes (its `lane` is the run's first lane).
//   - Scratch, and flat through the private aperture: Global chunks at the
//     swizzled device address (FLAT_SCRATCH + (offset/4)*256 + lane*4 + offset%4).
//   - Flat through the shared (LDS) aperture: MemSpace::Lds chunks, addr = the
//     LDS byte offset; the CU serves them from its LDS.
//   - MUBUF lanes (or dwords) out of the resource's range have no chunk: loads
//     read zero (their plans zero data first), stores are dropped, atomics
//     return 0.
//   - SMEM: scalar = true, one chunk of up to 64 bytes at data[0] (loads into
//     SGPRs, s_store from SGPRs); s_buffer_load lists only the dwords inside
//     num_records (merged: one chunk in practice), the others read zero (SMEM
//     plans zero data's first 64 bytes).
//   - Atomics: one chunk per lane (4 or 8 bytes); `op`/`elem` say what to
//     apply, the lane's source operand sits at its data_offset and the compare
//     value (compare-swap) in atomic_cmp[k]. The owner applies them in chunk
//     order with mem::rmw() and puts each old value back at data_offset.
//   - Chunks may straddle a cache line when the lane's address is unaligned:
//     splitting them per line is the coalescer's job.
//
// Running plan, then perform_directly(), then complete gives exactly what the
// ExecFn gives, registers and memory (tests/cu/mem_plan_test.cpp checks every
// mnemonic with random registers, addresses and EXEC).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "models/cu/isa/instruction.h"
#include "models/cu/isa/sem_memory_common.h"
#include "models/cu/isa/semantics.h"

namespace tessera::isa {

class Wave;

enum class MemSpace : uint8_t {
  Global,  // a device address (global, flat to device memory, buffer, scalar, and scratch after swizzling)
  Lds,     // an LDS byte offset (flat through the shared aperture): served by the CU's LDS
};

enum class MemKind : uint8_t { Load, Store, Atomic };

// One contiguous piece of one lane's access (of a run of lanes, in a packed
// plan). A lane's access is split into several chunks when it is not
// contiguous in device memory (scratch is swizzled per dword). Chunks are
// listed in lane order.
// A trivial type (MemChunk{} is all zero): a plan sizes its list of chunks
// with one clear of memory, not a constructor call per chunk, and then
// writes them in place.
struct MemChunk {
  uint64_t addr;         // device address (Global) or LDS offset (Lds)
  uint16_t data_offset;  // where its bytes live in MemPlan::data
  uint16_t bytes;        // 1, 2, 4, 8, 12 or 16 (scalar loads: up to 64; packed: up to kDataBytes)
  uint8_t lane;          // 0 for scalar instructions (packed: the run's first lane)
  MemSpace space;
};
static_assert(std::is_trivial_v<MemChunk>);

struct MemPlan {
  static constexpr unsigned kLaneBytes = 16;   // widest per-lane access (dwordx4)
  static constexpr unsigned kDataBytes = 64 * kLaneBytes;

  MemKind kind = MemKind::Load;
  bool scalar = false;        // SMEM: one access for the wave, into SGPRs
  bool glc = false, slc = false;
  uint64_t exec = 0;          // lanes whose destination complete() writes (EXEC at issue)
  uint8_t lane_stride = kLaneBytes;  // lane L's bytes at data[L * lane_stride] (see above)
  std::vector<MemChunk> chunks;
  // Loads: filled by whoever moves the bytes. Stores: the bytes to write,
  // filled by plan(). Atomics: each chunk's `src` at its data_offset on plan,
  // the old value there on complete. Only MUBUF and SMEM plans, which may
  // leave an active lane's bytes without a chunk (out of range: reads zero),
  // zero it first; every other plan covers what complete() reads.
  std::array<uint8_t, kDataBytes> data{};
  // Atomics: the operation, element type and each chunk's second operand
  // (compare value for compare-swap), parallel to `chunks`.
  mem::Rmw op = mem::Rmw::Add;
  mem::Elem elem = mem::Elem::U32;
  std::vector<uint64_t> atomic_cmp;
  bool returns_data = false;  // atomics with glc: complete() writes old values
  bool lds_chunks = false;    // some chunk is MemSpace::Lds (the CU serves those itself)

  // Back to an empty load plan; keeps the vectors' capacity, so a CU that
  // reuses its plans allocates nothing per instruction. Leaves `data` as it
  // was: zeroing 1 KiB per memory instruction is a cost only plans with
  // uncovered lanes need (zero_data).
  void clear();
  // Zeroes the first `bytes` of data.
  void zero_data(unsigned bytes = kDataBytes) { std::memset(data.data(), 0, bytes); }
  // Appends a chunk, merged into the previous one when it continues it
  // (same lane and space, the next address and data byte).
  void add(MemSpace space, uint64_t addr, unsigned bytes, unsigned lane, unsigned data_offset) {
    if (!chunks.empty()) {
      MemChunk& last = chunks.back();
      if (last.lane == lane && last.space == space && last.addr + last.bytes == addr &&
          last.data_offset + last.bytes == data_offset) {
        last.bytes = static_cast<uint16_t>(last.bytes + bytes);
        return;
      }
    }
    lds_chunks |= space == MemSpace::Lds;
    // Field by field into the vector's own slot: a chunk built on the stack
    // and copied in costs a store-forwarding stall per lane.
    MemChunk& c = chunks.emplace_back();
    c.addr = addr;
    c.data_offset = static_cast<uint16_t>(data_offset);
    c.bytes = static_cast<uint16_t>(bytes);
    c.lane = static_cast<uint8_t>(lane);
    c.space = space;
  }
  // Bytes of data the chunks move (for statistics and tests).
  unsigned bytes() const;
};

using PlanFn = void (*)(Wave& wave, const Instruction& inst, MemPlan& out);
using CompleteFn = void (*)(Wave& wave, const Instruction& inst, const MemPlan& plan);

struct MemFns {
  PlanFn plan = nullptr;
  CompleteFn complete = nullptr;
};

// plan/complete for `mnemonic`, or {nullptr, nullptr} if the instruction does
// not reach device memory (DS, VALU, SALU, cache maintenance, s_memtime...) or
// has no semantics. A table lookup: call it once per decoded instruction.
MemFns mem_fns(const char* mnemonic);

// The table behind mem_fns(), built on first use (like semantics()).
class MemFnsTable {
 public:
  void add(const char* mnemonic, MemFns fns);  // a mnemonic registered twice is a bug (aborts)
  MemFns find(const char* mnemonic) const;
  const std::unordered_map<std::string, MemFns>& all() const { return fns_; }

 private:
  std::unordered_map<std::string, MemFns> fns_;
};
const MemFnsTable& mem_fns_table();

// Moves a plan's bytes against the wave's device memory directly (what the
// functional path and the unit tests do): loads read, stores write, atomics
// apply in chunk order. Lds chunks use the wave's LDS. Faults the wave (and
// returns false) on an address outside every allocation.
bool perform_directly(Wave& wave, MemPlan& plan);
// The same for the chunks of one space only: a CU serves a flat access's
// Lds chunks from its LDS at issue and sends the Global ones to memory.
bool perform_directly(Wave& wave, MemPlan& plan, MemSpace space);

// The LDS byte address of every active lane of a DS instruction (for the LDS
// bank-conflict model), plus how many addresses each lane touches (1, or 2
// for the two-address forms ds_read2* / ds_write2*, addr[0] then addr[1]).
// Lanes outside EXEC get addresses too, from their ADDR register, so that
// the loops need no mask; only EXEC's lanes count. Instructions that touch
// no LDS bank (ds_nop, ds_swizzle, ds_permute, ds_bpermute, and DS opcodes
// without semantics) give addresses_per_lane = 0. Addresses are as the
// instruction computes them (ADDR + offset), not checked against the LDS
// size: the ExecFn faults an out-of-range lane when the instruction executes.
struct LdsAccess {
  uint64_t exec = 0;
  uint32_t addr[2][64] = {};
  unsigned addresses_per_lane = 1;
  unsigned bytes = 4;  // per address: 1, 2, 4, 8, 12 or 16
};
void lds_access(const Wave& wave, const Instruction& inst, LdsAccess& out);

// --- For the semantics files (sem_memory*.cpp), which register ExecFn and
// plan/complete from one list of mnemonics. ---

// One instruction's three functions; `Op` has static members exec, plan, complete.
template <class Op>
void add_op(SemanticsTable& t, const std::string& mnemonic, Op) {
  t.add(mnemonic.c_str(), Op::exec);
}
template <class Op>
void add_op(MemFnsTable& t, const std::string& mnemonic, Op) {
  t.add(mnemonic.c_str(), MemFns{Op::plan, Op::complete});
}

// How a DS instruction touches the LDS banks, for lds_access(): addresses per
// lane (0: none), bytes per address, and the element stride of the offsets
// of the two-address forms (1, or 64 for st64).
struct LdsShape {
  uint8_t addresses = 0;
  uint8_t bytes = 0;
  uint8_t stride = 1;
};
class LdsShapeTable {
 public:
  void add(const char* mnemonic, LdsShape shape) { shapes_[mnemonic] = shape; }
  const std::unordered_map<std::string, LdsShape>& all() const { return shapes_; }

 private:
  std::unordered_map<std::string, LdsShape> shapes_;
};
template <class Op>
void add_op(LdsShapeTable& t, const std::string& mnemonic, Op) {
  t.add(mnemonic.c_str(), Op::shape);
}

void register_ds_shapes(LdsShapeTable& t);    // sem_memory_lds.cpp
void register_smem_mem_fns(MemFnsTable& t);   // sem_memory.cpp
void register_vmem_mem_fns(MemFnsTable& t);   // sem_memory_flat.cpp
void register_mubuf_mem_fns(MemFnsTable& t);  // sem_memory_buffer.cpp

// plan() and complete() building blocks shared by FLAT/GLOBAL/SCRATCH and MUBUF.

// Clears `p` for an instruction of `kind`: glc/slc from the instruction, EXEC at issue.
void start_vector_plan(const Wave& wave, const Instruction& inst, MemPlan& p, MemKind kind);
// A store's bytes: lane L's data operand at data[L * kLaneBytes], for the lanes in p.exec.
void fill_store_data(const Wave& wave, const Operand& data, MemPlan& p, const mem::Width& width);
// An atomic's operands, once its chunks are listed (one per lane): the source
// at each chunk's data_offset, the compare value in atomic_cmp.
template <mem::Rmw Op, mem::Elem E>
void fill_atomic_operands(const Wave& wave, const Operand& data, MemPlan& p) {
  p.atomic_cmp.clear();
  for (const MemChunk& c : p.chunks) {
    const mem::AtomicOperands o = mem::atomic_operands<Op, E>(wave, data, c.lane);
    std::memcpy(p.data.data() + c.data_offset, &o.src, mem::elem_bytes(E));
    p.atomic_cmp.push_back(o.cmp);
  }
}

void complete_vector_load(Wave& wave, const Operand& dst, const MemPlan& plan, const mem::Width& width);
void complete_atomic(Wave& wave, const Operand& dst, const MemPlan& plan);  // when plan.returns_data
void complete_nothing(Wave& wave, const Instruction& inst, const MemPlan& plan);
// A vector load's complete(): the data into dst[0] of the lanes in p.exec.
template <unsigned Bytes, bool Sign, int D16>
void complete_load(Wave& wave, const Instruction& inst, const MemPlan& plan) {
  complete_vector_load(wave, inst.dst[0], plan, mem::Width{Bytes, Sign, D16});
}

}  // namespace tessera::isa
