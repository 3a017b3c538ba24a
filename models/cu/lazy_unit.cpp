#include "models/cu/lazy_unit.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <unordered_set>

#include "models/cu/coalescer.h"
#include "models/cu/wave_slot.h"

namespace tessera {

namespace {

// The paper keeps 35 upper address bits per (wave, register) and the low 29
// (offset and low address) per lane.
constexpr unsigned kLowAddressBits = 29;

unsigned popcount(uint64_t v) { return static_cast<unsigned>(__builtin_popcountll(v)); }

// Whether scoreboard slot `slot` lies in one of `runs` (clipped as the wave's scoreboard clips them).
bool in_runs(const Scoreboard& board, const SlotRun* runs, unsigned n, unsigned slot) {
  for (unsigned k = 0; k < n; ++k) {
    unsigned first, end;
    board.bounds(runs[k], first, end);
    if (slot >= first && slot < end) return true;
  }
  return false;
}

}  // namespace

LazyStats::LazyStats(StatGroup& g)
    : deferred(g.counter("lazy_loads_deferred", "vector global loads recorded in busy bits instead of issued")),
      groups_issued(g.counter("lazy_groups_issued",
                              "times a reader (or an upper-address mismatch) made the lazy unit request lanes")),
      requests(g.counter("lazy_requests", "line requests the lazy unit sent")),
      lanes_eager(g.counter("lazy_lanes_eager",
                            "lanes requested at execute because their upper 35 address bits differ from the register's")),
      eliminated_overwrite(g.counter("lazy_eliminated_overwrite",
                                     "register-lanes of deferred loads overwritten before any request")),
      eliminated_end(g.counter("lazy_eliminated_end", "register-lanes of deferred loads dropped at the wave's end")),
      issued_lanes(g.counter("lazy_issued_lanes", "register-lanes of deferred loads requested")),
      suspended(g.counter("lazy_suspended_lanes",
                          "register-lanes of deferred loads a multiply/FMA/AND did not wait for: its partner was 0")),
      eliminated_zero_product(g.counter("lazy_eliminated_zero_product",
                                        "suspended register-lanes never requested (overwritten, or the wave ended)")) {}

bool LazyUnit::Record::empty() const {
  for (unsigned k = 0; k < regs; ++k)
    if (deferred[k]) return false;
  return true;
}

LazyUnit::LazyUnit(StatGroup& stats, unsigned waves, unsigned slots, ZeroQueryStats* zero, unsigned query_span)
    : st_(stats), zero_(zero), query_span_(query_span), slots_(slots), waves_(waves) {
  for (WaveState& s : waves_) {
    s.deferred.assign(slots, 0);
    s.inflight.assign(slots, 0);
    s.suspended.assign(slots, 0);
    s.querying.assign(slots, 0);
  }
}

bool LazyUnit::may_defer(const isa::Instruction& inst, const MemInst& m) {
  return inst.format == isa::Format::GLOBAL && !m.scalar && m.plan.kind == isa::MemKind::Load && !m.plan.lds_chunks &&
         m.plan.exec != 0;
}

void LazyUnit::set_slot(WaveState& s, unsigned slot, uint64_t deferred, uint64_t inflight) {
  const bool before = (s.deferred[slot] | s.inflight[slot]) != 0;
  s.deferred[slot] = deferred;
  s.inflight[slot] = inflight;
  const bool after = (deferred | inflight) != 0;
  if (before != after) s.owed_slots += after ? 1 : static_cast<unsigned>(-1);
}

void LazyUnit::prune(WaveState& s) {
  s.records.erase(std::remove_if(s.records.begin(), s.records.end(), [](const Record& r) { return r.empty(); }),
                  s.records.end());
}

void LazyUnit::record(WaveSlot& w, const MemInst& m, const InstInfo& info, int cu, uint64_t c, MemInstPool& insts,
                      RequestPool& pool, std::vector<MemRequest*>& out) {
  WaveState& s = waves_[w.index];
  unsigned first, end;
  w.board.bounds(info.write_runs[0], first, end);
  Record r;
  r.first = first;
  r.regs = std::min(end - first, kMaxRegs);
  r.chunks = m.plan.chunks;
  r.lane_stride = m.plan.lane_stride;
  r.glc = m.plan.glc;
  r.slc = m.plan.slc;
  r.op = m.op;
  // The register keeps the upper address bits of the lowest active lane;
  // lanes whose upper bits differ cannot be recorded and go out now.
  uint64_t differ = 0;
  bool have_upper = false;
  uint64_t upper = 0;
  for (const isa::MemChunk& ch : r.chunks) {
    const unsigned lo = ch.data_offset / r.lane_stride, hi = (ch.data_offset + ch.bytes - 1) / r.lane_stride;
    for (unsigned lane = lo; lane <= hi && lane < 64; ++lane) {
      const unsigned at = std::max<unsigned>(lane * r.lane_stride, ch.data_offset);
      const uint64_t u = (ch.addr + (at - ch.data_offset)) >> kLowAddressBits;
      if (!have_upper) upper = u, have_upper = true;
      if (u != upper) differ |= uint64_t{1} << lane;
    }
  }
  for (unsigned k = 0; k < r.regs; ++k) {
    // Which lanes' dwords are zero, for the zero queries' answer.
    for (uint64_t e = zero_ ? m.plan.exec : 0; e; e &= e - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(e));
      const unsigned at = lane * r.lane_stride + 4 * k;
      uint32_t v = 0;
      if (at + 4 <= m.plan.data.size()) std::memcpy(&v, m.plan.data.data() + at, 4);
      if (v == 0) r.zero[k] |= uint64_t{1} << lane;
    }
    r.deferred[k] = m.plan.exec;
    // With zero queries the lanes are deferred when the queries are answered.
    if (!zero_) set_slot(s, first + k, s.deferred[first + k] | m.plan.exec, s.inflight[first + k]);
  }
  ++st_.deferred;
  r.serial = ++s.next_serial;
  s.records.push_back(std::move(r));
  Record& rec = s.records.back();
  std::array<uint64_t, kMaxRegs> lanes{};
  if (zero_ && (m.plan.exec & ~differ)) {
    for (unsigned k = 0; k < rec.regs; ++k) lanes[k] = m.plan.exec & ~differ;
    query_at_execute(w, rec, lanes, cu, c, insts, pool, out);
  }
  if (differ) {
    st_.lanes_eager += popcount(differ);
    for (unsigned k = 0; k < rec.regs; ++k) lanes[k] = differ & m.plan.exec;
    request(w, rec, lanes, zero_ != nullptr, cu, c, insts, pool, out);
  }
  prune(s);
}

