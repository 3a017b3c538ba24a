#include "models/cu/coalescer.h"

#include <algorithm>
#include <cstring>

namespace tessera {

namespace {

// Per request while coalescing: its line and the span its pieces touch.
struct Open {
  MemRequest* req;
  uint64_t line;
  unsigned lo, hi;
};

MemRequest* find_or_open(std::vector<Open>& open, uint64_t line, RequestPool& pool, std::vector<MemRequest*>& out) {
  // Coalesced patterns touch the line of the previous chunk: look there first.
  if (!open.empty() && open.back().line == line) return open.back().req;
  for (Open& o : open)
    if (o.line == line) return o.req;
  MemRequest* r = pool.get();
  open.push_back(Open{r, line, ~0u, 0});
  out.push_back(r);
  return r;
}

Open& entry(std::vector<Open>& open, const MemRequest* r) {
  if (open.back().req == r) return open.back();
  for (Open& o : open)
    if (o.req == r) return o;
  return open.back();  // unreachable: every request was opened here
}

void finish(Open& o, const isa::MemPlan& plan, AccessKind kind) {
  MemRequest& r = *o.req;
  tlm::tlm_generic_payload& t = r.trans;
  t.set_address(o.line + o.lo);
  t.set_data_ptr(r.data.data() + o.lo);
  t.set_data_length(o.hi - o.lo);
  t.set_streaming_width(o.hi - o.lo);
  t.set_command(kind == AccessKind::Load || kind == AccessKind::ScalarLoad ? tlm::TLM_READ_COMMAND
                                                                            : tlm::TLM_WRITE_COMMAND);
  GpuAccess& a = *r.access;
  a.kind = kind;
  a.glc = plan.glc;
  a.slc = plan.slc;
  if (kind == AccessKind::Atomic) {
    a.op = plan.op;
    a.elem = plan.elem;
    for (AtomicLane& l : a.lanes) l.offset -= o.lo;
    return;
  }
  if (kind != AccessKind::Store) return;
  // Byte enables only when the pieces leave holes in the span.
  bool full = true;
  for (unsigned i = o.lo; i < o.hi && full; ++i) full = r.enables[i] != 0;
  if (!full) {
    t.set_byte_enable_ptr(r.enables.data() + o.lo);
    t.set_byte_enable_length(o.hi - o.lo);
  }
}

}  // namespace

void Coalescer::coalesce(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                         std::vector<MemRequest*>& out) {
  static thread_local std::vector<Open> open;
  open.clear();
  const unsigned line_bytes = pool.line_bytes();
  const isa::MemPlan& plan = inst.plan;
  for (size_t ci = 0; ci < plan.chunks.size(); ++ci) {
    const isa::MemChunk& c = plan.chunks[ci];
    if (c.space != isa::MemSpace::Global) continue;
    uint64_t addr = c.addr;
    unsigned data_offset = c.data_offset, left = c.bytes;
    while (left) {
      const uint64_t line = addr & ~uint64_t(line_bytes - 1);
      const unsigned off = static_cast<unsigned>(addr - line);
      const unsigned n = std::min(left, line_bytes - off);
      MemRequest* r = find_or_open(open, line, pool, out);
      if (r->pieces.empty()) {
        r->inst = &inst;
        r->access->cu = cu;
        r->access->wave = wave;
        if (kind == AccessKind::Store) std::fill(r->enables.begin(), r->enables.end(), 0);
      }
      Open& o = entry(open, r);
      o.lo = std::min(o.lo, off);
      o.hi = std::max(o.hi, off + n);
      r->pieces.push_back(Piece{static_cast<uint16_t>(off), static_cast<uint16_t>(data_offset), static_cast<uint8_t>(n)});
      if (kind == AccessKind::Store) {
        std::memcpy(r->data.data() + off, plan.data.data() + data_offset, n);
        std::fill(r->enables.begin() + off, r->enables.begin() + off + n, uint8_t(TLM_BYTE_ENABLED));
      } else if (kind == AccessKind::Atomic) {
        AtomicLane l;
        l.offset = off;  // made relative to the request's address in finish()
        std::memcpy(&l.src, plan.data.data() + data_offset, std::min<unsigned>(n, 8));
        l.cmp = ci < plan.atomic_cmp.size() ? plan.atomic_cmp[ci] : 0;
        r->access->lanes.push_back(l);
      }
      addr += n;
      data_offset += n;
      left -= n;
    }
  }
  for (Open& o : open) finish(o, plan, kind);
}

void Coalescer::scatter(const MemRequest& req, isa::MemPlan& plan) {
  const GpuAccess& a = *req.access;
  if (a.kind == AccessKind::Atomic) {
    for (size_t i = 0; i < req.pieces.size() && i < a.lanes.size(); ++i)
      std::memcpy(plan.data.data() + req.pieces[i].data_offset, &a.lanes[i].old, req.pieces[i].bytes);
    return;
  }
  if (a.kind != AccessKind::Load && a.kind != AccessKind::ScalarLoad) return;
  for (const Piece& p : req.pieces) std::memcpy(plan.data.data() + p.data_offset, req.data.data() + p.line_offset, p.bytes);
}

}  // namespace tessera
