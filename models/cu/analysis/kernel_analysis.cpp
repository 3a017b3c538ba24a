// The kernel analysis: a forward dataflow fixed point over the control-flow
// graph, repeated while the branch regions' sources grow, then one pass that
// turns each instruction's effect into its marks.
#include "models/cu/analysis/kernel_analysis.h"

#include <algorithm>
#include <cstring>
#include <deque>

#include "models/cu/analysis/cfg.h"
#include "models/cu/analysis/transfer.h"
#include "models/cu/isa/decoder.h"

namespace tessera::analysis {

using isa::Instruction;

namespace {

// Code that reaches registers through M0 (s_set_gpr_idx_*, *movrel*): which
// register an instruction reads or writes is not in its encoding.
std::string indexes_registers(const std::vector<Instruction>& code) {
  for (const Instruction& inst : code)
    if (inst.op && (std::strstr(inst.op->mnemonic, "gpr_idx") || std::strstr(inst.op->mnemonic, "movrel")))
      return std::string(inst.op->mnemonic) + " indexes registers through M0";
  return "";
}

struct Solution {
  std::vector<RegisterState> in;  // per block, at its first instruction
  std::vector<Sources> control;   // per block
};

class Solver {
 public:
  Solver(const std::vector<Instruction>& code, const isa::KernelDescriptor& kd)
      : code_(code), cfg_(build_cfg(code)), entry_(entry_state(kd)) {}

  const Cfg& cfg() const { return cfg_; }

  Solution solve() {
    writes_ = section_writes(code_, cfg_);
    const std::vector<std::vector<size_t>> regions = branch_regions(cfg_);
    Solution s;
    s.control.assign(cfg_.blocks.size(), 0);
    for (;;) {
      s.in = states(s.control);
      std::vector<Sources> control = s.control;
      for (size_t b = 0; b < regions.size(); ++b) {
        if (regions[b].empty() || !s.in[b].reached) continue;
        RegisterState st = s.in[b];
        run_block(b, s.control[b], st);
        const Sources cond = branch_condition(code_[cfg_.blocks[b].last], st) | s.control[b];
        for (size_t r : regions[b]) control[r] |= cond;
      }
      if (control == s.control) return s;
      s.control = std::move(control);
    }
  }

  // Runs block b's instructions on `st`; `each(index, effect)` sees every one.
  template <typename F>
  void run_block(size_t b, Sources control, RegisterState& st, F each) const {
    for (size_t i = cfg_.blocks[b].first; i <= cfg_.blocks[b].last; ++i) each(i, transfer(code_[i], control, writes_[i], st));
  }
  void run_block(size_t b, Sources control, RegisterState& st) const {
    run_block(b, control, st, [](size_t, const Effect&) {});
  }

 private:
  // The forward fixed point for given branch-region sources.
  std::vector<RegisterState> states(const std::vector<Sources>& control) const {
    std::vector<RegisterState> in(cfg_.blocks.size());
    in[0] = entry_;
    std::deque<size_t> work{0};
    std::vector<bool> queued(cfg_.blocks.size(), false);
    queued[0] = true;
    while (!work.empty()) {
      const size_t b = work.front();
      work.pop_front();
      queued[b] = false;
      RegisterState st = in[b];
      run_block(b, control[b], st);
      for (size_t s : cfg_.blocks[b].succ)
        if (in[s].join(st) && !queued[s]) work.push_back(s), queued[s] = true;
    }
    return in;
  }