uint64_t LazyUnit::needed(const Excuse* ex, unsigned excuses, unsigned slot, uint64_t lanes) {
  for (unsigned k = 0; k < excuses; ++k)
    if (slot >= ex[k].first && slot < ex[k].end) lanes &= ~ex[k].lanes;
  return lanes;
}

LazyUnit::Owed LazyUnit::owes(const WaveSlot& w, const InstInfo& info, uint64_t lanes, const Excuse* ex,
                              unsigned excuses) const {
  const WaveState& s = waves_[w.index];
  if (!s.owed_slots) return Owed::Nothing;
  Owed owed = Owed::Nothing;
  for (unsigned k = 0; k < info.reads; ++k) {
    unsigned first, end;
    w.board.bounds(info.read_runs[k], first, end);
    for (unsigned slot = std::max(first, kVgprSlot); slot < end; ++slot) {
      const uint64_t need = needed(ex, excuses, slot, lanes);
      if (s.deferred[slot] & need) return Owed::Deferred;
      if (s.inflight[slot] & need) owed = Owed::InFlight;
    }
  }
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    w.board.bounds(info.write_runs[k], first, end);
    for (unsigned slot = std::max(first, kVgprSlot); slot < end; ++slot)
      if (s.inflight[slot] & lanes) owed = Owed::InFlight;
  }
  return owed;
}

