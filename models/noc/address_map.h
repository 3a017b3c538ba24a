// An address decoder's map: address ranges, each served by one output port or
// interleaved over several (consecutive chunks of `interleave` bytes go
// round-robin over `ports`). Parsed from a netlist's JSON and validated once;
// decoding is a binary search over the sorted ranges.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/params.h"

namespace tessera {

struct AddressRegion {
  uint64_t base = 0;
  uint64_t size = 0;
  std::vector<int> ports;
  uint64_t interleave = 0;  // 0: not interleaved (exactly one port)

  uint64_t last() const { return base + (size - 1); }
  // The port serving `addr` (which must lie in the region).
  int port_of(uint64_t addr) const;
  // First and last address of the chunk holding `addr` that goes to one port.
  uint64_t chunk_first(uint64_t addr) const;
  uint64_t chunk_last(uint64_t addr) const;
  // True if the whole region goes to one port (DMI may be forwarded).
  bool single_port() const { return ports.size() == 1; }
};

class AddressMap {
 public:
  AddressMap() = default;

  // `j` is an array of {"base", "size", "ports", "interleave"}; base, size and
  // interleave are integers or size strings ("0x1000", "1 GiB"). Throws
  // UserError starting with `who` and naming the entry when something is wrong:
  // a missing or unknown key, an empty or out-of-range port list, overlapping
  // ranges, a range wrapping the address space.
  static AddressMap from_json(const nlohmann::ordered_json& j, int port_count, const std::string& who);

  // The region holding `addr`, or nullptr.
  const AddressRegion* find(uint64_t addr) const;
  // The port serving all of [addr, addr+len), or -1 if any byte is unmapped or
  // the access straddles two regions or two interleave chunks.
  int decode(uint64_t addr, uint64_t len) const;

  const std::vector<AddressRegion>& regions() const { return regions_; }

 private:
  std::vector<AddressRegion> regions_;  // sorted by base, disjoint
};

// The `address_map` parameter of the blocks that decode addresses (router,
// crossbar): one declaration for both.
ParamSpec address_map_param();

}  // namespace tessera
