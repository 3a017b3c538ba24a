// One wave's register scoreboard: for every register slot (inst_class.h:
// [0,128) scalar codes, 128 SCC, then VGPRs, then AGPRs) the cycle an ALU
// result written to it becomes usable, and the lanes that memory
// instructions in flight will still write into it.
//
// The issue stage waits on the ready cycles. It does not wait on the
// memory lanes: gfx90a has no interlock on memory results (the program's
// s_waitcnt orders them), so the default model keeps them for the
// mechanisms that need them (lazy loads keep per-lane busy bits, a multicast
// LDS read writes two waves' registers) and for the hooks to read.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cu/inst_class.h"

namespace tessera {

class Scoreboard {
 public:
  // Every slot ready and free, for a wave with `vgprs` VGPRs (AGPRs follow them).
  void reset(unsigned slots, unsigned vgprs);
  // The cycle every register `info` reads is ready.
  uint64_t operands_ready(const InstInfo& info) const;
  // The cycle every register `info` writes has its ALU result (no ALU write
  // to it still due).
  uint64_t results_ready(const InstInfo& info) const;
  // The registers `info` writes become usable at cycle `when`.
  void mark_results(const InstInfo& info, uint64_t when);

  // A memory instruction writing `info`'s destinations in `lanes` is in
  // flight (a scalar destination uses lane 0). Several may write one
  // register: its lanes stay busy until the last of them completes.
  void memory_issued(const InstInfo& info, uint64_t lanes);
  void memory_completed(const InstInfo& info);
  // The lanes of `slot` a memory instruction in flight will still write.
  uint64_t busy_lanes(unsigned slot) const { return slot < busy_.size() ? busy_[slot] : 0; }
  // The lanes of the registers `info` reads that memory will still write.
  uint64_t busy_operand_lanes(const InstInfo& info) const;

  // The slots of one run, clipped to the wave's registers.
  void bounds(const SlotRun& run, unsigned& first, unsigned& end) const {
    first = run.first + (run.agpr ? vgprs_ : 0u);
    end = first + run.count < size_ ? first + run.count : size_;
  }

 private:
  std::vector<uint64_t> ready_;   // cycle each slot's ALU result is usable
  std::vector<uint64_t> busy_;    // lanes memory in flight will write
  std::vector<uint8_t> writers_;  // memory instructions in flight writing each slot
  unsigned vgprs_ = 0, size_ = 0;
};

}  // namespace tessera
