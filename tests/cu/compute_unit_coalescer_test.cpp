// The compute unit's address coalescer on hand-made plans: one request per
// distinct line in first-touch order, chunks split at line boundaries,
// spans, byte enables for stores with holes, atomics as GpuAccess lanes.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "models/cu/coalescer.h"

using namespace tessera;

namespace {

void add_chunk(isa::MemPlan& plan, uint64_t addr, unsigned bytes, unsigned lane, unsigned data_offset,
               isa::MemSpace space = isa::MemSpace::Global) {
  isa::MemChunk c{};
  c.addr = addr;
  c.bytes = static_cast<uint8_t>(bytes);
  c.lane = static_cast<uint8_t>(lane);
  c.data_offset = static_cast<uint16_t>(data_offset);
  c.space = space;
  plan.chunks.push_back(c);
}

std::vector<MemRequest*> coalesce(MemInst& m, AccessKind kind, RequestPool& pool) {
  std::vector<MemRequest*> out;
  Coalescer::coalesce(m, kind, 3, 7, pool, out);
  return out;
}

}  // namespace

TEST_CASE("compute unit coalescer: 64 consecutive dwords make 4 whole-line reads", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  for (unsigned l = 0; l < 64; ++l) add_chunk(m.plan, 0x1000 + 4 * l, 4, l, 4 * l);
  const auto reqs = coalesce(m, AccessKind::Load, pool);
  REQUIRE(reqs.size() == 4);
  for (unsigned i = 0; i < 4; ++i) {
    CHECK(reqs[i]->get_address() == 0x1000 + 64 * i);
    CHECK(reqs[i]->get_data_length() == 64);
    CHECK(reqs[i]->is_read());
    CHECK(reqs[i]->pieces.size() == 16);
    CHECK(reqs[i]->access->cu == 3);
    CHECK(reqs[i]->access->wave == 7);
  }
  // The response's bytes land at each lane's data offset.
  for (unsigned i = 0; i < 4; ++i)
    for (unsigned b = 0; b < 64; ++b) reqs[i]->data[b] = static_cast<uint8_t>(i * 64 + b);
  for (MemRequest* r : reqs) Coalescer::scatter(*r, m.plan);
  for (unsigned b = 0; b < 256; ++b) CHECK(m.plan.data[b] == static_cast<uint8_t>(b));
}

TEST_CASE("compute unit coalescer: a chunk across a line boundary is split and lines keep first-touch order", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  add_chunk(m.plan, 0x2078, 16, 0, 0);   // 0x2078..0x2087: 8 bytes in line 0x2040, 8 in 0x2080
  add_chunk(m.plan, 0x2000, 4, 1, 16);   // line 0x2000
  add_chunk(m.plan, 0x2084, 4, 2, 20);   // line 0x2080 again
  add_chunk(m.plan, 0x1000, 4, 3, 24, isa::MemSpace::Lds);  // the CU's own LDS: not sent
  const auto reqs = coalesce(m, AccessKind::Load, pool);
  REQUIRE(reqs.size() == 3);
  CHECK(reqs[0]->get_address() == 0x2078);
  CHECK(reqs[0]->get_data_length() == 8);
  CHECK(reqs[1]->get_address() == 0x2080);
  CHECK(reqs[1]->get_data_length() == 8);  // 0x2080..0x2087, both lanes' bytes
  CHECK(reqs[1]->pieces.size() == 2);
  CHECK(reqs[2]->get_address() == 0x2000);
  CHECK(reqs[2]->get_data_length() == 4);
}

TEST_CASE("compute unit coalescer: a store with holes carries byte enables and later lanes win", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  m.plan.kind = isa::MemKind::Store;
  add_chunk(m.plan, 0x3000, 4, 0, 0);
  add_chunk(m.plan, 0x3008, 4, 1, 4);  // a hole at 0x3004..0x3007
  add_chunk(m.plan, 0x3000, 4, 2, 8);  // lane 2 overwrites lane 0's bytes
  const uint32_t v[3] = {0x11111111, 0x22222222, 0x33333333};
  std::memcpy(m.plan.data.data(), v, sizeof v);
  const auto reqs = coalesce(m, AccessKind::Store, pool);
  REQUIRE(reqs.size() == 1);
  const tlm::tlm_generic_payload& t = *reqs[0];
  CHECK(t.is_write());
  CHECK(t.get_address() == 0x3000);
  REQUIRE(t.get_data_length() == 12);
  REQUIRE(t.get_byte_enable_ptr() != nullptr);
  CHECK(t.get_byte_enable_length() == 12);
  uint32_t words[3];
  std::memcpy(words, t.get_data_ptr(), 12);
  CHECK(words[0] == 0x33333333);
  CHECK(words[2] == 0x22222222);
  for (unsigned b = 0; b < 12; ++b) CHECK(t.get_byte_enable_ptr()[b] == (b >= 4 && b < 8 ? 0 : TLM_BYTE_ENABLED));
  // A store that covers its span needs no byte enables.
  MemInst full;
  full.plan.kind = isa::MemKind::Store;
  for (unsigned l = 0; l < 16; ++l) add_chunk(full.plan, 0x4000 + 4 * l, 4, l, 4 * l);
  const auto whole = coalesce(full, AccessKind::Store, pool);
  REQUIRE(whole.size() == 1);
  CHECK(whole[0]->get_byte_enable_ptr() == nullptr);
}

