// The block type of a cache: its sockets (in[], out, ctrl), parameters and
// defaults. The four engine types (cache_types.cpp) and l3_cache use it.
#pragma once
#include <functional>
#include <memory>

#include "models/cache/cache_config.h"
#include "platform/registry.h"

namespace tessera {

BlockType cache_block_type(const char* name, const char* doc, const ParamTable<CacheConfig>& table,
                           const json& defaults, std::function<std::unique_ptr<Block>(const BlockContext&)> create);

}  // namespace tessera