LazyUnit::Owed LazyUnit::blocks(WaveSlot& w, const InstInfo& info, uint64_t lanes, bool trigger, int cu, uint64_t c,
                                MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out, const Excuse* ex,
                                unsigned excuses) {
  const Owed owed = owes(w, info, lanes, ex, excuses);
  if (!trigger) return owed;
  WaveState& s = waves_[w.index];
  // The excused lanes this instruction would otherwise have requested.
  for (unsigned k = 0; k < excuses; ++k)
    for (unsigned slot = ex[k].first; slot < ex[k].end && slot < slots_; ++slot) {
      const uint64_t spared = s.deferred[slot] & lanes & ex[k].lanes & ~s.suspended[slot];
      s.suspended[slot] |= spared;
      st_.suspended += popcount(spared);
    }
  if (owed != Owed::Deferred) return owed;
  bool any = false;
  for (Record& r : s.records) {
    if (r.querying) continue;  // its lanes are in flight: the reader waits for the answers
    std::array<uint64_t, kMaxRegs> want{};
    bool wanted = false;
    for (unsigned k = 0; k < r.regs; ++k) {
      const uint64_t need = r.deferred[k] & needed(ex, excuses, r.first + k, lanes);
      if (!need || !in_runs(w.board, info.read_runs, info.reads, r.first + k)) continue;
      want[k] = need;
      wanted = true;
    }
    if (!wanted) continue;
    if (whole_loads_) {
      uint64_t read = 0;
      for (unsigned k = 0; k < r.regs; ++k) read |= want[k];
      for (unsigned k = 0; k < r.regs; ++k)
        if (!want[k]) want[k] = r.deferred[k] & read & ~s.suspended[r.first + k];
    }
    request(w, r, want, false, cu, c, insts, pool, out);
    any = true;
  }
  if (any) prune(s);
  return Owed::InFlight;
}

MemInst& LazyUnit::make_group(WaveSlot& w, const Record& r, const std::array<uint64_t, kMaxRegs>& lanes, uint64_t c,
                               MemInstPool& insts) {
  MemInst& g = *insts.get();
  g.plan.clear();
  g.plan.kind = isa::MemKind::Load;
  g.plan.glc = r.glc;
  g.plan.slc = r.slc;
  g.plan.lane_stride = r.lane_stride;
  g.op = r.op;
  g.wave = &w;
  g.issued = c;
  g.pending = 0;
  g.error = false;
  g.scalar = g.counts_vm = g.counts_lgkm = false;
  g.lazy = true;
  g.lazy_first = r.first;
  g.lazy_regs = r.regs;
  g.lazy_record = 0;
  g.queries = 0;
  for (unsigned k = 0; k < kMaxRegs; ++k) {
    g.lazy_lanes[k] = k < r.regs ? lanes[k] : 0;
    g.lazy_zero[k] = k < r.regs ? lanes[k] & r.zero[k] : 0;
    g.plan.exec |= g.lazy_lanes[k];
  }
  const unsigned stride = r.lane_stride;
  for (const isa::MemChunk& ch : r.chunks) {
    unsigned pos = ch.data_offset;
    const unsigned end = ch.data_offset + ch.bytes;
    while (pos < end) {  // one lane's dword at a time
      const unsigned lane = pos / stride, in_lane = pos % stride, reg = in_lane / 4;
      const unsigned stop = std::min({end, lane * stride + stride, lane * stride + (reg + 1) * 4});
      if (reg < kMaxRegs && lane < 64 && (g.lazy_lanes[reg] >> lane & 1))
        g.plan.add(isa::MemSpace::Global, ch.addr + (pos - ch.data_offset), stop - pos, lane, pos);
      pos = stop;
    }
  }
  return g;
}

