// The lazy unit of a compute unit (LazyGPU, docs/LAZYGPU.md): vector global
// loads whose timing requests wait until an instruction needs their data.
//
// A deferred load has its value already: the CU reads its bytes through the
// caches when it executes (as load_values=execute does) and writes its
// destination registers then, so values stay in program order. What waits is
// its timing: the load is recorded here, in per-lane busy bits of each
// destination register, instead of sending requests. The first instruction
// that reads (or writes, while requests are in flight) a busy lane issues the
// recorded requests of just those registers and lanes and waits for them.
// Deferred loads do not count in vmcnt. A register overwritten before it is
// read, and a wave that ends, eliminate its deferred lanes: no request is
// ever sent for them.
//
// Per wave and scoreboard slot (inst_class.h's numbering) the unit keeps two
// lane masks: `deferred` (recorded, no request yet) and `inflight`
// (requested, not back). A register's lanes belong to at most one recorded
// load: a new load into them eliminates the old one's first.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/cu/inst_class.h"
#include "models/cu/isa/mem_plan.h"
#include "models/cu/mem_request.h"
#include "models/cu/zero_query.h"
#include "platform/stats.h"

namespace tessera {

struct WaveSlot;

struct LazyStats {
  explicit LazyStats(StatGroup& g);
  Counter& deferred;          // loads recorded instead of issued
  Counter& groups_issued;     // sets of lanes and registers a reader made the unit request
  Counter& requests;          // line requests those sent
  Counter& lanes_eager;       // lanes requested at execute: their upper address bits differ from the register's
  Counter& eliminated_overwrite;  // register-lanes overwritten before any request
  Counter& eliminated_end;        // register-lanes dropped because their wave ended (never read)
  Counter& issued_lanes;          // register-lanes requested
  Counter& suspended;             // register-lanes a ⊗ instruction did not wait for (its partner was 0)
  Counter& eliminated_zero_product;  // suspended register-lanes never requested (overwritten or dropped)
};

class LazyUnit {
 public:
  // `slots` scoreboard slots per wave at most (inst_class.h), `waves` wave slots.
  // With `zero` (zero_queries), a group first asks the zero caches
  // (zero_query.h) and then requests only the lanes with a non-zero dword.
  // Queries cover `query_span` bytes at most (zero_query.h).
  LazyUnit(StatGroup& stats, unsigned waves, unsigned slots, ZeroQueryStats* zero = nullptr, unsigned query_span = 64);
  // A reader of any register of a deferred load requests the whole load for
  // the lanes it reads (LazyGPU's one request per lane and load, located
  // through any of its registers: its Table 1), not just those registers.
  void set_whole_loads(bool on) { whole_loads_ = on; }

  // Whether `op` (a vector memory load `m` of wave `w`) may be deferred: a
  // GLOBAL load into VGPRs/AGPRs with no LDS chunk. The caller also checks
  // what only it knows (its value read now, its registers free).
  static bool may_defer(const isa::Instruction& inst, const MemInst& m);

  // Records load `m` (value already in its registers) for wave `w`, whose
  // destinations are `info`'s write runs. Lanes whose address's upper 35
  // bits differ from the lowest lane's go out at once: their requests are
  // appended to `out` like those of a reader. With zero queries, the load's
  // queries go out now too (LazyGPU, Figure 8 step 1): its lanes are in
  // flight until they are answered, then the zero ones are done and the
  // others deferred.
  void record(WaveSlot& w, const MemInst& m, const InstInfo& info, int cu, uint64_t c, MemInstPool& insts,
              RequestPool& pool, std::vector<MemRequest*>& out);

  // Lanes of the slots [first, end) an instruction reads that it does not
  // need: a ⊗ instruction's multiplicand whose partner is 0 there.
  struct Excuse {
    unsigned first = 0, end = 0;
    uint64_t lanes = 0;
  };
  // ⊗ instructions (docs/LAZYGPU.md has the list): multiplies, FMA/MAC/mad
  // (the multiplicands src0 and src1) and bitwise AND.
  static bool is_zero_product(const isa::Instruction& inst);
  // For a ⊗ instruction of wave `w` reading `lanes`: each VGPR/AGPR
  // multiplicand's lanes where the other one is known to be 0 (a constant, an
  // SGPR, or register lanes the unit does not owe). Returns how many of
  // `out` (at most 2) it filled.
  // With zero queries, a lane a load's answered queries found zero is known
  // (its busy bit is clear and its register holds 0), in either position.
  unsigned zero_partners(const WaveSlot& w, const isa::Instruction& inst, uint64_t lanes, Excuse out[2]) const;

