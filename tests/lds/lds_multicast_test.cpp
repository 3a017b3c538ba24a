// The LDS multicast unit's load request table on its own: a pair merges,
// reads of one wave or of two workgroups do not, a mismatch is found by the
// full address comparison, a full table serves reads at once, and waiting
// reads leave the table when their wait ends or their workgroup is released.
#include <catch2/catch.hpp>

#include "models/lds/lds_multicast.h"

using namespace tessera::lds;

namespace {

int group_a, group_b, wave0, wave1, wave2;

// A wave64 read of 4-byte words, lane l at byte 4 * l * stride + base.
struct Read {
  Read(const void* group, const void* wave, uint64_t key, uint32_t base = 0, unsigned stride = 1) {
    for (unsigned l = 0; l < 64; ++l) addr[l] = base + 4 * l * stride;
    r.group = group;
    r.tag.owner = wave;
    r.key = key;
    r.request.exec = ~0ull;
    r.request.addr[0] = addr;
    r.request.bytes = 4;
  }
  uint32_t addr[64];
  MulticastRead r;
};

}  // namespace

TEST_CASE("LDS multicast: two waves of a workgroup with the same read merge", "[lds]") {
  LdsMulticast mc(64, 100);
  HeldRead partner;
  Read a(&group_a, &wave0, 7), b(&group_a, &wave1, 7);
  CHECK(mc.offer(a.r, 10, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.waiting() == 1);
  CHECK(mc.next_deadline() == 110);
  REQUIRE(mc.offer(b.r, 12, partner) == LdsMulticast::Outcome::Merged);
  CHECK(partner.tag().owner == &wave0);
  CHECK(mc.waiting() == 0);
  CHECK(mc.next_deadline() == LdsPipeline::kNone);
  const LdsRequest held = partner.request();  // the held copy of wave 0's addresses
  CHECK(held.exec == ~0ull);
  CHECK(held.addr[0][63] == 4 * 63);
}

TEST_CASE("LDS multicast: no merge within one wave, across workgroups, or for another instruction", "[lds]") {
  LdsMulticast mc(64, 100);
  HeldRead partner;
  Read a(&group_a, &wave0, 7), again(&group_a, &wave0, 7), other_group(&group_b, &wave1, 7),
      other_key(&group_a, &wave1, 8), other_base(&group_a, &wave1, 7, 256);
  CHECK(mc.offer(a.r, 0, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(again.r, 1, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(other_group.r, 2, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(other_key.r, 3, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(other_base.r, 4, partner) == LdsMulticast::Outcome::Waiting);  // another first address
  CHECK(mc.waiting() == 5);
}

TEST_CASE("LDS multicast: same instruction and first address but other addresses is a mismatch", "[lds]") {
  LdsMulticast mc(64, 100);
  HeldRead partner;
  Read a(&group_a, &wave0, 7, 0, 1), b(&group_a, &wave1, 7, 0, 2);  // lane 0 at 0 in both
  CHECK(mc.offer(a.r, 0, partner) == LdsMulticast::Outcome::Waiting);
  REQUIRE(mc.offer(b.r, 1, partner) == LdsMulticast::Outcome::Mismatch);
  CHECK(partner.tag().owner == &wave0);
  CHECK(mc.waiting() == 0);  // both are served as ordinary reads by the caller

  Read c(&group_a, &wave0, 9), d(&group_a, &wave1, 9);
  d.r.request.exec = ~0ull >> 1;  // same addresses, one lane fewer
  CHECK(mc.offer(c.r, 2, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(d.r, 3, partner) == LdsMulticast::Outcome::Mismatch);
}

TEST_CASE("LDS multicast: a full table serves a new read at once (the paper's rule)", "[lds]") {
  LdsMulticast mc(2, 100);
  HeldRead partner;
  Read a(&group_a, &wave0, 1), b(&group_a, &wave0, 2), c(&group_a, &wave0, 3), a1(&group_a, &wave1, 1);
  CHECK(mc.offer(a.r, 0, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(b.r, 0, partner) == LdsMulticast::Outcome::Waiting);
  CHECK(mc.offer(c.r, 0, partner) == LdsMulticast::Outcome::TableFull);
  CHECK(mc.offer(a1.r, 0, partner) == LdsMulticast::Outcome::Merged);  // a match needs no free entry

  LdsMulticast none(0, 100);
  CHECK(none.offer(a.r, 0, partner) == LdsMulticast::Outcome::TableFull);
}

TEST_CASE("LDS multicast: waiting reads leave at the end of their wait or with their workgroup", "[lds]") {
  LdsMulticast mc(64, 50);
  HeldRead out;
  Read a(&group_a, &wave0, 1), b(&group_b, &wave1, 1), c(&group_a, &wave2, 2);
  mc.offer(a.r, 0, out);
  mc.offer(b.r, 10, out);
  mc.offer(c.r, 20, out);
  CHECK_FALSE(mc.pop_expired(49, out));
  REQUIRE(mc.pop_expired(50, out));
  CHECK(out.tag().owner == &wave0);
  CHECK_FALSE(mc.pop_expired(59, out));
  CHECK(mc.next_deadline() == 60);
  REQUIRE(mc.pop_group(&group_a, out));
  CHECK(out.tag().owner == &wave2);
  CHECK_FALSE(mc.pop_group(&group_a, out));
  CHECK(mc.waiting() == 1);
}

TEST_CASE("LDS multicast: a workgroup of one wave offers no read to the unit", "[lds]") {
  // A read whose address is the same in every wave (no sources): allowed in
  // any shape of more than one wave, never in a workgroup of 64 work-items
  // or fewer, whose only wave has no partner.
  tessera::analysis::InstructionMark m;
  m.lds_read = m.multicast_read = true;
  m.multicast_class = tessera::analysis::ValueClass::Uniform;
  const uint32_t bits = multicast_mark(m);
  CHECK(multicast_allowed(bits, {256, 1, 1}));
  CHECK(multicast_allowed(bits, {16, 16, 1}));
  CHECK_FALSE(multicast_allowed(bits, {64, 1, 1}));
  CHECK_FALSE(multicast_allowed(bits, {16, 4, 1}));
  CHECK_FALSE(multicast_allowed(bits, {32, 1, 1}));
}

TEST_CASE("LDS pipeline: one access shared by two requests costs its bank cycles once", "[lds]") {
  LdsPipeline p(32, 10);
  Read a(&group_a, &wave0, 1);
  const LdsCost cost = p.submit_shared(a.r.request, 5, {&wave0, nullptr}, {&wave1, nullptr});
  CHECK(cost.cycles == 2);
  CHECK(p.accepts_at() == 7);
  LdsPipeline::Tag tag;
  REQUIRE(p.pop_done(17, tag));
  CHECK(tag.owner == &wave0);
  REQUIRE(p.pop_done(17, tag));
  CHECK(tag.owner == &wave1);
  CHECK(p.next_done() == LdsPipeline::kNone);
}