// Makes the requests for `lanes` (per register) of record `r`: a plan of
// just those lanes' dwords, coalesced into line requests whose responses
// only time them (the value is in the registers already).
void LazyUnit::request(WaveSlot& w, Record& r, const std::array<uint64_t, kMaxRegs>& lanes, bool query_first, int cu,
                       uint64_t c, MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out) {
  WaveState& s = waves_[w.index];
  MemInst& g = make_group(w, r, lanes, c, insts);
  unsigned requested = 0;
  for (unsigned k = 0; k < r.regs; ++k) requested += popcount(lanes[k]);
  g.zero_phase = query_first;
  const size_t before = out.size();
  if (query_first) {
    make_zero_queries(g, cu, static_cast<int>(w.index), query_span_, pool, out);
    g.queries = static_cast<unsigned>(out.size() - before);
    zero_->queries += g.queries;
  } else {
    Coalescer::coalesce(g, AccessKind::Load, cu, static_cast<int>(w.index), pool, out);
    for (size_t i = before; i < out.size(); ++i) out[i]->value_read = true;
  }
  g.pending = static_cast<unsigned>(out.size() - before);
  for (unsigned k = 0; k < r.regs; ++k) {
    const unsigned slot = r.first + k;
    r.deferred[k] &= ~lanes[k];
    s.suspended[slot] &= ~lanes[k];
    set_slot(s, slot, s.deferred[slot] & ~lanes[k], s.inflight[slot] | (g.pending ? lanes[k] : 0));
  }
  ++st_.groups_issued;
  if (!query_first) st_.requests += g.pending;
  st_.issued_lanes += requested;
  if (!g.pending) {  // nothing reaches memory (cannot happen for a global load with lanes): nothing to wait for
    insts.put(&g);
    return;
  }
  ++w.lazy_out;
}

// The queries go out now; the lanes are in flight (readers wait for the
// answers) and the record keeps only its non-zero lanes, deferred when the
// answers are back (answered_at_execute).
void LazyUnit::query_at_execute(WaveSlot& w, Record& r, const std::array<uint64_t, kMaxRegs>& lanes, int cu,
                                uint64_t c, MemInstPool& insts, RequestPool& pool, std::vector<MemRequest*>& out) {
  WaveState& s = waves_[w.index];
  MemInst& g = make_group(w, r, lanes, c, insts);
  g.zero_phase = true;
  g.lazy_record = r.serial;
  const size_t before = out.size();
  make_zero_queries(g, cu, static_cast<int>(w.index), query_span_, pool, out);
  g.queries = g.pending = static_cast<unsigned>(out.size() - before);
  zero_->queries += g.queries;
  r.querying = true;
  for (unsigned k = 0; k < r.regs; ++k) {
    const unsigned slot = r.first + k;
    r.deferred[k] &= ~(lanes[k] & r.zero[k]);
    s.querying[slot] |= lanes[k];
    set_slot(s, slot, s.deferred[slot], s.inflight[slot] | lanes[k]);
  }
  ++w.lazy_out;
}

// The plan has one chunk per lane's dword (request()): keep the non-zero ones.
void LazyUnit::drop_zero_chunks(MemInst& g) {
  const unsigned stride = g.plan.lane_stride;
  auto zero = [&](const isa::MemChunk& ch) {
    const unsigned lane = ch.data_offset / stride, reg = ch.data_offset % stride / 4;
    return reg < kMaxRegs && (g.lazy_zero[reg] >> lane & 1);
  };
  auto& chunks = g.plan.chunks;
  chunks.erase(std::remove_if(chunks.begin(), chunks.end(), zero), chunks.end());
}

