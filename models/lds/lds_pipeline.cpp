#include "models/lds/lds_pipeline.h"

#include <algorithm>

namespace tessera::lds {

LdsCost LdsPipeline::enter(const LdsCost& cost, uint64_t c, Tag tag) {
  const uint64_t start = std::max(c, banks_free_);
  banks_free_ = start + cost.cycles;
  queue_.push_back(Entry{start, banks_free_ + latency_, tag});
  return cost;
}

}  // namespace tessera::lds
