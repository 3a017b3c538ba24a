// The LDS pipeline on its own: requests queue in front of the bank model,
// the banks serve them one at a time in order, and each is done `latency`
// cycles after its last bank cycle.
#include <catch2/catch.hpp>

#include <vector>

#include "models/lds/lds_pipeline.h"

using tessera::lds::LdsCost;
using tessera::lds::LdsPipeline;
using tessera::lds::LdsRequest;

namespace {

// A wave64 access of 4-byte words at `stride` dwords: stride 1 costs 2 bank
// cycles (two groups of 32 lanes), stride 2 costs 4 (lds_bank_model_test.cpp).
struct Access {
  explicit Access(unsigned stride) {
    for (unsigned l = 0; l < 64; ++l) addr[l] = l * stride * 4;
    req.exec = ~0ull;
    req.addr[0] = addr;
    req.bytes = 4;
  }
  uint32_t addr[64];
  LdsRequest req;
};

int owner_a, owner_b, owner_c;

}  // namespace

TEST_CASE("LDS pipeline: without waiting room a request enters when the banks are free", "[lds]") {
  LdsPipeline p(32, 10);
  Access unit(1), two(2);
  CHECK(p.accepts_at() == 0);
  const LdsCost a = p.submit(unit.req, 5, {&owner_a, nullptr});
  CHECK(a.cycles == 2);
  CHECK(p.accepts_at() == 7);  // banks busy at 5 and 6
  const LdsCost b = p.submit(two.req, 7, {&owner_b, nullptr});
  CHECK(b.cycles == 4);
  CHECK(p.accepts_at() == 11);
  CHECK(p.next_done() == 17);  // 5 + 2 + 10
  LdsPipeline::Tag tag;
  CHECK_FALSE(p.pop_done(16, tag));
  REQUIRE(p.pop_done(17, tag));
  CHECK(tag.owner == &owner_a);
  CHECK(p.next_done() == 21);  // 7 + 4 + 10
  REQUIRE(p.pop_done(30, tag));
  CHECK(tag.owner == &owner_b);
  CHECK(p.next_done() == LdsPipeline::kNone);
}

TEST_CASE("LDS pipeline: queued requests wait for the banks in order", "[lds]") {
  LdsPipeline p(32, 10, 2);  // two requests may wait
  Access two(2);
  p.submit(two.req, 0, {&owner_a, nullptr});  // banks 0..3
  CHECK(p.accepts_at() == 0);                 // nothing waits yet
  p.submit(two.req, 0, {&owner_b, nullptr});  // waits, banks 4..7
  CHECK(p.accepts_at() == 0);                 // one waits
  p.submit(two.req, 1, {&owner_c, nullptr});  // waits, banks 8..11
  CHECK(p.accepts_at() == 4);                 // two wait until b starts at 4
  LdsPipeline::Tag tag;
  std::vector<const void*> order;
  for (uint64_t c = 0; c < 40; ++c)
    while (p.pop_done(c, tag)) order.push_back(tag.owner);
  CHECK(order == std::vector<const void*>{&owner_a, &owner_b, &owner_c});
}

TEST_CASE("LDS pipeline: a crossbar request holds the pipeline without bank conflicts", "[lds]") {
  LdsPipeline p(32, 3);
  const LdsCost c = p.submit_crossbar(2, 10, {&owner_a, nullptr});
  CHECK(c.cycles == 2);
  CHECK(c.conflict_cycles == 0);
  CHECK(p.accepts_at() == 12);
  CHECK(p.next_done() == 15);
}
