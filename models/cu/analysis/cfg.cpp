// Control-flow graph, branch regions and barrier sections of a kernel.
#include "models/cu/analysis/cfg.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace tessera::analysis {

using isa::Instruction;

namespace {

std::string hex_address(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Branches whose target is a register value, not an immediate.
bool is_indirect(const Instruction& inst) {
  return mnemonic_is(inst, "s_setpc_b64") || mnemonic_is(inst, "s_cbranch_g_fork") || mnemonic_is(inst, "s_cbranch_i_fork") ||
         mnemonic_is(inst, "s_cbranch_join");
}

bool ends_block(const Instruction& inst) {
  if (!inst.op) return false;
  if (inst.op->flags & isa::kEndProgram) return true;
  return (inst.op->flags & isa::kBranch) && !is_call(inst);
}

// The index of the instruction at `pc`, or code.size().
size_t index_at(const std::vector<Instruction>& code, uint64_t pc) {
  auto it = std::lower_bound(code.begin(), code.end(), pc, [](const Instruction& i, uint64_t p) { return i.pc < p; });
  return it != code.end() && it->pc == pc ? static_cast<size_t>(it - code.begin()) : code.size();
}

// The check of build_cfg: every word an instruction, every branch direct and inside.
std::string unanalysable(const std::vector<Instruction>& code) {
  if (code.empty()) return "no instructions";
  for (const Instruction& inst : code) {
    if (!inst.op) return "words at " + hex_address(inst.pc) + " are no gfx90a instruction";
    if (is_indirect(inst)) return std::string(inst.op->mnemonic) + " at " + hex_address(inst.pc) + " jumps to a computed address";
    if (inst.format == isa::Format::SOPP && (inst.op->flags & isa::kBranch) &&
        index_at(code, inst.branch_target()) == code.size())
      return "branch at " + hex_address(inst.pc) + " to " + hex_address(inst.branch_target()) + ", outside the kernel's code";
  }
  return "";
}

void link(Cfg& cfg, size_t from, size_t to) {
  std::vector<size_t>& s = cfg.blocks[from].succ;
  if (std::find(s.begin(), s.end(), to) != s.end()) return;
  s.push_back(to);
  cfg.blocks[to].pred.push_back(from);
}

using BitSet = std::vector<bool>;

// Post-dominator sets (block b's set includes b); index blocks.size() is the
// virtual exit every returning block leads to.
std::vector<BitSet> post_dominators(const Cfg& cfg) {
  const size_t n = cfg.blocks.size();
  std::vector<BitSet> pdom(n + 1, BitSet(n + 1, true));
  pdom[n] = BitSet(n + 1, false);
  pdom[n][n] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = n; b-- > 0;) {
      BitSet meet(n + 1, true);
      const std::vector<size_t>& succ = cfg.blocks[b].succ;
      if (succ.empty()) meet = pdom[n];
      for (size_t s : succ)
        for (size_t i = 0; i <= n; ++i) meet[i] = meet[i] && pdom[s][i];
      meet[b] = true;
      if (meet != pdom[b]) pdom[b] = std::move(meet), changed = true;
    }
  }
  return pdom;
}

size_t find_root(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

bool writes_lds(const Instruction& inst) {
  const uint32_t f = inst.op->flags;
  const bool writes = f & (isa::kStore | isa::kAtomic);
  if (inst.format == isa::Format::DS) return writes;
  if (inst.format == isa::Format::FLAT) return writes;  // a flat address may point into the LDS
  return (inst.format == isa::Format::MUBUF || inst.format == isa::Format::MTBUF) && (inst.lds || (f & isa::kLds));
}

bool writes_global(const Instruction& inst) {
  const isa::Format fmt = inst.format;
  if (fmt == isa::Format::SMEM)  // scalar stores (not to scratch) and the scalar cache's write-back
    return ((inst.op->flags & isa::kStore) && !mnemonic_starts(inst, "s_scratch")) || mnemonic_starts(inst, "s_dcache");
  if (fmt == isa::Format::DS) return inst.gds && (inst.op->flags & (isa::kStore | isa::kAtomic));  // GDS is global
  if (fmt != isa::Format::FLAT && fmt != isa::Format::GLOBAL && fmt != isa::Format::MUBUF && fmt != isa::Format::MTBUF)
    return false;
  return (inst.op->flags & (isa::kStore | isa::kAtomic)) || mnemonic_starts(inst, "buffer_wb") ||
         mnemonic_starts(inst, "buffer_inv");
}

}  // namespace

