// The LDS bank-conflict model on its own: cycles for access patterns whose
// cost follows from the rule in models/lds/lds_bank_model.h (32 banks of 4
// bytes; a lane group fills the banks once; the worst bank's distinct dwords).
#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <vector>

#include "models/lds/lds_bank_model.h"

using tessera::lds::LdsBankModel;
using tessera::lds::LdsCost;
using tessera::lds::LdsRequest;

namespace {

LdsCost strided(LdsBankModel& m, unsigned stride, unsigned bytes, uint64_t exec = ~0ull, unsigned addresses = 1,
                unsigned second_offset = 0) {
  static uint32_t a[2][64];
  for (unsigned l = 0; l < 64; ++l) {
    a[0][l] = l * stride;
    a[1][l] = l * stride + second_offset;
  }
  LdsRequest r;
  r.exec = exec;
  r.addr[0] = a[0];
  r.addr[1] = a[1];
  r.addresses_per_lane = addresses;
  r.bytes = bytes;
  return m.cost(r);
}

}  // namespace

TEST_CASE("lds bank model: b32 accesses by stride", "[lds]") {
  LdsBankModel m(32);
  // Consecutive dwords: two groups of 32 lanes, one cycle each.
  CHECK(strided(m, 4, 4).cycles == 2);
  CHECK(strided(m, 4, 4).conflict_cycles == 0);
  // Stride 2 dwords: the even banks each serve two lanes per group.
  CHECK(strided(m, 8, 4).cycles == 4);
  CHECK(strided(m, 8, 4).conflict_cycles == 2);
  // Stride 32 dwords: all 32 lanes of a group in bank 0.
  CHECK(strided(m, 128, 4).cycles == 64);
  CHECK(strided(m, 128, 4).conflict_cycles == 62);
  // Same address in every lane: a broadcast, one access per group.
  CHECK(strided(m, 0, 4).cycles == 2);
  CHECK(strided(m, 0, 4).conflict_cycles == 0);
}

TEST_CASE("lds bank model: wide and two-address accesses use smaller lane groups", "[lds]") {
  LdsBankModel m(32);
  // b64 at 8-byte stride: 16 lanes x 2 dwords fill the 32 banks: 4 groups.
  CHECK(strided(m, 8, 8).cycles == 4);
  CHECK(strided(m, 8, 8).conflict_cycles == 0);
  // b64 at 16-byte stride: lanes l and l+8 share banks: 2 cycles per group.
  CHECK(strided(m, 16, 8).cycles == 8);
  CHECK(strided(m, 16, 8).conflict_cycles == 4);
  // b128 at 16-byte stride: 8 lanes x 4 dwords per group, 8 groups.
  CHECK(strided(m, 16, 16).cycles == 8);
  // read2_b32 with the second address 64 dwords further: same bank as the
  // first, a different dword: 2 per bank in each 16-lane group.
  CHECK(strided(m, 4, 4, ~0ull, 2, 256).cycles == 8);
  // read2_b32 with the second address one dword up: a 16-lane group touches
  // dwords l..l+16, 17 distinct dwords in 17 different banks: one cycle.
  CHECK(strided(m, 4, 4, ~0ull, 2, 4).cycles == 4);
}

TEST_CASE("lds bank model: inactive lanes cost nothing", "[lds]") {
  LdsBankModel m(32);
  // Only lanes 0..31 active: one group.
  CHECK(strided(m, 4, 4, 0xffffffffull).cycles == 1);
  // One lane in the second group only.
  CHECK(strided(m, 128, 4, 1ull << 40).cycles == 1);
  CHECK(strided(m, 128, 4, 1ull << 40).conflict_cycles == 0);
  // No lane at all: the instruction still takes one cycle.
  CHECK(strided(m, 4, 4, 0).cycles == 1);
  // 16 banks: consecutive dwords need 4 groups of 16 lanes.
  LdsBankModel m16(16);
  CHECK(strided(m16, 4, 4).cycles == 4);
}