  // What the unit still owes an instruction `info` of wave `w`: lanes (of
  // `lanes`, less the excused ones) of the registers it reads, deferred or in
  // flight, or of those it writes, in flight (their responses must not land
  // after it).
  enum class Owed : uint8_t { Nothing, InFlight, Deferred };
  Owed owes(const WaveSlot& w, const InstInfo& info, uint64_t lanes, const Excuse* ex = nullptr,
            unsigned excuses = 0) const;
  // owes(); with `trigger`, the deferred lanes it reads are requested now
  // (their requests appended to `out`) and become in flight, and the
  // excused deferred lanes are marked suspended (counted as eliminated by ⊗
  // if they are never requested).
  Owed blocks(WaveSlot& w, const InstInfo& info, uint64_t lanes, bool trigger, int cu, uint64_t c,
              MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out, const Excuse* ex = nullptr,
              unsigned excuses = 0);

  // Whether a register lane `info` reads (of `lanes`) still waits for the
  // zero queries its load sent at execute: a ⊗ instruction waits for them
  // before requesting its other multiplicand, whose lanes they may excuse.
  bool querying(const WaveSlot& w, const InstInfo& info, uint64_t lanes) const;

  // `info` writes its results in `lanes` at issue: deferred lanes there are eliminated.
  void overwritten(const WaveSlot& w, const InstInfo& info, uint64_t lanes);
  // Group `g`'s zero queries are back: appends to `out` the data requests of
  // its lanes with a non-zero dword (none if all were zero); for the queries
  // of a load at execute, those lanes become deferred instead.
  void zero_answered(MemInst& g, int cu, RequestPool& pool, std::vector<MemRequest*>& out);
  // Every request of lazy instruction `m` is back: its lanes are free.
  void returned(const MemInst& m);
  // Wave `w` ended (or faulted): its deferred lanes are dropped.
  void drop(const WaveSlot& w);

  // Tests: the deferred and in-flight lanes of wave slot `wave`'s scoreboard slot `slot`.
  uint64_t deferred_lanes(unsigned wave, unsigned slot) const { return waves_[wave].deferred[slot]; }
  uint64_t inflight_lanes(unsigned wave, unsigned slot) const { return waves_[wave].inflight[slot]; }

  static constexpr unsigned kMaxRegs = 4;  // dwordx4

 private:
  // Removes from g's plan the chunks of the lanes its zero-mask answers found zero.
  static void drop_zero_chunks(MemInst& g);
  // One recorded load: its destination slots and, per register, the lanes
  // still deferred; its chunks (addresses), kept to make requests from.
  struct Record {
    unsigned first = 0, regs = 0;
    std::array<uint64_t, kMaxRegs> deferred{};
    std::array<uint64_t, kMaxRegs> zero{};  // lanes whose dword of that register is 0 (the value read at execute)
    std::vector<isa::MemChunk> chunks;
    uint8_t lane_stride = 0;
    bool glc = false, slc = false;
    const isa::DecodedOp* op = nullptr;
    uint32_t serial = 0;    // names the record to its queries at execute
    bool querying = false;  // its queries at execute are not answered yet: `deferred` waits for them
    bool empty() const;
  };
  struct WaveState {
    std::vector<uint64_t> deferred, inflight;  // per scoreboard slot
    std::vector<uint64_t> suspended;           // deferred lanes a ⊗ instruction did without
    std::vector<uint64_t> querying;            // in-flight lanes waiting for their load's zero queries
    std::vector<Record> records;
    uint32_t next_serial = 0;
    unsigned owed_slots = 0;  // slots with a deferred or in-flight lane (0: nothing to check)
  };

  // A request group of `lanes` (per register) of record `r`: its plan holds
  // one chunk per lane's dword.
  MemInst& make_group(WaveSlot& w, const Record& r, const std::array<uint64_t, kMaxRegs>& lanes, uint64_t c,
                      MemInstPool& insts);
  // Requests `lanes` of `r` now: data, or with `query_first` the zero
  // queries and then the non-zero lanes' data (lanes going out at execute).
  void request(WaveSlot& w, Record& r, const std::array<uint64_t, kMaxRegs>& lanes, bool query_first, int cu,
               uint64_t c, MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out);
  // Sends the zero queries of `r`'s `lanes` at the load's execute.
  void query_at_execute(WaveSlot& w, Record& r, const std::array<uint64_t, kMaxRegs>& lanes, int cu, uint64_t c,
                        MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out);
  // The answered queries at execute of group `g`: its non-zero lanes become deferred.
  // `line_bytes`: the vmem line, to count the data requests the zero lanes spare.
  void answered_at_execute(MemInst& g, unsigned line_bytes);
  void set_slot(WaveState& s, unsigned slot, uint64_t deferred, uint64_t inflight);
  void prune(WaveState& s);
  // Counts deferred lanes `dead` of `slot` that will never be requested.
  void count_dead(WaveState& s, unsigned slot, uint64_t dead, Counter& otherwise);
  static uint64_t needed(const Excuse* ex, unsigned excuses, unsigned slot, uint64_t lanes);

  LazyStats st_;
  ZeroQueryStats* zero_;  // zero queries on: their counters
  unsigned query_span_;
  bool whole_loads_ = false;
  unsigned slots_;
  std::vector<WaveState> waves_;
};

}  // namespace tessera