  const std::vector<Instruction>& code_;
  Cfg cfg_;
  RegisterState entry_;
  std::vector<SectionWrites> writes_;
};

// Why DARSIE never skips `inst`, whatever its value class; nullptr if it may.
const char* never_skipped(const Instruction& inst, const Effect& e) {
  const uint32_t f = inst.op->flags;
  if (f & isa::kAtomic) return "atomic";
  if (f & isa::kStore) return "store";
  if (f & isa::kBarrier) return "barrier";
  if (is_call(inst)) return "call";
  if (f & isa::kBranch) return "branch";
  if (f & isa::kEndProgram) return "end of program";
  if (inst.format == isa::Format::SCRATCH) return "scratch";
  if (inst.ext == isa::ExtKind::Dpp || (f & isa::kCrossLane)) return "cross-lane";
  if (mnemonic_is(inst, "s_getreg_b32") || mnemonic_is(inst, "s_memtime") || mnemonic_is(inst, "s_memrealtime")) return "hardware ID or clock";
  if (!e.writes_value) return "no result";
  if (inst.lds) return "loads into the LDS";
  if (e.writes_scalar) return "writes SGPR/VCC/SCC/EXEC (only VGPRs are renamed)";
  return nullptr;
}

bool is_memory(const Instruction& inst) {
  switch (inst.format) {
    case isa::Format::SMEM: case isa::Format::DS: case isa::Format::FLAT: case isa::Format::GLOBAL:
    case isa::Format::SCRATCH: case isa::Format::MUBUF: case isa::Format::MTBUF:
      return true;
    default:
      return false;
  }
}

bool is_lds_read(const Instruction& inst) {
  const uint32_t f = inst.op->flags;
  return inst.format == isa::Format::DS && (f & isa::kLoad) && !(f & (isa::kAtomic | isa::kCrossLane)) &&
         std::strncmp(inst.op->mnemonic, "ds_read", 7) == 0 && !mnemonic_is(inst, "ds_read_addtid_b32");
}

InstructionMark mark_of(const Instruction& inst, const Effect& e, Sources control) {
  InstructionMark m;
  m.pc = inst.pc;
  m.sources = e.result;
  m.writes_value = e.writes_value;
  m.value = classify(e.result);
  m.control = control;
  m.memory = is_memory(inst);
  m.address = e.address;
  m.never_skipped = never_skipped(inst, e);
  m.load = !m.never_skipped && (inst.op->flags & isa::kLoad);
  if (!m.never_skipped) m.darsie = m.value == ValueClass::Uniform ? Darsie::DR : m.value == ValueClass::Varying ? Darsie::V : Darsie::CR;
  m.lds_read = is_lds_read(inst);
  if (m.lds_read) {
    // Only the address decides a merge, not whether the section writes the
    // LDS: a wave writing an address that two waves read in one barrier
    // section would race with one of those reads, so in a race-free kernel no
    // wave writes it there, and one access gives both waves what two would.
    // This is what lets the reads of a double-buffered GEMM merge, whose
    // section also stores the next tile into the other buffer.
    m.read_sources = e.address;
    m.multicast_class = classify(m.read_sources);
    m.multicast_read = m.multicast_class != ValueClass::Varying;
    m.multicast_pair = !(m.read_sources & ~(kItemX | kItemY | kItemZ)) &&
                       (m.read_sources & kItemXHigh) != kItemXHigh;
  }
  return m;
}

KernelMarks unanalysed(const std::vector<Instruction>& code, const std::string& why) {
  KernelMarks k;
  k.unanalysed = why;
  for (const Instruction& inst : code) {
    InstructionMark m;
    m.pc = inst.pc;
    m.value = ValueClass::Varying;
    m.sources = kCall;
    m.never_skipped = "code not analysed";
    k.marks.push_back(m);
  }
  return k;
}

bool pow2_up_to_64(uint32_t x) { return x && (x & (x - 1)) == 0 && x <= 64; }

}  // namespace

ValueClass classify(Sources s) {
  if (s & ~kItemX) return ValueClass::Varying;
  if (s & kItemXHigh) return ValueClass::LaneX;
  if (s & kItemXLow) return ValueClass::LaneLow;
  return ValueClass::Uniform;
}

const InstructionMark* KernelMarks::at(uint64_t pc) const {
  auto it = std::lower_bound(marks.begin(), marks.end(), pc, [](const InstructionMark& m, uint64_t p) { return m.pc < p; });
  return it != marks.end() && it->pc == pc ? &*it : nullptr;
}

KernelMarks analyze(const std::vector<Instruction>& code, const isa::KernelDescriptor& kd) {
  std::string why = indexes_registers(code);
  Solver solver(code, kd);
  if (why.empty()) why = solver.cfg().error;
  if (!why.empty()) return unanalysed(code, why);
  const Solution s = solver.solve();
  KernelMarks k;
  k.marks.resize(code.size());
  for (size_t b = 0; b < solver.cfg().blocks.size(); ++b) {
    RegisterState st = s.in[b];
    solver.run_block(b, s.control[b], st, [&](size_t i, const Effect& e) {
      k.marks[i] = mark_of(code[i], e, s.control[b]);
      if (!s.in[b].reached) k.marks[i].never_skipped = "never reached", k.marks[i].darsie = Darsie::V;
    });
  }
  return k;
}

std::vector<Instruction> kernel_code(const isa::CodeObject& object, const isa::KernelInfo& kernel) {
  uint64_t end = object.text_address() + object.text().size();
  for (const isa::Function& f : object.functions())
    if (f.address > kernel.entry_address) end = std::min(end, f.address);
  std::vector<Instruction> code;
  for (uint64_t pc = kernel.entry_address; pc + 4 <= end;) {
    uint32_t words[3] = {0, 0, 0};
    const size_t avail = std::min<size_t>((end - pc) / 4, 3);
    std::memcpy(words, object.text().data() + (pc - object.text_address()), avail * 4);  // .text may be unaligned
    code.push_back(isa::decode(words, avail, pc));
    pc += code.back().size;
  }
  return code;
}

KernelMarks analyze_kernel(const isa::CodeObject& object, const isa::KernelInfo& kernel) {
  return analyze(kernel_code(object, kernel), kernel.descriptor);
}

bool cr_skippable(const WorkgroupShape& shape) { return shape.y > 1 && shape.z == 1 && pow2_up_to_64(shape.x); }

bool skippable(const InstructionMark& mark, const WorkgroupShape& shape) {
  return mark.darsie == Darsie::DR || (mark.darsie == Darsie::CR && cr_skippable(shape));
}

bool same_in_every_wave(ValueClass c, const WorkgroupShape& shape) {
  switch (c) {
    case ValueClass::Uniform: return true;
    case ValueClass::LaneLow: return pow2_up_to_64(shape.x) || shape.x % 64 == 0;
    case ValueClass::LaneX: return pow2_up_to_64(shape.x);
    default: return false;
  }
}

bool pair_in_shape(Sources read_sources, const WorkgroupShape& shape) {
  if (shape.x % 64) return false;
  for (unsigned b = 0; b < 4; ++b)
    if (!(read_sources & (kItemX6 << b)) && shape.x >= (128u << b)) return true;
  return false;
}

bool multicast(const InstructionMark& mark, const WorkgroupShape& shape) {
  return (mark.multicast_read && same_in_every_wave(mark.multicast_class, shape)) ||
         (mark.multicast_pair && pair_in_shape(mark.read_sources, shape));
}

const char* class_name(ValueClass c) {
  switch (c) {
    case ValueClass::Uniform: return "uniform";
    case ValueClass::LaneLow: return "lane-x-low";
    case ValueClass::LaneX: return "lane-x";
    default: return "varying";
  }
}

const char* darsie_name(Darsie d) { return d == Darsie::DR ? "DR" : d == Darsie::CR ? "CR" : "V"; }

}  // namespace tessera::analysis
