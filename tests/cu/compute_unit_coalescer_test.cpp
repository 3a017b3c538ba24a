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
  isa::MemChunk c;
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
    CHECK(reqs[i]->trans.get_address() == 0x1000 + 64 * i);
    CHECK(reqs[i]->trans.get_data_length() == 64);
    CHECK(reqs[i]->trans.is_read());
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
  CHECK(reqs[0]->trans.get_address() == 0x2078);
  CHECK(reqs[0]->trans.get_data_length() == 8);
  CHECK(reqs[1]->trans.get_address() == 0x2080);
  CHECK(reqs[1]->trans.get_data_length() == 8);  // 0x2080..0x2087, both lanes' bytes
  CHECK(reqs[1]->pieces.size() == 2);
  CHECK(reqs[2]->trans.get_address() == 0x2000);
  CHECK(reqs[2]->trans.get_data_length() == 4);
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
  const tlm::tlm_generic_payload& t = reqs[0]->trans;
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
  CHECK(whole[0]->trans.get_byte_enable_ptr() == nullptr);
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
  CHECK(reqs[0]->trans.get_address() == 0x5010);
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

TEST_CASE("compute unit coalescer: requests come back to their pool when released", "[cu]") {
  RequestPool pool(64);
  MemInst m;
  add_chunk(m.plan, 0x1000, 4, 0, 0);
  auto first = coalesce(m, AccessKind::Load, pool);
  REQUIRE(first.size() == 1);
  MemRequest* r = first[0];
  CHECK(pool.from(r->trans) == r);
  r->trans.release();  // the CU's reference: the payload returns to the pool
  auto second = coalesce(m, AccessKind::Load, pool);
  CHECK(second[0] == r);
  second[0]->trans.release();
}
