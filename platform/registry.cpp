#include "platform/registry.h"

#include <cstdio>
#include <cstdlib>

#include "platform/block.h"

namespace tessera {

const ParamSpec* BlockType::param(const std::string& n) const {
  for (const auto& p : params)
    if (p.name == n) return &p;
  return nullptr;
}

const SocketSpec* BlockType::socket(const std::string& n) const {
  for (const auto& s : sockets)
    if (s.name == n) return &s;
  return nullptr;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(BlockType type) {
  if (types_.count(type.name)) {
    std::fprintf(stderr, "internal error: block type '%s' registered twice\n", type.name.c_str());
    std::abort();
  }
  // Every block is built with its module name pushed for the whole of its
  // construction (see BlockNameScope).
  if (type.create) {
    type.create = [create = std::move(type.create)](const BlockContext& ctx) {
      BlockNameScope scope(ctx.path);
      return create(ctx);
    };
  }
  std::string name = type.name;
  types_.emplace(name, std::move(type));
}

const BlockType* Registry::find(const std::string& name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

}  // namespace tessera