namespace {

// The rule itself, the slow way: per group of lanes, the most distinct dwords
// any one bank must deliver.
unsigned reference_cycles(const LdsRequest& r, unsigned banks) {
  const unsigned per_address = std::max(1u, (r.bytes + 3) / 4);
  const unsigned group = std::max(1u, banks / (per_address * r.addresses_per_lane));
  unsigned cycles = 0;
  for (unsigned first = 0; first < 64; first += group) {
    std::vector<std::set<uint32_t>> dwords(banks);
    bool any = false;
    for (unsigned l = first; l < std::min(64u, first + group); ++l) {
      if (!((r.exec >> l) & 1)) continue;
      any = true;
      for (unsigned a = 0; a < r.addresses_per_lane; ++a)
        for (unsigned k = 0; k < per_address; ++k) {
          const uint32_t dword = (r.addr[a][l] >> 2) + k;
          dwords[dword % banks].insert(dword);
        }
    }
    if (!any) continue;
    size_t worst = 1;
    for (const auto& d : dwords) worst = std::max(worst, d.size());
    cycles += static_cast<unsigned>(worst);
  }
  return std::max(1u, cycles);
}

}  // namespace

// Near-consecutive layouts are where a shortcut for the consecutive case would
// go wrong: second addresses a few dwords away, holes in the exec mask, one
// lane out of line, broadcasts next to consecutive dwords.
TEST_CASE("lds bank model: agrees with the rule on near-consecutive layouts", "[lds]") {
  LdsBankModel m(32);
  std::mt19937 rng(7);
  uint32_t a[2][64];
  for (int trial = 0; trial < 4000; ++trial) {
    LdsRequest r;
    r.bytes = 4u << (rng() % 3);
    r.addresses_per_lane = r.bytes == 4 ? 1 + rng() % 2 : 1;
    const uint32_t per = r.bytes / 4, base = 4 * (rng() % 64), second = 4 * (rng() % 80);
    for (unsigned l = 0; l < 64; ++l) {
      a[0][l] = base + 4 * per * l;
      a[1][l] = a[0][l] + second;
    }
    if (rng() % 4 == 0) {  // a broadcast slot
      uint32_t* slot = a[rng() % r.addresses_per_lane];
      for (unsigned l = 0; l < 64; ++l) slot[l] = base + second;
    }
    if (rng() % 3 == 0) a[rng() % r.addresses_per_lane][rng() % 64] += 4 * (1 + rng() % 40);
    r.exec = rng() % 2 ? ~0ull : (uint64_t{rng()} << 32 | rng());
    r.addr[0] = a[0];
    r.addr[1] = a[1];
    INFO("trial " << trial << " bytes " << r.bytes << " addresses " << r.addresses_per_lane << " second " << second);
    REQUIRE(m.cost(r).cycles == reference_cycles(r, 32));
  }
}

// Conflicting layouts, where the cost is counted bank by bank: random
// addresses in a small range (repeated dwords, many-way conflicts), padded
// tile columns (a transpose through LDS) and wide strides.
TEST_CASE("lds bank model: agrees with the rule on conflicting layouts", "[lds]") {
  std::mt19937 rng(11);
  uint32_t a[2][64];
  for (unsigned banks : {32u, 64u, 16u}) {
    LdsBankModel m(banks);
    for (int trial = 0; trial < 3000; ++trial) {
      LdsRequest r;
      r.bytes = 4u << (rng() % 3);
      r.addresses_per_lane = r.bytes == 4 ? 1 + rng() % 2 : 1;
      const unsigned layout = rng() % 3;
      const uint32_t range = 1 + rng() % 512, stride = 1 + rng() % 70, row = 1 + rng() % 33;
      for (unsigned s = 0; s < 2; ++s)
        for (unsigned l = 0; l < 64; ++l) {
          uint32_t dword = layout == 0   ? rng() % range
                           : layout == 1 ? (l % 16) * row + l / 16 + s * 7
                                         : l * stride + s * 3;
          a[s][l] = 4 * dword;
        }
      r.exec = rng() % 2 ? ~0ull : (uint64_t{rng()} << 32 | rng());
      r.addr[0] = a[0];
      r.addr[1] = a[1];
      INFO("banks " << banks << " trial " << trial << " layout " << layout << " bytes " << r.bytes << " addresses "
                    << r.addresses_per_lane);
      REQUIRE(m.cost(r).cycles == reference_cycles(r, banks));
    }
  }
}
