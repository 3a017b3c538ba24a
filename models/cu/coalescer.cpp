#include "models/cu/coalescer.h"

#include <algorithm>
#include <cstring>

#include "common/flat_map.h"

namespace tessera {

namespace {

// Calls piece(line, offset in the line, offset in the plan's data, bytes) for
// each part of `c` that lies within one line, in address order.
template <class F>
void split_by_line(const isa::MemChunk& c, unsigned line_bytes, F piece) {
  uint64_t addr = c.addr;
  unsigned data_offset = c.data_offset, left = c.bytes;
  while (left) {
    const uint64_t line = addr & ~uint64_t(line_bytes - 1);
    const unsigned off = static_cast<unsigned>(addr - line);
    const unsigned n = std::min(left, line_bytes - off);
    piece(line, off, data_offset, n);
    addr += n;
    data_offset += n;
    left -= n;
  }
}

// Per request while coalescing: its line and the span its pieces touch.
// `packed`: each piece started where the span so far ended, so the pieces
// cover [lo, hi) exactly (only the ascending path tracks it).
struct Open {
  MemRequest* req;
  uint64_t line;
  unsigned lo, hi;
  bool packed;
};

// The position in `open` of the request for `line`, opened (and appended to
// `out`) if there is none. `hint` is the position found last: coalesced
// patterns touch that line again, and strided ones that come back over their
// lines (a second column of lanes after a first) the one after it, so both
// are looked at before `index`, which finds the others (a gather's lanes
// touch dozens of lines in no order).
size_t find_or_open(std::vector<Open>& open, FlatMap<uint64_t, uint32_t>& index, uint64_t line, size_t& hint,
                    RequestPool& pool, std::vector<MemRequest*>& out) {
  if (hint < open.size() && open[hint].line == line) return hint;
  if (hint + 1 < open.size() && open[hint + 1].line == line) return ++hint;
  if (const auto it = index.find(line); it != index.end()) return hint = it->second;
  MemRequest* r = pool.get();
  index[line] = static_cast<uint32_t>(open.size());
  open.push_back(Open{r, line, ~0u, 0, false});
  out.push_back(r);
  return hint = open.size() - 1;
}

void finish(Open& o, const isa::MemPlan& plan, AccessKind kind) {
  MemRequest& r = *o.req;
  tlm::tlm_generic_payload& t = r;
  t.set_address(o.line + o.lo);
  t.set_data_ptr(r.data.data() + o.lo);
  t.set_data_length(o.hi - o.lo);
  t.set_streaming_width(o.hi - o.lo);
  t.set_command(kind == AccessKind::Load || kind == AccessKind::ScalarLoad || kind == AccessKind::ZeroMask
                    ? tlm::TLM_READ_COMMAND
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
  bool full = o.packed;
  if (!full) {
    full = true;
    for (unsigned i = o.lo; i < o.hi && full; ++i) full = r.enables[i] != 0;
  }
  if (!full) {
    t.set_byte_enable_ptr(r.enables.data() + o.lo);
    t.set_byte_enable_length(o.hi - o.lo);
  }
}

// True when no piece of `plan`'s Global chunks lies in a lower line than the
// piece before it: every line is then one run of pieces, opened after the
// lines before it, and needs no search among the open requests.
bool lines_ascend(const isa::MemPlan& plan, unsigned line_bytes) {
  const uint64_t mask = ~uint64_t(line_bytes - 1);
  uint64_t last_line = 0;  // of the previous chunk's last byte
  for (const isa::MemChunk& c : plan.chunks) {
    if (c.space != isa::MemSpace::Global) continue;
    const uint64_t end = c.addr + c.bytes - 1;
    // Empty chunks (no piece, yet they would pass the fast path's in-line
    // test) and chunks that wrap around go the general way.
    if (c.bytes == 0 || end < c.addr || (c.addr & mask) < last_line) return false;
    last_line = end & mask;
  }
  return true;
}

// What a request needs before its first piece: its instruction, requester
// and, for a store, byte enables cleared (pieces enable theirs).
void set_up(MemRequest& r, MemInst& inst, AccessKind kind, int cu, int wave) {
  r.inst = &inst;
  r.access->cu = cu;
  r.access->wave = wave;
  if (kind == AccessKind::Store) std::fill(r.enables.begin(), r.enables.end(), 0);
}

MemRequest* open_request(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                         std::vector<MemRequest*>& out) {
  MemRequest* r = pool.get();
  out.push_back(r);
  set_up(*r, inst, kind, cu, wave);
  return r;
}

// A store's byte enables, set once per request rather than once per piece.
void enable_pieces(const Open& o) {
  std::vector<uint8_t>& e = o.req->enables;
  if (o.packed) {
    std::fill(e.begin() + o.lo, e.begin() + o.hi, uint8_t(TLM_BYTE_ENABLED));
    return;
  }
  for (const Piece& p : o.req->pieces)
    std::fill(e.begin() + p.line_offset, e.begin() + p.line_offset + p.bytes, uint8_t(TLM_BYTE_ENABLED));
}

void close_request(Open& o, const isa::MemPlan& plan, AccessKind kind) {
  if (kind == AccessKind::Store) enable_pieces(o);
  finish(o, plan, kind);
}

// Copies a piece; the common lane sizes and a 64-byte line of a packed plan
// as fixed-size copies, which compile to plain moves instead of a library call.
void copy_piece(uint8_t* dst, const uint8_t* src, unsigned n) {
  switch (n) {
    case 4: std::memcpy(dst, src, 4); break;
    case 8: std::memcpy(dst, src, 8); break;
    case 64: std::memcpy(dst, src, 64); break;
    default: std::memcpy(dst, src, n); break;
  }
}

// The fast path for plans whose lines ascend (unit stride, strided, uniform
// and sorted accesses): the same requests as the general path, in the same
// order, with the current request the only one open. Its span lives in
// locals, not in an Open, so that it stays in registers.
void coalesce_ascending(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                        std::vector<MemRequest*>& out) {
  const unsigned line_bytes = pool.line_bytes();
  const isa::MemPlan& plan = inst.plan;
  const bool store = kind == AccessKind::Store;
  MemRequest* req = nullptr;
  uint64_t line = 0;
  unsigned lo = 0, hi = 0;
  bool packed = true;
  auto close = [&] {
    Open o{req, line, lo, hi, packed};
    close_request(o, plan, kind);
  };
  // Field by field into the vector's slot: a Piece built on the stack and
  // copied in costs a store-forwarding stall.
  auto add_piece = [&](unsigned off, unsigned data_offset, unsigned n) {
    packed = packed && off == hi;
    lo = std::min(lo, off);
    hi = std::max(hi, off + n);
    Piece& p = req->pieces.emplace_back();
    p.line_offset = static_cast<uint16_t>(off);
    p.data_offset = static_cast<uint16_t>(data_offset);
    p.bytes = static_cast<uint16_t>(n);
    if (store) copy_piece(req->data.data() + off, plan.data.data() + data_offset, n);
  };
  for (const isa::MemChunk& c : plan.chunks) {
    if (c.space != isa::MemSpace::Global) continue;
    // Most chunks lie inside the current line (ascending: never below it).
    const uint64_t in_line = c.addr - line;
    if (req && in_line + c.bytes <= line_bytes) {
      add_piece(static_cast<unsigned>(in_line), c.data_offset, c.bytes);
      continue;
    }
    split_by_line(c, line_bytes, [&](uint64_t l, unsigned off, unsigned data_offset, unsigned n) {
      if (!req || line != l) {
        if (req) close();
        req = open_request(inst, kind, cu, wave, pool, out);
        line = l;
        lo = hi = off;
        packed = true;
      }
      add_piece(off, data_offset, n);
    });
  }
  if (req) close();
}

}  // namespace

bool Coalescer::takes_fast_path(const isa::MemPlan& plan, AccessKind kind, unsigned line_bytes) {
  // Atomics are rare and carry per-lane operands: the general path serves them.
  return kind != AccessKind::Atomic && lines_ascend(plan, line_bytes);
}

void Coalescer::coalesce(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                         std::vector<MemRequest*>& out) {
  if (takes_fast_path(inst.plan, kind, pool.line_bytes()))
    coalesce_ascending(inst, kind, cu, wave, pool, out);
  else
    coalesce_general(inst, kind, cu, wave, pool, out);
}

void Coalescer::coalesce_general(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                                 std::vector<MemRequest*>& out) {
  static thread_local std::vector<Open> open;
  static thread_local FlatMap<uint64_t, uint32_t> index;  // positions in `open` by line
  open.clear();
  index.clear();
  size_t hint = 0;
  const unsigned line_bytes = pool.line_bytes();
  const isa::MemPlan& plan = inst.plan;
  for (size_t ci = 0; ci < plan.chunks.size(); ++ci) {
    const isa::MemChunk& c = plan.chunks[ci];
    if (c.space != isa::MemSpace::Global) continue;
    split_by_line(c, line_bytes, [&](uint64_t line, unsigned off, unsigned data_offset, unsigned n) {
      Open& o = open[find_or_open(open, index, line, hint, pool, out)];
      MemRequest* r = o.req;
      if (r->pieces.empty()) set_up(*r, inst, kind, cu, wave);
      o.lo = std::min(o.lo, off);
      o.hi = std::max(o.hi, off + n);
      r->pieces.push_back(Piece{static_cast<uint16_t>(off), static_cast<uint16_t>(data_offset), static_cast<uint16_t>(n)});
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
    });
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
  for (const Piece& p : req.pieces) copy_piece(plan.data.data() + p.data_offset, req.data.data() + p.line_offset, p.bytes);
}

}  // namespace tessera