bool mnemonic_is(const Instruction& inst, const char* name) { return std::strcmp(inst.op->mnemonic, name) == 0; }
bool mnemonic_starts(const Instruction& inst, const char* prefix) {
  return std::strncmp(inst.op->mnemonic, prefix, std::strlen(prefix)) == 0;
}

bool is_call(const Instruction& inst) { return mnemonic_is(inst, "s_swappc_b64") || mnemonic_is(inst, "s_call_b64"); }

bool is_conditional_branch(const Instruction& inst) {
  return inst.op && inst.format == isa::Format::SOPP && (inst.op->flags & isa::kBranch) && !mnemonic_is(inst, "s_branch");
}

Cfg build_cfg(const std::vector<Instruction>& code) {
  Cfg cfg;
  cfg.error = unanalysable(code);
  if (!cfg.error.empty()) return cfg;
  std::vector<bool> leader(code.size() + 1, false);
  leader[0] = true;
  for (size_t i = 0; i < code.size(); ++i) {
    if (!ends_block(code[i])) continue;
    leader[i + 1] = true;
    if (code[i].format == isa::Format::SOPP && (code[i].op->flags & isa::kBranch))
      leader[index_at(code, code[i].branch_target())] = true;
  }
  cfg.block_of.resize(code.size());
  for (size_t i = 0; i < code.size(); ++i) {
    if (leader[i]) cfg.blocks.push_back(Block{i, i, {}, {}});
    cfg.blocks.back().last = i;
    cfg.block_of[i] = cfg.blocks.size() - 1;
  }
  if (cfg.blocks.size() > kMaxBlocks) {
    cfg.error = std::to_string(cfg.blocks.size()) + " basic blocks, more than the " + std::to_string(kMaxBlocks) +
                " the analysis takes";
    return cfg;
  }
  for (size_t b = 0; b < cfg.blocks.size(); ++b) {
    const Instruction& end = code[cfg.blocks[b].last];
    const bool branch = end.format == isa::Format::SOPP && (end.op->flags & isa::kBranch);
    if (branch) link(cfg, b, cfg.block_of[index_at(code, end.branch_target())]);
    const bool falls_through = !(end.op->flags & isa::kEndProgram) && (!branch || is_conditional_branch(end));
    if (falls_through && b + 1 < cfg.blocks.size()) link(cfg, b, b + 1);
  }
  return cfg;
}

std::vector<std::vector<size_t>> branch_regions(const Cfg& cfg) {
  const size_t n = cfg.blocks.size();
  const std::vector<BitSet> pdom = post_dominators(cfg);
  std::vector<std::vector<size_t>> regions(n);
  for (size_t b = 0; b < n; ++b) {
    if (cfg.blocks[b].succ.size() < 2) continue;
    std::vector<bool> seen(n, false);
    std::vector<size_t> work;
    for (size_t s : cfg.blocks[b].succ)
      if (!(s != b && pdom[b][s])) work.push_back(s);
    while (!work.empty()) {
      const size_t x = work.back();
      work.pop_back();
      if (seen[x]) continue;
      seen[x] = true;
      regions[b].push_back(x);
      for (size_t s : cfg.blocks[x].succ)
        if (!seen[s] && !(s != b && pdom[b][s])) work.push_back(s);
    }
    std::sort(regions[b].begin(), regions[b].end());
  }
  return regions;
}

std::vector<SectionWrites> section_writes(const std::vector<Instruction>& code, const Cfg& cfg) {
  std::vector<size_t> parent(code.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto barrier = [&](size_t i) { return mnemonic_is(code[i], "s_barrier"); };
  auto join = [&](size_t a, size_t b) {
    if (!barrier(a) && !barrier(b)) parent[find_root(parent, a)] = find_root(parent, b);
  };
  for (const Block& blk : cfg.blocks) {
    for (size_t i = blk.first; i < blk.last; ++i) join(i, i + 1);
    for (size_t s : blk.succ) join(blk.last, cfg.blocks[s].first);
  }
  std::vector<SectionWrites> by_root(code.size());
  for (size_t i = 0; i < code.size(); ++i) {
    SectionWrites& w = by_root[find_root(parent, i)];
    const bool call = is_call(code[i]);  // a called function may store anywhere
    w.lds = w.lds || call || writes_lds(code[i]);
    w.global = w.global || call || writes_global(code[i]);
  }
  std::vector<SectionWrites> out(code.size());
  for (size_t i = 0; i < code.size(); ++i) out[i] = by_root[find_root(parent, i)];
  return out;
}

}  // namespace tessera::analysis
