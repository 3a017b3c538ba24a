#include "models/cu/darsie_unit.h"

#include <algorithm>

#include "models/cu/inst_marks.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/hex.h"
#include "models/cu/isa/wave_runner.h"

namespace tessera {

using analysis::Darsie;

namespace {

constexpr uint64_t kFullExec = ~0ull;
constexpr unsigned kMaxVgprs = 512;

uint32_t darsie_bits(const analysis::InstructionMark& m) {
  uint32_t bits = m.darsie == Darsie::DR ? kDarsieDR : m.darsie == Darsie::CR ? kDarsieCR : 0;
  if (bits && m.load) bits |= kDarsieLoad;
  return bits;
}

bool is_vector(IssueClass c) {
  switch (c) {
    case IssueClass::Valu: case IssueClass::Mfma: case IssueClass::Lds: case IssueClass::VmemLoad:
    case IssueClass::VmemStore: case IssueClass::VmemAtomic: case IssueClass::VmemNoData:
      return true;
    default:
      return false;
  }
}

// Calls f(vgpr) for every VGPR `info` writes; false if it writes anything
// else (only VGPRs are renamed: such an instruction is never skipped).
template <class F>
bool for_each_result_vgpr(const InstInfo& info, unsigned num_vgprs, F f) {
  for (unsigned r = 0; r < info.writes; ++r) {
    const SlotRun& run = info.write_runs[r];
    if (run.agpr || run.first < kVgprSlot) return false;
    for (unsigned k = 0; k < run.count; ++k) {
      const unsigned v = run.first - kVgprSlot + k;
      if (v >= num_vgprs) return false;
      f(v);
    }
  }
  return info.writes > 0;
}

}  // namespace

// A dynamic position on the majority path: branches executed since the last
// barrier, then the PC (straight-line code between branches only goes forward).
struct DarsiePosition {
  uint32_t epoch = 0;
  uint64_t pc = 0;
  bool after(const DarsiePosition& o) const { return epoch != o.epoch ? epoch > o.epoch : pc > o.pc; }
};

// One skip-table entry: a skippable instruction's dynamic instance, the
// leader's result in renamed VGPRs, and the followers still to skip it.
struct SkipEntry {
  bool used = false;
  DarsiePosition at;
  uint64_t waiting = 0;      // majority-path waves that have not reached it yet
  uint64_t writeback = 0;    // cycle the leader's result is usable
  bool load = false;         // an LDS read: dropped when the workgroup stores to the LDS
  std::vector<unsigned> vgprs;   // the architectural VGPRs it writes
  std::vector<uint32_t> values;  // the leader's result, 64 lanes per VGPR (the renamed VGPRs)
};

struct DarsieGroup {
  std::vector<SkipEntry> table;
  uint64_t start_path = 0;   // waves that began with every lane (a partial wave never takes part)
  uint64_t majority = 0;     // the majority-path mask
  bool cr = false;           // CR instructions are skippable in this shape
  unsigned rename_budget = 0, rename_used = 0;
  DarsiePosition frontier;         // the furthest skippable position a majority-path wave issued
  bool any = false;          // frontier is set
  std::vector<uint32_t> epoch;               // per wave: branches on the majority path since the barrier
  std::vector<uint64_t> path;                // the k-th branch's next PC on the majority path
  std::vector<std::bitset<kMaxVgprs>> renamed;  // per wave: VGPRs it reads through renaming
};

void register_darsie_marker() {
  static const bool registered = register_inst_marker(
      "darsie", [](isa::DecodeCache& program, const isa::KernelInfo& kernel, InstMarks& marks) {
        const analysis::KernelMarks k = analysis::analyze_kernel(program.code(), kernel);
        for (const analysis::InstructionMark& m : k.marks)
          if (const uint32_t bits = darsie_bits(m)) marks.set(m.pc, bits);
      });
  (void)registered;
}

DarsieStats::DarsieStats(StatGroup& g)
    : vector_issued(g.counter("darsie_vector_issued", "vector instructions fetched and issued (VALU, MFMA, DS, vector memory)")),
      scalar_issued(g.counter("darsie_scalar_issued", "other instructions fetched and issued (scalar, branch, sequencer)")),
      executed_dr(g.counter("darsie_executed_dr", "vector instructions issued that are marked DR")),
      executed_cr(g.counter("darsie_executed_cr", "vector instructions issued that are marked CR")),
      executed_v(g.counter("darsie_executed_v", "vector instructions issued that are marked V")),
      skipped_dr(g.counter("darsie_skipped_dr", "DR vector instructions skipped by followers")),
      skipped_cr(g.counter("darsie_skipped_cr", "CR vector instructions skipped by followers")),
      table_hits(g.counter("darsie_table_hits", "skips: a follower found its leader's skip-table entry")),
      table_full(g.counter("darsie_table_full", "leaders that found the skip table full (executed by every wave)")),
      rename_allocations(g.counter("darsie_rename_allocations", "renamed VGPRs given to leaders' results")),
      rename_failures(g.counter("darsie_rename_failures",
                                "leaders that found too few free renamed VGPRs (executed by every wave)")),
      path_exits(g.counter("darsie_path_exits", "waves that left the majority path (other branch outcome, partial EXEC)")),
      copied_back(g.counter("darsie_copied_back", "renamed VGPRs copied back by waves leaving the majority path")),
      checked(g.counter("darsie_checked", "skipped instructions compared with the leader's value (checking mode)")) {}

DarsieUnit::DarsieUnit(StatGroup& g, const CuConfig& cfg) : cfg_(cfg), st_(g) {}
DarsieUnit::~DarsieUnit() = default;

void DarsieUnit::launched(Workgroup& wg, const analysis::WorkgroupShape& shape, unsigned rename_vgprs) {
  if (!cfg_.darsie) return;
  if (free_.empty()) {
    groups_.push_back(std::make_unique<Group>());
    free_.push_back(groups_.back().get());
  }
  Group& g = *free_.back();
  free_.pop_back();
  const size_t n = wg.waves.size();
  g.table.assign(cfg_.darsie_skip_table, SkipEntry{});
  g.start_path = 0;
  for (size_t i = 0; i < n && i < 64; ++i)
    if (wg.waves[i]->wave->exec() == kFullExec) g.start_path |= uint64_t{1} << wg.waves[i]->wave->id.wave_in_group;
  g.majority = g.start_path;
  g.cr = analysis::cr_skippable(shape);
  g.rename_budget = rename_vgprs;
  g.rename_used = 0;
  g.any = false;
  g.epoch.assign(n, 0);
  g.path.clear();
  g.renamed.assign(n, {});
  wg.darsie = &g;
}

void DarsieUnit::finished(Workgroup& wg) {
  if (!wg.darsie) return;
  free_.push_back(wg.darsie);
  wg.darsie = nullptr;
}

DarsieUnit::Group& DarsieUnit::group(const WaveSlot& w) const { return *w.wg->darsie; }

SkipEntry* DarsieUnit::find(Group& g, uint64_t pc, uint32_t epoch) const {
  for (SkipEntry& e : g.table)
    if (e.used && e.at.pc == pc && e.at.epoch == epoch) return &e;
  return nullptr;
}

bool DarsieUnit::marked_skippable(const Group& g, const WaveSlot& w, const isa::DecodedOp& op,
                                  const InstInfo& info) const {
  const uint32_t bits = w.marks ? w.marks->at(op.inst.pc) : 0;
  if (!((bits & kDarsieDR) || ((bits & kDarsieCR) && g.cr))) return false;
  // VALU instructions, and LDS reads (the load flag) unless the multicast
  // unit serves them (its table and DARSIE's would both claim them).
  return info.cls == IssueClass::Valu || (info.cls == IssueClass::Lds && (bits & kDarsieLoad) && !cfg_.lds_multicast);
}

bool DarsieUnit::can_skip(const WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info) const {
  if (!w.wg->darsie) return false;
  Group& g = group(w);
  const unsigned i = w.wave->id.wave_in_group;
  if (!(g.majority >> i & 1) || w.wave->exec() != kFullExec || !marked_skippable(g, w, op, info)) return false;
  const SkipEntry* e = find(g, op.inst.pc, g.epoch[i]);
  return e && (e->waiting >> i & 1);
}

std::string DarsieUnit::skip(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t c) {
  Group& g = group(w);
  isa::Wave& wave = *w.wave;
  const unsigned i = wave.id.wave_in_group;
  SkipEntry& e = *find(g, op.inst.pc, g.epoch[i]);
  std::string mismatch;
  if (cfg_.darsie_check) {
    isa::execute(wave, op);
    ++st_.checked;
    for (size_t k = 0; k < e.vgprs.size() && mismatch.empty(); ++k) {
      const uint32_t* mine = wave.v(e.vgprs[k]);
      const uint32_t* leader = e.values.data() + k * 64;
      for (unsigned lane = 0; lane < 64; ++lane)
        if (mine[lane] != leader[lane]) {
          const uint32_t* id = wave.id.workgroup;
          mismatch = "DARSIE check: a wrong DR/CR mark: kernel " + w.wg->task.ctx->kernel->name + ", pc " +
                     hex(op.inst.pc) + " (" + isa::disassemble(op.inst) + "), wave " + std::to_string(i) +
                     " of workgroup (" + std::to_string(id[0]) + "," + std::to_string(id[1]) + "," +
                     std::to_string(id[2]) + "), lane " + std::to_string(lane) + ", v" + std::to_string(e.vgprs[k]) +
                     ": leader " + hex(leader[lane]) + ", this wave " + hex(mine[lane]);
          break;
        }
    }
  } else {
    for (size_t k = 0; k < e.vgprs.size(); ++k) std::copy_n(e.values.data() + k * 64, 64, wave.v(e.vgprs[k]));
    wave.pc = op.inst.pc + op.inst.size;
  }
  w.board.mark_results(info, std::max(c + 1, e.writeback));
  for (unsigned v : e.vgprs) g.renamed[i].set(v);
  ++st_.table_hits;
  ++(w.marks->at(op.inst.pc) & kDarsieDR ? st_.skipped_dr : st_.skipped_cr);
  done_with(g, e, i);
  return mismatch;
}

void DarsieUnit::count_class(uint32_t bits) {
  ++(bits & kDarsieDR ? st_.executed_dr : bits & kDarsieCR ? st_.executed_cr : st_.executed_v);
}

unsigned DarsieUnit::issued(WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t result_at) {
  const uint64_t pc = op.inst.pc;
  if (is_vector(info.cls)) {
    ++st_.vector_issued;
    count_class(w.marks ? w.marks->at(pc) : 0);
  } else {
    ++st_.scalar_issued;
  }
  if (!w.wg->darsie) return 0;
  Group& g = group(w);
  isa::Wave& wave = *w.wave;
  const unsigned i = wave.id.wave_in_group;
  // A store (by any wave of the workgroup) drops the entries of LDS reads: a
  // DS store or atomic, or a vector memory one (FLAT may address the LDS).
  const bool stores = info.cls == IssueClass::VmemStore || info.cls == IssueClass::VmemAtomic ||
                      (info.cls == IssueClass::Lds && (op.inst.op->flags & (isa::kStore | isa::kAtomic)));
  if (stores)
    for (SkipEntry& e : g.table)
      if (e.used && e.load) free_entry(g, e);
  if (!(g.majority >> i & 1)) return 0;
  // Its own result replaces what it read through renaming.
  for (unsigned r = 0; r < info.writes; ++r) {
    const SlotRun& run = info.write_runs[r];
    if (run.agpr || run.first < kVgprSlot) continue;
    for (unsigned k = 0; k < run.count && run.first - kVgprSlot + k < kMaxVgprs; ++k)
      g.renamed[i].reset(run.first - kVgprSlot + k);
  }
  if (info.cls == IssueClass::Branch) {
    // Every majority-path wave must take the first one's way at its k-th branch.
    const uint32_t k = g.epoch[i]++;
    if (g.path.size() <= k) g.path.push_back(wave.pc);
    return g.path[k] == wave.pc ? 0 : leave(g, i);
  }
  if (!marked_skippable(g, w, op, info)) return 0;
  if (wave.exec() != kFullExec) return leave(g, i);  // diverged inside the wave
  const DarsiePosition at{g.epoch[i], pc};
  if (SkipEntry* e = find(g, pc, at.epoch)) {
    if (e->waiting >> i & 1) done_with(g, *e, i);
    return 0;
  }
  if (!g.any || at.after(g.frontier)) {  // the first majority-path wave here: the leader
    g.frontier = at;
    g.any = true;
    lead(g, w, op, info, result_at);
  }
  return 0;
}

// Wave w, the first on the majority path to issue `op` (at this position),
// keeps its result in renamed VGPRs for the others, if the table and the
// renamed VGPRs have room.
void DarsieUnit::lead(Group& g, WaveSlot& w, const isa::DecodedOp& op, const InstInfo& info, uint64_t result_at) {
  const unsigned i = w.wave->id.wave_in_group;
  const uint64_t followers = g.majority & ~(uint64_t{1} << i);
  if (!followers) return;
  auto free = std::find_if(g.table.begin(), g.table.end(), [](const SkipEntry& e) { return !e.used; });
  if (free == g.table.end()) {
    ++st_.table_full;
    return;
  }
  std::vector<unsigned> vgprs;
  if (!for_each_result_vgpr(info, w.wave->num_vgprs(), [&](unsigned v) { vgprs.push_back(v); })) return;
  if (g.rename_used + vgprs.size() > g.rename_budget) {
    ++st_.rename_failures;
    return;
  }
  SkipEntry& e = *free;
  e.used = true;
  e.at = DarsiePosition{g.epoch[i], op.inst.pc};
  e.waiting = followers;
  e.writeback = result_at;
  e.load = info.cls == IssueClass::Lds;
  e.vgprs = std::move(vgprs);
  e.values.resize(e.vgprs.size() * 64);
  for (size_t k = 0; k < e.vgprs.size(); ++k) std::copy_n(w.wave->v(e.vgprs[k]), 64, e.values.data() + k * 64);
  g.rename_used += static_cast<unsigned>(e.vgprs.size());
  st_.rename_allocations += e.vgprs.size();
}

// Wave `wave` no longer waits for entry e; the last one frees it.
void DarsieUnit::done_with(Group& g, SkipEntry& e, unsigned wave) {
  e.waiting &= ~(uint64_t{1} << wave);
  if (!e.waiting) free_entry(g, e);
}

void DarsieUnit::free_entry(Group& g, SkipEntry& e) {
  e.used = false;
  g.rename_used -= static_cast<unsigned>(e.vgprs.size());
}

// Wave `wave` leaves the majority path; returns the renamed VGPRs it copies back.
unsigned DarsieUnit::leave(Group& g, unsigned wave) {
  g.majority &= ~(uint64_t{1} << wave);
  for (SkipEntry& e : g.table)
    if (e.used && (e.waiting >> wave & 1)) done_with(g, e, wave);
  const unsigned copies = static_cast<unsigned>(g.renamed[wave].count());
  g.renamed[wave].reset();
  ++st_.path_exits;
  st_.copied_back += copies;
  return copies;
}

void DarsieUnit::ended(WaveSlot& w) {
  if (!w.wg->darsie) return;
  Group& g = group(w);
  const unsigned i = w.wave->id.wave_in_group;
  g.majority &= ~(uint64_t{1} << i);
  for (SkipEntry& e : g.table)
    if (e.used && (e.waiting >> i & 1)) done_with(g, e, i);
}

void DarsieUnit::barrier_released(Workgroup& wg) {
  if (!wg.darsie) return;
  Group& g = *wg.darsie;
  g.majority = 0;
  for (const WaveSlot* w : wg.waves)
    if (!w->ended) g.majority |= g.start_path & uint64_t{1} << w->wave->id.wave_in_group;
  for (SkipEntry& e : g.table) e.used = false;
  g.rename_used = 0;
  g.any = false;
  std::fill(g.epoch.begin(), g.epoch.end(), 0);
  g.path.clear();
}

}  // namespace tessera