TEST_CASE("compute unit coalescer: atomics become GpuAccess lanes with offsets from the request", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  m.plan.kind = isa::MemKind::Atomic;
  m.plan.op = isa::mem::Rmw::CmpSwap;
  m.plan.elem = isa::mem::Elem::U32;
  add_chunk(m.plan, 0x5010, 4, 0, 0);
  add_chunk(m.plan, 0x5010, 4, 1, 4);  // the same word: both lanes, in order
  add_chunk(m.plan, 0x5020, 4, 2, 8);
  m.plan.atomic_cmp = {100, 101, 102};
  const uint32_t src[3] = {7, 8, 9};
  std::memcpy(m.plan.data.data(), src, sizeof src);
  const auto reqs = coalesce(m, AccessKind::Atomic, pool);
  REQUIRE(reqs.size() == 1);
  const GpuAccess& a = *reqs[0]->access;
  CHECK(a.kind == AccessKind::Atomic);
  CHECK(a.op == isa::mem::Rmw::CmpSwap);
  CHECK(reqs[0]->get_address() == 0x5010);
  REQUIRE(a.lanes.size() == 3);
  CHECK(a.lanes[0].offset == 0);
  CHECK(a.lanes[1].offset == 0);
  CHECK(a.lanes[2].offset == 0x10);
  CHECK(a.lanes[1].src == 8);
  CHECK(a.lanes[2].cmp == 102);
  // The owner's old values go back to each lane's data offset.
  reqs[0]->access->lanes[0].old = 40;
  reqs[0]->access->lanes[1].old = 8;
  reqs[0]->access->lanes[2].old = 41;
  Coalescer::scatter(*reqs[0], m.plan);
  uint32_t old[3];
  std::memcpy(old, m.plan.data.data(), sizeof old);
  CHECK(old[0] == 40);
  CHECK(old[1] == 8);
  CHECK(old[2] == 41);
}

TEST_CASE("compute unit coalescer: a gather that comes back to its lines in no order", "[cu]") {
  // Pieces of many distinct lines, each line visited several times far apart:
  // one request per line in first-touch order, holding exactly its pieces.
  // With 40 lines and with 300: both grow the general path's index of lines
  // past its initial size, the second to several hundred slots.
  for (const unsigned lines : {40u, 300u}) {
    INFO(lines << " lines");
    RequestPool pool(64);
    MemInst m;
    std::vector<uint64_t> first_touch;
    std::vector<unsigned> pieces_of(lines, 0);
    const unsigned chunks = 3 * lines;
    for (unsigned i = 0; i < chunks; ++i) {
      const unsigned line = (i * 37u + i / lines) % lines;  // 37 is coprime with both counts
      if (pieces_of[line]++ == 0) first_touch.push_back(0x100000 + 64ull * 1021 * line);
      add_chunk(m.plan, 0x100000 + 64ull * 1021 * line + 4 * (i % 16), 4, i % 64, 4 * (i % 256));
    }
    std::vector<MemRequest*> reqs;
    Coalescer::coalesce_general(m, AccessKind::Load, 3, 7, pool, reqs);
    REQUIRE(reqs.size() == lines);
    for (unsigned r = 0; r < lines; ++r) {
      const uint64_t line = reqs[r]->get_address() & ~uint64_t{63};
      CHECK(line == first_touch[r]);
      CHECK(reqs[r]->pieces.size() == pieces_of[(line - 0x100000) / (64ull * 1021)]);
    }
  }
}

