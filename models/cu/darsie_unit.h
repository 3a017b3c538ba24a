// DARSIE's hardware in a compute unit (docs/DARSIE.md, "Hardware"): per
// workgroup, a PC skip table, renamed VGPRs and the majority-path mask.
//
// The first wave of the workgroup's majority path to issue a vector ALU
// instruction the static marks say is skippable for the workgroup's shape
// (analysis::skippable: DR always, CR in 2D workgroups with a power-of-two
// x-size <= 64) is its leader: it executes the instruction and its result
// goes to renamed VGPRs held by a skip-table entry. The other majority-path
// waves (followers) skip it before fetch and issue: they read the leader's
// result through renaming (its value is copied into their registers, ready
// at the leader's write-back), and their bit leaves the entry's waiting mask;
// the entry and its renamed VGPRs are freed when no wave waits for it.
//
// An entry is one dynamic instance: it is keyed by the PC and the number of
// branches its leader executed on the majority path since the last barrier.
// Every majority-path wave checks each branch's outcome against the first
// one's; a wave that goes the other way, or reaches a skippable instruction
// with a partial EXEC, leaves the majority path and copies its renamed
// registers back (charged on its SIMD). s_barrier puts every running wave
// back on the path and empties the table. A full table, or too few free
// renamed VGPRs, and the instruction simply executes in every wave.
//
// In checking mode a follower computes the skipped instruction anyway and
// compares its value with the leader's, lane by lane: a difference is a
// marking bug, returned as a message for the CU to fault the workgroup with.
#pragma once
#include <array>
#include <bitset>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/cu_config.h"
#include "models/cu/inst_class.h"
#include "models/cu/wave_slot.h"
#include "platform/stats.h"

namespace tessera {

// DARSIE's bits in a kernel's InstMarks (inst_marks.h).
constexpr uint32_t kDarsieDR = 1u << 0;      // definitely redundant
constexpr uint32_t kDarsieCR = 1u << 1;      // conditionally redundant (work-item x only)
constexpr uint32_t kDarsieLoad = 1u << 2;    // a DR/CR load (the skip table's load flag)
constexpr uint32_t kDarsieVector = 1u << 3;  // a vector instruction (VALU, DS, vector memory)

// Registers the marker that sets DARSIE's bits (once per process).
void register_darsie_marker();

struct DarsieStats {
  explicit DarsieStats(StatGroup& g);
  Counter& vector_issued;       // vector instructions fetched and issued (VALU, MFMA, DS, vector memory)
  Counter& scalar_issued;       // every other instruction fetched and issued
  Counter& executed_dr;         // vector instructions issued, by static DARSIE class
  Counter& executed_cr;
  Counter& executed_v;
  Counter& skipped_dr;          // vector instructions followers skipped, by class
  Counter& skipped_cr;
  Counter& table_hits;          // skips (a follower found the leader's entry)
  Counter& table_full;          // a leader found no free entry: executed everywhere
  Counter& rename_allocations;  // renamed VGPRs given to leaders' results
  Counter& rename_failures;     // a leader found too few free renamed VGPRs: executed everywhere
  Counter& path_exits;          // waves that left the majority path (diverged)
  Counter& copied_back;         // renamed VGPRs copied back by them
  Counter& checked;             // skipped instructions compared in checking mode
};

struct SkipEntry;

class DarsieUnit {
 public:
  DarsieUnit(StatGroup& g, const CuConfig& cfg);
  ~DarsieUnit();

  // A workgroup launched with these waves (in wave order), its own extent
  // and the renamed VGPRs it may use.
  void launched(Workgroup& wg, const analysis::WorkgroupShape& shape, unsigned rename_vgprs);
  void finished(Workgroup& wg);

  // Whether wave w may skip `op` now: its leader has executed it.
  bool can_skip(const WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info) const;
  // Wave w skips `op` at cycle c (can_skip was true): its registers get the
  // leader's value, usable from the leader's write-back. In checking mode
  // the value is computed and compared; a difference is returned as a
  // message (empty: none).
  std::string skip(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c);
  // Wave w issued `op` (after it executed); a result it leads with is
  // usable from cycle `result_at`. Returns the renamed VGPRs it must copy
  // back because it left the majority path (0: none).
  unsigned issued(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t result_at);
  // Wave w ended: it no longer takes part.
  void ended(WaveSlot& w);
  // The workgroup's barrier opened: every running wave is on the majority path again.
  void barrier_released(Workgroup& wg);

  bool skipping() const { return cfg_.darsie; }

 private:
  using Group = DarsieGroup;
  Group& group(const WaveSlot& w) const;
  SkipEntry* find(Group& g, uint64_t pc, uint32_t epoch) const;
  bool marked_skippable(const Group& g, const WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info) const;
  void lead(Group& g, WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t result_at);
  void done_with(Group& g, SkipEntry& e, unsigned wave);
  void free_entry(Group& g, SkipEntry& e);
  unsigned leave(Group& g, unsigned wave);
  void count_class(uint32_t bits);

  const CuConfig& cfg_;
  DarsieStats st_;
  std::vector<std::unique_ptr<Group>> groups_;  // reused from workgroup to workgroup
  std::vector<Group*> free_;
};

}  // namespace tessera