void LazyUnit::answered_at_execute(MemInst& g, unsigned line_bytes) {
  WaveState& s = waves_[g.wave->index];
  g.zero_phase = false;
  g.pending = 0;
  for (unsigned k = 0; k < kMaxRegs; ++k) zero_->lanes_zero += popcount(g.lazy_zero[k]);
  const unsigned all_lines = lines_touched(g.plan, line_bytes);
  drop_zero_chunks(g);
  zero_->requests_saved += all_lines - lines_touched(g.plan, line_bytes);
  const auto it = std::find_if(s.records.begin(), s.records.end(),
                               [&](const Record& r) { return r.serial == g.lazy_record; });
  if (it == s.records.end()) return;  // all its lanes were zero, or the wave ended
  it->querying = false;
  for (unsigned k = 0; k < it->regs; ++k) {
    const unsigned slot = it->first + k;
    set_slot(s, slot, s.deferred[slot] | (it->deferred[k] & g.lazy_lanes[k]), s.inflight[slot]);
  }
}

void LazyUnit::zero_answered(MemInst& g, int cu, RequestPool& pool, std::vector<MemRequest*>& out) {
  if (g.lazy_record) {
    answered_at_execute(g, pool.line_bytes());
    return;
  }
  g.zero_phase = false;
  drop_zero_chunks(g);
  auto& chunks = g.plan.chunks;
  for (unsigned k = 0; k < kMaxRegs; ++k) zero_->lanes_zero += popcount(g.lazy_zero[k]);
  const size_t before = out.size();
  if (!chunks.empty()) Coalescer::coalesce(g, AccessKind::Load, cu, static_cast<int>(g.wave->index), pool, out);
  for (size_t i = before; i < out.size(); ++i) out[i]->value_read = true;
  g.pending = static_cast<unsigned>(out.size() - before);
  st_.requests += g.pending;
  zero_->requests_saved += g.queries - std::min(g.queries, g.pending);
}

void LazyUnit::overwritten(const WaveSlot& w, const InstInfo& info, uint64_t lanes) {
  WaveState& s = waves_[w.index];
  if (!s.owed_slots) return;
  bool changed = false;
  for (unsigned k = 0; k < info.writes; ++k) {
    unsigned first, end;
    w.board.bounds(info.write_runs[k], first, end);
    for (unsigned slot = std::max(first, kVgprSlot); slot < end; ++slot) {
      const uint64_t dead = s.deferred[slot] & lanes;
      if (!dead) continue;
      count_dead(s, slot, dead, st_.eliminated_overwrite);
      set_slot(s, slot, s.deferred[slot] & ~dead, s.inflight[slot]);
      for (Record& r : s.records)
        if (slot >= r.first && slot < r.first + r.regs) r.deferred[slot - r.first] &= ~dead;
      changed = true;
    }
  }
  if (changed) prune(s);
}

// Lanes a ⊗ instruction did without count as its eliminations; the others
// as the overwrite's or the end's.
void LazyUnit::count_dead(WaveState& s, unsigned slot, uint64_t dead, Counter& otherwise) {
  const uint64_t by_product = dead & s.suspended[slot];
  st_.eliminated_zero_product += popcount(by_product);
  otherwise += popcount(dead & ~by_product);
  s.suspended[slot] &= ~dead;
}

bool LazyUnit::is_zero_product(const isa::Instruction& inst) {
  static const std::unordered_set<std::string_view> names = {
      "v_mul_f32",       "v_mul_f16",        "v_mul_f64",       "v_mul_legacy_f32", "v_mul_u32_u24",
      "v_mul_i32_i24",   "v_mul_hi_u32_u24", "v_mul_hi_i32_i24", "v_mul_lo_u32",    "v_mul_hi_u32",
      "v_mul_hi_i32",    "v_mul_lo_u16",     "v_fma_f32",       "v_fma_f64",        "v_fma_f16",
      "v_fmac_f32",      "v_fmac_f64",       "v_mac_f32",       "v_mac_f16",        "v_mad_f32",
      "v_mad_legacy_f32", "v_mad_u32_u24",   "v_mad_i32_i24",   "v_mad_u64_u32",    "v_mad_i64_i32",
      "v_mad_f16",       "v_mad_u16",        "v_mad_i16",       "v_pk_fma_f32",     "v_pk_mul_f32",
      "v_pk_fma_f16",    "v_pk_mul_f16",     "v_pk_mul_lo_u16", "v_and_b32"};
  if (!inst.op || inst.ext == isa::ExtKind::Dpp || (inst.op->flags & isa::kLiteralK)) return false;
  return names.count(inst.mnemonic()) != 0;
}

