#include "models/cache/l3_cache.h"

#include "models/cache/cache_types.h"

namespace tessera {

const ParamTable<CacheConfig>& l3_param_table() {
  using C = CacheConfig;
  static const ParamTable<C> table =
      ParamTable<C>()
          .include(cache_param_table())
          .add(&C::inclusive,
               bool_param("inclusive", true,
                          "read misses allocate: every line the caches above fetch through this slice is kept here "
                          "too (until evicted; an eviction does not invalidate the copies above). false: a read "
                          "miss is passed to memory without allocating, and lines come in only by writes and "
                          "write-backs from above (a victim cache of the L2s)"));
  return table;
}

L3Cache::L3Cache(const BlockContext& ctx, const CacheConfig& cfg)
    : Cache(ctx, cfg), memory_(shared().get<isa::DeviceMemory>("device")) {
  memory_.attach_memory_side(this);
}

L3Cache::~L3Cache() { memory_.detach_memory_side(this); }

// Defaults for a slice of a chiplet GPU's shared L3 (a few MiB per memory
// controller): write-back, so that the L2s' kernel-end write-backs end here
// rather than in DRAM; many MSHRs and queue places, since one slice takes
// the misses of every chiplet for its memory.
BlockType l3_cache_block_type() {
  BlockType t = cache_block_type(
      "l3_cache",
      "One slice of a memory-side last-level cache, bound straight to a memory (its out to a DRAM controller or "
      "memory): every requester's accesses to that memory, and the host's, pass through it, so kernel-boundary "
      "commands leave it alone. Write-back by default, inclusive or not, holds real data, applies atomics.",
      l3_param_table(),
      {{"size", "4 MiB"},
       {"ways", 16},
       {"line_size", "128 B"},
       {"banks", 4},
       {"mshrs", 256},
       {"mshr_targets", 16},
       {"hit_latency", 40},
       {"miss_latency", 4},
       {"ports", 2},
       {"queue_depth", 512},
       {"write_policy", "write_back"},
       {"write_allocate", true},
       {"indexing", "xor"}},
      [](const BlockContext& ctx) -> std::unique_ptr<Block> {
        return std::make_unique<L3Cache>(ctx, CacheConfig::from_params(ctx.params, ctx.path, l3_param_table()));
      });
  for (SocketSpec& s : t.sockets)
    if (s.name == "out") s.to_memory = true;
  return t;
}

TESSERA_REGISTER_BLOCK(l3_cache_block_type);

}  // namespace tessera
