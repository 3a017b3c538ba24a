// l3_cache: one slice of a memory-side last-level cache, the cache engine
// (models/cache/cache.h) placed in front of a memory controller. Everything
// that reaches that memory passes through it (every chiplet's L2 misses and
// write-backs homed there, and the host's accesses to device memory), so it
// is coherent by its position: no kernel-boundary command needs to touch it.
// docs/CACHES.md, "Shared last-level cache (l3_cache)".
#pragma once
#include "common/device_memory.h"
#include "models/cache/cache.h"

namespace tessera {

// The l3_cache parameters: every cache parameter plus `inclusive`.
const ParamTable<CacheConfig>& l3_param_table();

class L3Cache : public Cache, public isa::MemorySideCopies {
 public:
  L3Cache(const BlockContext& ctx, const CacheConfig& cfg);
  ~L3Cache() override;

  // The host writes and reads device memory directly (isa::DeviceMemory);
  // a memory-side cache sees those accesses as memory does.
  void host_wrote(uint64_t addr, const uint8_t* src, uint64_t bytes) override { write_cached(addr, src, bytes); }
  void host_reads(uint64_t addr, uint8_t* dst, uint64_t bytes) const override { read_cached(addr, dst, bytes); }

 private:
  isa::DeviceMemory& memory_;
};

}  // namespace tessera