TEST_CASE("compute unit coalescer: requests come back to their pool when released", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  add_chunk(m.plan, 0x1000, 4, 0, 0);
  auto first = coalesce(m, AccessKind::Load, pool);
  REQUIRE(first.size() == 1);
  MemRequest* r = first[0];
  CHECK(r->get_extension<GpuAccess>() == r->access);  // the blocks below read it from the payload
  r->release();  // the CU's reference: the payload returns to the pool
  auto second = coalesce(m, AccessKind::Load, pool);
  CHECK(second[0] == r);
  second[0]->release();
}

// ---- the fast path against the general path ---------------------------------

namespace {

// A vector access: `lanes` lanes of `bytes` each at base + lane * stride, for
// the lanes in `exec`, data at lane * kLaneBytes as plan() lays it out; store
// data and atomic operands are distinct per byte.
MemInst vector_access(uint64_t base, int64_t stride, unsigned bytes, uint64_t exec, isa::MemKind kind) {
  MemInst m;
  m.plan.kind = kind;
  m.plan.glc = true;
  m.plan.exec = exec;
  for (unsigned l = 0; l < 64; ++l) {
    if (!(exec >> l & 1)) continue;
    const unsigned data = l * isa::MemPlan::kLaneBytes;
    m.plan.add(isa::MemSpace::Global, base + static_cast<uint64_t>(stride * l), bytes, l, data);
    for (unsigned b = 0; b < bytes; ++b) m.plan.data[data + b] = static_cast<uint8_t>(l * 7 + b + 1);
  }
  return m;
}

AccessKind access_kind(isa::MemKind kind) {
  switch (kind) {
    case isa::MemKind::Store: return AccessKind::Store;
    case isa::MemKind::Atomic: return AccessKind::Atomic;
    default: return AccessKind::Load;
  }
}

// Everything a request carries that the memory system or scatter() reads.
void check_same(const MemRequest& a, const MemRequest& b, const MemInst& ma, const MemInst& mb) {
  const tlm::tlm_generic_payload& ta = a;
  const tlm::tlm_generic_payload& tb = b;
  CHECK(ta.get_address() == tb.get_address());
  CHECK(ta.get_command() == tb.get_command());
  CHECK(ta.get_data_length() == tb.get_data_length());
  CHECK(ta.get_streaming_width() == tb.get_streaming_width());
  CHECK(ta.get_data_ptr() - a.data.data() == tb.get_data_ptr() - b.data.data());
  CHECK((ta.get_byte_enable_ptr() == nullptr) == (tb.get_byte_enable_ptr() == nullptr));
  if (ta.get_byte_enable_ptr() && tb.get_byte_enable_ptr())
    CHECK(ta.get_byte_enable_ptr() - a.enables.data() == tb.get_byte_enable_ptr() - b.enables.data());
  CHECK(ta.get_byte_enable_length() == tb.get_byte_enable_length());
  CHECK(a.data == b.data);
  CHECK(a.enables == b.enables);
  REQUIRE(a.pieces.size() == b.pieces.size());
  for (size_t i = 0; i < a.pieces.size(); ++i) {
    CHECK(a.pieces[i].line_offset == b.pieces[i].line_offset);
    CHECK(a.pieces[i].data_offset == b.pieces[i].data_offset);
    CHECK(a.pieces[i].bytes == b.pieces[i].bytes);
  }
  CHECK(a.inst == &ma);
  CHECK(b.inst == &mb);
  const GpuAccess& ga = *a.access;
  const GpuAccess& gb = *b.access;
  CHECK(ga.kind == gb.kind);
  CHECK(ga.cu == gb.cu);
  CHECK(ga.wave == gb.wave);
  CHECK(ga.tag == gb.tag);
  CHECK(ga.glc == gb.glc);
  CHECK(ga.slc == gb.slc);
  CHECK(ga.op == gb.op);
  CHECK(ga.elem == gb.elem);
  CHECK(ga.lanes.size() == gb.lanes.size());
}

// Coalesces `m` with coalesce() and with coalesce_general() on pools in the
// same state, and requires the same requests in the same order.
void check_fast_matches_general(const MemInst& m, AccessKind kind, unsigned line_bytes, bool fast) {
  CHECK(Coalescer::takes_fast_path(m.plan, kind, line_bytes) == fast);
  RequestPool fast_pool(line_bytes), general_pool(line_bytes);
  MemInst mf = m, mg = m;
  // Used pools: requests come back with the previous user's bytes in them.
  for (RequestPool* p : {&fast_pool, &general_pool}) {
    MemRequest* r = p->get();
    std::fill(r->data.begin(), r->data.end(), uint8_t{0x5a});
    std::fill(r->enables.begin(), r->enables.end(), uint8_t{0x33});
    r->release();
  }
  std::vector<MemRequest*> f, g;
  Coalescer::coalesce(mf, kind, 3, 7, fast_pool, f);
  Coalescer::coalesce_general(mg, kind, 3, 7, general_pool, g);
  REQUIRE(f.size() == g.size());
  for (size_t i = 0; i < f.size(); ++i) check_same(*f[i], *g[i], mf, mg);
}

}  // namespace