unsigned LazyUnit::zero_partners(const WaveSlot& w, const isa::Instruction& inst, uint64_t lanes, Excuse out[2]) const {
  const WaveState& s = waves_[w.index];
  const isa::Wave& wave = *w.wave;
  // The slots an operand covers, or an empty range for a constant or an SGPR.
  auto slots_of = [&](const isa::Operand& o, unsigned& first, unsigned& end) {
    first = end = 0;
    if (o.kind != isa::OperandKind::Vgpr && o.kind != isa::OperandKind::Agpr) return;
    w.board.bounds(SlotRun{static_cast<uint16_t>(kVgprSlot + o.reg), o.dwords, o.kind == isa::OperandKind::Agpr},
                   first, end);
  };
  // The lanes (of `lanes`) where operand `o` is known to be 0.
  auto zero_lanes = [&](const isa::Operand& o) -> uint64_t {
    switch (o.kind) {
      case isa::OperandKind::Constant: return o.value == 0 ? lanes : 0;
      case isa::OperandKind::Scalar:
        for (unsigned d = 0; d < std::max<unsigned>(o.dwords, 1); ++d)
          if (wave.s(static_cast<uint16_t>(o.reg + d))) return 0;
        return lanes;
      case isa::OperandKind::Vgpr:
      case isa::OperandKind::Agpr: {
        unsigned first, end;
        slots_of(o, first, end);
        uint64_t known = lanes;
        for (unsigned slot = first; slot < end; ++slot) known &= ~(s.deferred[slot] | s.inflight[slot]);
        uint64_t zero = 0;
        for (uint64_t m = known; m; m &= m - 1) {
          const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
          bool all = true;
          for (unsigned d = 0; d < o.dwords && all; ++d) {
            const uint32_t* v = o.kind == isa::OperandKind::Vgpr ? wave.v(o.reg + d) : wave.a(o.reg + d);
            all = v[lane] == 0;
          }
          if (all) zero |= uint64_t{1} << lane;
        }
        return zero;
      }
      default: return 0;
    }
  };
  unsigned n = 0;
  if (inst.num_src < 2) return 0;
  for (unsigned i = 0; i < 2; ++i) {
    Excuse e;
    slots_of(inst.src[i], e.first, e.end);
    if (e.first == e.end) continue;
    e.lanes = zero_lanes(inst.src[1 - i]);
    if (e.lanes) out[n++] = e;
  }
  return n;
}

void LazyUnit::returned(const MemInst& m) {
  WaveState& s = waves_[m.wave->index];
  for (unsigned k = 0; k < m.lazy_regs; ++k) {
    const unsigned slot = m.lazy_first + k;
    s.querying[slot] &= ~m.lazy_lanes[k];
    set_slot(s, slot, s.deferred[slot], s.inflight[slot] & ~m.lazy_lanes[k]);
  }
}

bool LazyUnit::querying(const WaveSlot& w, const InstInfo& info, uint64_t lanes) const {
  const WaveState& s = waves_[w.index];
  if (!s.owed_slots) return false;
  for (unsigned k = 0; k < info.reads; ++k) {
    unsigned first, end;
    w.board.bounds(info.read_runs[k], first, end);
    for (unsigned slot = std::max(first, kVgprSlot); slot < end; ++slot)
      if (s.querying[slot] & lanes) return true;
  }
  return false;
}

void LazyUnit::drop(const WaveSlot& w) {
  WaveState& s = waves_[w.index];
  for (const Record& r : s.records)
    for (unsigned k = 0; k < r.regs; ++k) {
      const unsigned slot = r.first + k;
      count_dead(s, slot, r.deferred[k], st_.eliminated_end);
      set_slot(s, slot, 0, s.inflight[slot]);
    }
  s.records.clear();
}

}  // namespace tessera
