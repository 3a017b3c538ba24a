// PooledMap: a std::unordered_map whose nodes come from a pool owned by the
// map, so that the per-request entries the memory-side blocks keep (routes of
// payloads in flight, MSHRs by line) are recycled rather than allocated and
// freed on every request.
#pragma once
#include <memory_resource>
#include <unordered_map>

namespace tessera {

namespace detail {
// Base-from-member: the pool is built before, and destroyed after, the map.
struct NodePool {
  std::pmr::unsynchronized_pool_resource pool;
};
}  // namespace detail

template <class Key, class Value>
class PooledMap : private detail::NodePool, public std::pmr::unordered_map<Key, Value> {
 public:
  PooledMap() : detail::NodePool(), std::pmr::unordered_map<Key, Value>(&pool) {}
  PooledMap(const PooledMap&) = delete;
  PooledMap& operator=(const PooledMap&) = delete;
};

}  // namespace tessera
