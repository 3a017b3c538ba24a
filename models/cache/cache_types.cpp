// The four cache block types: one engine (models/cache/cache.h), four sets of
// defaults. Defaults are CDNA2-like; netlists set what their machine needs.
#include "models/cache/cache_types.h"

#include "models/cache/cache.h"

namespace tessera {

BlockType cache_block_type(const char* name, const char* doc, const ParamTable<CacheConfig>& table,
                           const json& defaults, std::function<std::unique_ptr<Block>(const BlockContext&)> create) {
  BlockType t;
  t.name = name;
  t.doc = doc;
  t.params = table.specs(defaults);
  SocketSpec in;
  in.name = "in";
  in.dir = SocketDir::Target;
  in.vector = true;
  in.doc = "requests from the level above (several requesters may share the cache: in[0], in[1], ...)";
  in.request_limit = "line_size";  // a request may not cross a line
  SocketSpec out;
  out.name = "out";
  out.dir = SocketDir::Initiator;
  out.doc = "fills, forwarded requests and writebacks to the next level";
  out.request_limit = "line_size";
  SocketSpec ctrl;
  ctrl.name = "ctrl";
  ctrl.dir = SocketDir::Target;
  ctrl.protocol = "cache_ctrl";
  ctrl.required = false;
  ctrl.doc = "maintenance commands (CacheCommand: invalidate, writeback, writeback+invalidate), answered when done";
  t.sockets = {in, out, ctrl};
  t.create = std::move(create);
  // Measured at elaboration: about 29 KB, plus 2.38 bytes per byte of
  // capacity (data, tags, state) (docs/RELIABILITY.md).
  t.host_bytes_per_size = 2.5;
  return t;
}

namespace {

BlockType cache_type(const char* name, const char* doc, const json& defaults) {
  return cache_block_type(name, doc, cache_param_table(), defaults, [](const BlockContext& ctx) -> std::unique_ptr<Block> {
    return std::make_unique<Cache>(ctx, CacheConfig::from_params(ctx.params, ctx.path));
  });
}

}  // namespace

// Each type's defaults where they differ from the declared ones (cache_config.cpp).
BlockType l1v_cache_block_type() {
  return cache_type("l1v_cache",
                    "Vector L1 cache of one CU: write-through, no write-allocate, holds real data; glc loads bypass it, "
                    "atomics drop its copy and go below.",
                    {{"mshrs", 32},
                     {"hit_latency", 24},
                     // other CUs' atomics on the same address go below: so must this CU's
                     {"atomics", "below"}});
}

BlockType scalar_cache_block_type() {
  return cache_type("scalar_cache", "Scalar data cache shared by CUs (in[] per CU): read-only, holds real data.",
                    {{"hit_latency", 12}, {"read_only", true}});
}

BlockType instruction_cache_block_type() {
  return cache_type("instruction_cache", "Instruction cache shared by CUs (in[] per CU): read-only, holds real data.",
                    {{"size", "32 KiB"}, {"mshrs", 8}, {"hit_latency", 4}, {"miss_latency", 2}, {"read_only", true}});
}

BlockType l2_cache_block_type() {
  return cache_type("l2_cache",
                    "One L2 slice: banked, write-back, write-allocate, holds real data and owns it: applies atomics, "
                    "writes dirty lines back on eviction and on maintenance commands.",
                    {{"size", "256 KiB"},
                     {"ways", 16},
                     {"line_size", "128 B"},
                     {"banks", 4},
                     {"mshrs", 64},
                     {"mshr_targets", 16},
                     {"hit_latency", 40},
                     {"miss_latency", 8},
                     {"ports", 2},
                     {"queue_depth", 128},
                     {"write_policy", "write_back"},
                     {"write_allocate", true},
                     {"indexing", "xor"}});
}

TESSERA_REGISTER_BLOCK(l1v_cache_block_type);
TESSERA_REGISTER_BLOCK(scalar_cache_block_type);
TESSERA_REGISTER_BLOCK(instruction_cache_block_type);
TESSERA_REGISTER_BLOCK(l2_cache_block_type);

}  // namespace tessera
