// The control-flow graph of one kernel's decoded code, and the two facts the
// kernel analysis derives from its shape alone: which blocks depend on each
// conditional branch, and which memory each barrier section writes.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "models/cu/isa/instruction.h"

namespace tessera::analysis {

struct Block {
  size_t first = 0, last = 0;  // instruction indices, inclusive
  std::vector<size_t> succ, pred;
};

struct Cfg {
  std::vector<Block> blocks;     // blocks[0] holds the entry point
  std::vector<size_t> block_of;  // instruction index -> its block
  std::string error;             // not empty: the code cannot be analysed, and why
};

// The most basic blocks a kernel may have: the post-dominator sets take
// blocks^2 bits (8 MiB here). Compiled kernels have tens to hundreds.
constexpr size_t kMaxBlocks = 8192;

// Basic blocks split at branch targets and after branches and s_endpgm.
// s_swappc_b64 and s_call_b64 return to the next instruction and do not end a
// block. Code that jumps to an address it computes (s_setpc_b64, the fork and
// join branches), branches outside `code`, holds words that are no
// instruction, or has more than kMaxBlocks blocks sets `error` instead.
Cfg build_cfg(const std::vector<isa::Instruction>& code);

// For each block ending in a conditional branch, the blocks that run or not
// depending on which way it goes: those reachable from its successors before
// reaching a block that post-dominates the branch (empty for other blocks).
std::vector<std::vector<size_t>> branch_regions(const Cfg& cfg);

// The memory a workgroup may write while one of its waves runs an
// instruction: what any instruction of the same barrier section writes. A
// barrier section is a connected part of the control-flow graph once the
// s_barrier instructions are taken out: every wave must have finished what
// lies before a barrier before any wave passes it, so only the stores of the
// same section can run at the same time as a load (OpenCL requires every wave
// of a workgroup to reach the same barriers).
struct SectionWrites {
  bool lds = false;     // LDS stores and atomics (DS, FLAT, MUBUF with lds)
  bool global = false;  // global and scalar stores, atomics, GDS writes, cache fences (buffer_wbl2, buffer_inv*, s_dcache_*)
};
std::vector<SectionWrites> section_writes(const std::vector<isa::Instruction>& code, const Cfg& cfg);

// Instruction kinds shared by the analysis's parts (`inst.op` must be set).
bool mnemonic_is(const isa::Instruction& inst, const char* name);
bool mnemonic_starts(const isa::Instruction& inst, const char* prefix);
bool is_call(const isa::Instruction& inst);         // s_swappc_b64, s_call_b64
bool is_conditional_branch(const isa::Instruction& inst);

}  // namespace tessera::analysis
