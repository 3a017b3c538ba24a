// The compute unit's per-wave and per-workgroup bookkeeping: a wave slot
// holds the architectural wave (registers, PC, EXEC) plus what the timing
// model needs: issue readiness, the instruction buffer, the s_waitcnt
// counters, in-order completion of vector memory instructions, a register
// scoreboard and stall accounting. Plain C++; the CU owns and recycles them.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/inst_class.h"
#include "models/cu/inst_marks.h"
#include "models/cu/issue_policy.h"
#include "models/cu/isa/wave_runner.h"
#include "models/cu/mem_request.h"
#include "models/cu/scoreboard.h"
#include "models/cu/workgroup_task.h"
#include "common/ring.h"

namespace tessera {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// Why a wave did not issue in a cycle (wave-cycles are counted per reason).
enum class Stall : uint8_t {
  None,           // issued (or nothing to account)
  WaitingMemory,  // s_waitcnt vmcnt (or a FLAT access's lgkmcnt)
  WaitingLds,     // s_waitcnt lgkmcnt with LDS instructions outstanding
  WaitingSmem,    // s_waitcnt lgkmcnt with only scalar loads outstanding
  Barrier,        // at s_barrier
  NoInstruction,  // instruction buffer empty: waiting for a fetch
  Dependency,     // a source register's producer has not finished
  Structural,     // the unit it needs is busy or its queue is full
  Sleep,          // s_nop / s_sleep
  Branch,         // branch latency
  Launch,         // not launched yet
  Drain,          // ended, waiting for its memory operations (not counted)
  Count
};

const char* stall_name(Stall s);

struct Workgroup;
struct DarsieGroup;  // darsie_unit.cpp

// Failed: the fetch was answered with an error; the wave faults if it comes
// to execute from the block (a prefetch past the code's end may fail harmlessly).
enum class IbBlock : uint8_t { Empty, Requested, Valid, Failed };

// The fields the issue stage reads for every wave it evaluates come first,
// on the slot's first two cache lines; what only issue, fetch, launch and
// retirement touch follows.
struct alignas(64) WaveSlot {
  // --- read by every evaluation ---
  std::unique_ptr<isa::Wave> wave;  // reused while the register counts stay the same
  uint64_t ready_at = 0;            // in-order issue: no issue before this cycle
  // The instruction at `looked_pc` and the cycle its source registers are
  // ready, as last looked up: both hold until the wave issues, as only its own
  // issue moves its PC or its scoreboard. kNever: look up again.
  uint64_t looked_pc = kNever;
  const isa::DecodedOp* looked_op = nullptr;
  const InstInfo* looked_info = nullptr;
  uint64_t operands_at = 0;
  const InstInfo* next_info = nullptr;  // the next instruction's, while the wave waits for a unit
  // Stall accounting: cycles before `accounted` are counted; from there on
  // the wave stalls for `reason` until the next evaluation.
  uint64_t accounted = 0;
  uint64_t earliest = kNever;       // earliest cycle the wave may issue, as last evaluated
  uint64_t ib_base = 0;             // the instruction buffer's first block (see ib)
  // s_waitcnt counters and what they count.
  unsigned vm = 0, lgkm = 0, lds_out = 0, smem_out = 0;
  unsigned simd = 0, index = 0;     // SIMD, and slot index within the CU
  unsigned pos = 0;                 // position in the CU's priority order, while resident
  Stall reason = Stall::None;
  Stall ready_reason = Stall::Launch;
  // Something the last evaluation depended on changed (a response, an LDS
  // completion, a barrier release): evaluate again even before `earliest`.
  bool dirty = true;
  bool skipped = false;             // not evaluated this cycle: reason and earliest still hold
  bool active = false;              // resident
  bool ended = false;               // s_endpgm issued or the workgroup faulted: drains, issues nothing
  bool retiring = false;            // queued for retirement
  bool wants_fetch = false;         // resident, not ended, an empty block (counted in the CU)
  // Instruction buffer: ib_depth fetch blocks starting at the block of the PC.
  IbBlock ib[64] = {};

  // --- issue, fetch, launch and retirement ---
  Workgroup* wg = nullptr;
  ProgramInfo* prog = nullptr;
  Scoreboard board;                 // [0,128) scalar codes, 128 SCC, then VGPRs, then AGPRs
  const InstMarks* marks = nullptr; // its kernel's static marks (none without a marker)
  PriorityClass priority = PriorityClass::Normal;
  uint8_t user_priority = 0;        // the last s_setprio (its place within its class: issue_policy.h)
  uint64_t age = 0;                 // launch order (oldest-first priority)
  uint64_t issued = 0;              // instructions issued since launch (the spinning check)
  unsigned vgpr_cost = 0, sgpr_cost = 0;
  uint64_t fetch_offset = 0;        // added to a PC to form its fetch address
  uint32_t ib_gen = 0;              // bumped on a flush; older fetch responses are dropped
  Ring<MemInst*> vm_order;          // vector memory instructions in issue order
  isa::FaultSite site;              // the instruction being issued, for fault reports
  uint64_t failed_fetch = 0;        // the address of the last fetch answered with an error
  std::string failed_fetch_status;  // and its status, for the fault report

  unsigned lazy_out = 0;            // the lazy unit's request groups in flight (not in vmcnt)

  bool outstanding() const { return vm || lgkm || lazy_out; }
};

struct Workgroup {
  WorkgroupTask task;               // a copy of what the dispatcher sent
  std::vector<WaveSlot*> waves;
  unsigned running = 0;             // waves that have not ended
  unsigned resident = 0;            // waves not retired
  unsigned at_barrier = 0;
  uint32_t lds_cost = 0;
  std::vector<uint8_t> lds;
  bool faulted = false;
  uint64_t instructions = 0;
  DarsieGroup* darsie = nullptr;    // DARSIE's skip table and majority path (with darsie on)
  // An injected routine (ComputeUnit::inject): told when it ends instead of
  // the dispatcher, with its waves still holding their registers.
  std::function<void(const Workgroup&)> on_end;
};

}  // namespace tessera
