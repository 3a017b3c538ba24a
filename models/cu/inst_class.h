// How the compute unit's timing model sees one decoded instruction: its issue
// class (which unit it goes to), how long it occupies that unit and when its
// result is usable, its memory plan functions. Computed once per PC of a
// program and kept in a table parallel to the program's decode cache, so the
// issue loop never looks at mnemonics.
#pragma once
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/cu/cu_config.h"
#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/mem_plan.h"
#include "models/cu/inst_marks.h"

namespace tessera {

enum class IssueClass : uint8_t {
  Valu,        // VOP1/2/3/C/3P on the wave's SIMD (incl. transcendental and f64)
  Mfma,        // matrix core of the wave's SIMD
  Salu,        // scalar ALU (SOP*), also scalar ops without memory (s_dcache_inv...)
  Smem,        // scalar memory through the scalar cache
  VmemLoad,    // vector memory: FLAT/GLOBAL/SCRATCH/MUBUF loads
  VmemStore,
  VmemAtomic,
  VmemNoData,  // vector memory instructions without an access (buffer_wbinvl1)
  Lds,         // DS
  Branch,      // s_branch, s_cbranch_*, s_setpc, s_swappc, s_call
  Waitcnt,     // s_waitcnt: handled by the sequencer, no unit
  Barrier,     // s_barrier
  EndPgm,      // s_endpgm
  Nop,         // s_nop N: N+1 cycles; s_sleep: sleep_unit cycles per count (sequencer)
  Internal,    // other sequencer instructions (s_setprio...): one cycle, no unit
  Count
};

const char* issue_class_name(IssueClass c);

// A run of scoreboard slots (compute_unit.h: [0,128) scalar codes, 128 SCC,
// then VGPRs, then AGPRs) that an instruction reads or writes. An AGPR run
// counts from the end of the wave's VGPRs, which only the wave knows.
struct SlotRun {
  uint16_t first = 0;
  uint8_t count = 0;
  bool agpr = false;
};
constexpr unsigned kSccSlot = 128;   // scoreboard slot of SCC
constexpr unsigned kVgprSlot = 129;  // first VGPR's slot

struct InstInfo {
  IssueClass cls = IssueClass::Internal;
  bool known = false;      // filled in
  bool flat = false;       // FLAT format: counts in vmcnt and lgkmcnt
  bool sets_priority = false;  // s_setprio
  uint32_t busy = 1;       // cycles the unit is occupied
  uint32_t latency = 1;    // issue to result usable (VALU, SALU, MFMA)
  uint32_t wait = 0;       // Nop: cycles before the wave's next issue
  // A register pair read implicitly (s_cbranch_vccz/vccnz: VCC,
  // s_cbranch_execz/execnz: EXEC), waited for like an operand; 0 for none.
  uint16_t implicit_read = 0;
  isa::MemFns mem;
  // The slots the issue stage waits for (sources, EXEC for vector work, the
  // implicit read) and the slots the result makes busy: worked out once here
  // so that the per-cycle dependency check is a plain loop.
  uint8_t reads = 0, writes = 0;
  SlotRun read_runs[6], write_runs[2];
};

// Instruction information of one program (one decode cache), by PC.
class ProgramInfo {
 public:
  ProgramInfo(isa::DecodeCache& program, const CuConfig& cfg)
      : program_(program), cfg_(cfg), text_(program.code().text_address()),
        infos_(program.code().text().size() / 4) {}
  isa::DecodeCache& program() { return program_; }
  const InstInfo& info(const isa::DecodedOp& op) {
    InstInfo& i = infos_[(op.inst.pc - text_) >> 2];
    if (!i.known) classify(op, i);
    return i;
  }
  // The kernel's static marks, computed by the registered markers on first
  // use; nullptr when no marker is registered.
  const InstMarks* marks(const isa::KernelInfo& kernel) {
    auto it = marks_.find(&kernel);
    if (it == marks_.end()) it = marks_.emplace(&kernel, compute_marks(program_, kernel)).first;
    return it->second.get();
  }

 private:
  void classify(const isa::DecodedOp& op, InstInfo& out) const;
  isa::DecodeCache& program_;
  const CuConfig& cfg_;
  uint64_t text_;
  std::vector<InstInfo> infos_;
  std::unordered_map<const isa::KernelInfo*, std::unique_ptr<InstMarks>> marks_;
};

}  // namespace tessera
