// Two-phase execution of memory instructions, for the cycle-level CU.
//
// The functional executor runs a memory instruction in one step (its ExecFn
// reads or writes device memory directly). The cycle-level CU cannot: a load's
// data comes back from the cache hierarchy later, possibly stale. So every
// instruction that reaches device memory (SMEM, FLAT/GLOBAL/SCRATCH, MUBUF)
// also has a plan/complete pair, built from the same helpers as its ExecFn:
//
//   plan(wave, inst, out)     at issue: reads the wave's registers (addresses,
//                             EXEC, store data, atomic operands) and lists the
//                             accesses as chunks; checks every chunk against
//                             the wave's device memory and faults the wave
//                             exactly as the ExecFn would.
//   [the CU moves the bytes:  loads fill `data`, stores send it, atomics get
//                             their old values back into `data`]
//   complete(wave, inst, p)   when every chunk is back: writes the loaded
//                             bytes (or atomics' old values) into the
//                             destination registers of the lanes in p.exec.
//
// plan() never changes registers and complete() never reads source registers
// other than a d16 load's destination, so instructions issued later may
// overwrite the sources while the access is in flight, as on hardware.
//
// Running plan, then moving the bytes against device memory directly, then
// complete gives exactly what the ExecFn gives (tests/cu/mem_plan_test.cpp
// checks every mnemonic).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/cu/isa/instruction.h"
#include "models/cu/isa/sem_memory_common.h"

namespace tessera::isa {

class Wave;

enum class MemSpace : uint8_t {
  Global,  // a device address (global, flat to device memory, buffer, scalar, and scratch after swizzling)
  Lds,     // an LDS byte offset (flat through the shared aperture): served by the CU's LDS
};

enum class MemKind : uint8_t { Load, Store, Atomic };

// One contiguous piece of one lane's access. A lane's access is split into
// several chunks when it is not contiguous in device memory (scratch is
// swizzled per dword). Chunks are listed in lane order.
struct MemChunk {
  uint64_t addr = 0;         // device address (Global) or LDS offset (Lds)
  uint16_t data_offset = 0;  // where its bytes live in MemPlan::data
  uint8_t bytes = 0;         // 1, 2, 4, 8, 12 or 16 (scalar loads: up to 64)
  uint8_t lane = 0;          // 0 for scalar instructions
  MemSpace space = MemSpace::Global;
};

struct MemPlan {
  static constexpr unsigned kLaneBytes = 16;   // widest per-lane access (dwordx4)
  static constexpr unsigned kDataBytes = 64 * kLaneBytes;

  MemKind kind = MemKind::Load;
  bool scalar = false;        // SMEM: one access for the wave, into SGPRs
  bool glc = false, slc = false;
  uint64_t exec = 0;          // lanes whose destination complete() writes (EXEC at issue)
  std::vector<MemChunk> chunks;
  // Loads: filled by whoever moves the bytes (pre-zeroed: a buffer access out
  // of range reads zeros and has no chunk). Stores: the bytes to write, filled
  // by plan(). Atomics: each chunk's `src` at its data_offset on plan, the old
  // value there on complete.
  std::array<uint8_t, kDataBytes> data{};
  // Atomics: the operation, element type and each chunk's second operand
  // (compare value for compare-swap), parallel to `chunks`.
  mem::Rmw op = mem::Rmw::Add;
  mem::Elem elem = mem::Elem::U32;
  std::vector<uint64_t> atomic_cmp;
  bool returns_data = false;  // atomics with glc: complete() writes old values

  void clear();
};

using PlanFn = void (*)(Wave& wave, const Instruction& inst, MemPlan& out);
using CompleteFn = void (*)(Wave& wave, const Instruction& inst, const MemPlan& plan);

struct MemFns {
  PlanFn plan = nullptr;
  CompleteFn complete = nullptr;
};

// plan/complete for `mnemonic`, or {nullptr, nullptr} if the instruction does
// not reach device memory (DS, VALU, SALU...) or is not implemented.
MemFns mem_fns(const char* mnemonic);

// Moves a plan's bytes against the wave's device memory directly (what the
// functional path and the unit tests do): loads read, stores write, atomics
// apply in chunk order. Lds chunks use the wave's LDS. Faults the wave (and
// returns false) on an address outside every allocation.
bool perform_directly(Wave& wave, MemPlan& plan);

// The LDS byte address of every active lane of a DS instruction (for the LDS
// bank-conflict model), plus how many addresses each lane touches (1, or 2
// for the two-address forms). Lanes outside EXEC are left untouched.
struct LdsAccess {
  uint64_t exec = 0;
  uint32_t addr[2][64] = {};
  unsigned addresses_per_lane = 1;
  unsigned bytes = 4;  // per address
};
void lds_access(const Wave& wave, const Instruction& inst, LdsAccess& out);

}  // namespace tessera::isa
