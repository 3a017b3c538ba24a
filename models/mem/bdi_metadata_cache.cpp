#include "models/mem/bdi_metadata_cache.h"

#include <stdexcept>
#include <string>

namespace tessera {

BdiMetadataCache::BdiMetadataCache(uint64_t size, unsigned ways, uint64_t block_bytes)
    : sets_(0), ways_(ways) {
  const uint64_t set_bytes = uint64_t{ways} * block_bytes;
  if (ways == 0 || block_bytes == 0 || size == 0 || size % set_bytes != 0)
    throw std::invalid_argument("metadata cache of " + std::to_string(size) + " bytes is not a non-zero multiple of " +
                                std::to_string(ways) + " ways * " + std::to_string(block_bytes) + " bytes");
  sets_ = size / set_bytes;
  ways_of_sets_.assign(sets_ * ways_, Way{});
}

BdiMetadataCache::Outcome BdiMetadataCache::access(uint64_t block, bool write) {
  Way* set = &ways_of_sets_[(block % sets_) * ways_];
  Way* victim = set;
  ++clock_;
  for (unsigned w = 0; w < ways_; ++w) {
    Way& way = set[w];
    if (way.used && way.block == block) {
      way.used = clock_;
      way.dirty |= write;
      return Outcome{true, false};
    }
    if (way.used < victim->used) victim = &way;  // an invalid way (0) is taken first
  }
  Outcome out{false, victim->used != 0 && victim->dirty};
  *victim = Way{block, clock_, write};
  return out;
}

}  // namespace tessera