TEST_CASE("compute unit coalescer: the fast path gives what the general path gives", "[cu]") {
  const uint64_t all = ~uint64_t{0};
  const uint64_t partial = 0xf0f0'0ff0'1234'8001ull;  // holes of one and of several lanes
  struct Pattern {
    const char* name;
    uint64_t base;
    int64_t stride;
    unsigned bytes;
    uint64_t exec;
    bool fast;  // for loads and stores
  };
  const Pattern patterns[] = {
      {"contiguous dwords", 0x10000, 4, 4, all, true},
      {"contiguous dwords, partial exec", 0x10000, 4, 4, partial, true},
      {"contiguous dwords, unaligned start crossing lines", 0x10022, 4, 4, all, true},
      {"contiguous dwordx2 from an odd byte", 0x10003, 8, 8, all, true},
      {"contiguous dwordx4", 0x10040, 16, 16, partial, true},
      {"contiguous bytes", 0x10005, 1, 1, all, true},
      {"contiguous dwordx3 across lines", 0x1003a, 12, 12, all, true},
      {"stride two dwords: holes", 0x10000, 8, 4, all, true},
      {"stride of a line and a bit", 0x10010, 68, 4, partial, true},
      {"stride 1 KiB: a line per lane", 0x20000, 1024, 8, all, true},
      {"overlapping lanes", 0x10000, 2, 4, all, true},
      {"uniform address", 0x10020, 0, 4, all, true},
      {"descending", 0x20000, -4, 4, all, false},
      {"descending by lines", 0x20000, -256, 4, partial, false},
  };
  for (const Pattern& p : patterns)
    for (isa::MemKind k : {isa::MemKind::Load, isa::MemKind::Store})
      for (unsigned line : {64u, 128u}) {
        INFO(p.name << (k == isa::MemKind::Store ? ", store" : ", load") << ", line " << line);
        check_fast_matches_general(vector_access(p.base, p.stride, p.bytes, p.exec, k), access_kind(k), line,
                                   p.fast);
      }
}

TEST_CASE("compute unit coalescer: the fast path on mixed and scalar plans", "[cu]") {
  SECTION("a lane that goes back a line after others leaves the fast path") {
    MemInst m = vector_access(0x10000, 4, 4, 0xffffff, isa::MemKind::Store);  // two lines
    add_chunk(m.plan, 0x10004, 4, 20, 20 * isa::MemPlan::kLaneBytes);  // the first line again
    check_fast_matches_general(m, AccessKind::Store, 64, false);
  }
  SECTION("LDS chunks in between are skipped by both") {
    MemInst m = vector_access(0x10000, 4, 4, 0xff, isa::MemKind::Store);
    add_chunk(m.plan, 0x0, 4, 9, 9 * isa::MemPlan::kLaneBytes, isa::MemSpace::Lds);
    add_chunk(m.plan, 0x10020, 4, 10, 10 * isa::MemPlan::kLaneBytes);
    add_chunk(m.plan, 0x10080, 4, 11, 11 * isa::MemPlan::kLaneBytes);
    check_fast_matches_general(m, AccessKind::Store, 64, true);
  }
  SECTION("a scalar load of 64 bytes from an unaligned address") {
    MemInst m;
    m.plan.scalar = true;
    add_chunk(m.plan, 0x3010, 64, 0, 0);
    check_fast_matches_general(m, AccessKind::ScalarLoad, 64, true);
    check_fast_matches_general(m, AccessKind::ScalarLoad, 32, true);
  }
  SECTION("atomics always take the general path") {
    MemInst m = vector_access(0x10000, 4, 4, ~uint64_t{0}, isa::MemKind::Atomic);
    CHECK_FALSE(Coalescer::takes_fast_path(m.plan, AccessKind::Atomic, 64));
  }
  SECTION("no chunks: no requests") {
    MemInst m;
    check_fast_matches_general(m, AccessKind::Load, 64, true);
  }
}
