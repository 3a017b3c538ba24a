#include "models/cu/zero_query.h"

#include <algorithm>

#include "models/cu/coalescer.h"

namespace tessera {

ZeroQueryStats::ZeroQueryStats(StatGroup& g)
    : queries(g.counter("zero_queries", "ZeroMask queries sent down vmem (one per line a load's lanes touch)")),
      requests_saved(g.counter("zero_requests_saved",
                               "data line requests not sent because every word their lanes read was zero")),
      lanes_zero(g.counter("lazy_eliminated_zero_cache",
                           "register-lanes of deferred loads whose words the zero queries found zero: never requested")) {}

void make_zero_queries(MemInst& m, int cu, int wave, RequestPool& pool, std::vector<MemRequest*>& out) {
  const size_t before = out.size();
  Coalescer::coalesce(m, AccessKind::ZeroMask, cu, wave, pool, out);
  for (size_t i = before; i < out.size(); ++i) out[i]->value_read = true;
}

bool reads_only_zeros(const MemRequest& r, const isa::MemPlan& plan) {
  for (const Piece& p : r.pieces) {
    const uint8_t* d = plan.data.data() + p.data_offset;
    if (std::any_of(d, d + p.bytes, [](uint8_t b) { return b != 0; })) return false;
  }
  return true;
}

}  // namespace tessera
