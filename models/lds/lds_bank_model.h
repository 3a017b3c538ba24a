// The LDS bank-conflict model: how many cycles the LDS needs for one DS
// instruction, from the byte addresses of its active lanes.
//
// The LDS has `banks` banks of 4 bytes; dword address D lives in bank
// D % banks. Each cycle the LDS serves one group of lanes whose dwords fill
// the banks once when conflict-free: a lane of a DS instruction touches
// dwords = ceil(bytes / 4) consecutive dwords per address, times the number
// of addresses (2 for the read2/write2 forms), so a group holds
// max(1, banks / dwords_per_lane) consecutive lanes (32 lanes for b32 on 32
// banks, 16 for b64 or read2_b32, 8 for b128).
// A group with an active lane costs the largest number of DISTINCT dwords
// that map to one bank among its active lanes (lanes reading the same dword
// share one access: a broadcast); a group without active lanes costs nothing.
// The instruction's cost is the sum over groups, at least 1.
// Conflict cycles = cost - (groups with an active lane): what a conflict-free
// access pattern would not have paid.
#pragma once
#include <cstdint>
#include <vector>

namespace tessera::lds {

struct LdsRequest {
  uint64_t exec = 0;              // active lanes
  const uint32_t* addr[2] = {nullptr, nullptr};  // byte address of each lane, per address slot
  unsigned addresses_per_lane = 1;  // 1, or 2 for the two-address forms
  unsigned bytes = 4;               // per address
};

struct LdsCost {
  unsigned cycles = 1;
  unsigned conflict_cycles = 0;
};

class LdsBankModel {
 public:
  explicit LdsBankModel(unsigned banks);
  unsigned banks() const { return banks_; }
  LdsCost cost(const LdsRequest& req);

 private:
  unsigned group_cost(const LdsRequest& req, unsigned first_lane, unsigned lanes, unsigned dwords);
  bool consecutive(const LdsRequest& req, unsigned first_lane, unsigned lanes, unsigned per_address) const;
  bool conflict_free(const LdsRequest& req, unsigned first_lane, unsigned lanes, unsigned per_address);
  unsigned banks_;
  // Scratch for group_cost: the group's dwords, then the same sorted by bank,
  // and per bank its count and where its dwords start in by_bank_.
  std::vector<uint32_t> dwords_, by_bank_;
  std::vector<uint32_t> bank_count_, bank_start_;
  std::vector<uint32_t> first_dword_;  // per bank: the dword it serves (conflict_free)
};

}  // namespace tessera::lds
