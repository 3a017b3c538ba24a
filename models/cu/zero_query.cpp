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

void make_zero_queries(MemInst& m, int cu, int wave, unsigned span, RequestPool& pool, std::vector<MemRequest*>& out) {
  const size_t before = out.size();
  Coalescer::coalesce(m, AccessKind::ZeroMask, cu, wave, pool, out);
  size_t kept = before;
  for (size_t i = before; i < out.size(); ++i) {
    MemRequest& r = *out[i];
    r.value_read = true;
    const uint64_t lo = r.get_address(), hi = lo + r.get_data_length(), chunk = lo / span;
    // The query already open for this chunk, if any, grows to cover this line's bytes too.
    size_t j = before;
    while (j < kept && out[j]->get_address() / span != chunk) ++j;
    if (j == kept) {
      out[kept++] = &r;
      continue;
    }
    MemRequest& q = *out[j];
    const uint64_t qa = q.get_address(), qlo = std::min(qa, lo), qhi = std::max(qa + q.get_data_length(), hi);
    if (q.data.size() < qhi - qlo) q.data.resize(span);
    q.set_address(qlo);
    q.set_data_ptr(q.data.data());
    q.set_data_length(static_cast<unsigned>(qhi - qlo));
    q.set_streaming_width(static_cast<unsigned>(qhi - qlo));
    r.release();
  }
  out.resize(kept);
}

unsigned lines_touched(const isa::MemPlan& plan, unsigned line_bytes) {
  std::vector<uint64_t> lines;
  for (const isa::MemChunk& ch : plan.chunks)
    for (uint64_t l = ch.addr / line_bytes; l <= (ch.addr + ch.bytes - 1) / line_bytes; ++l) lines.push_back(l);
  std::sort(lines.begin(), lines.end());
  return static_cast<unsigned>(std::unique(lines.begin(), lines.end()) - lines.begin());
}

bool reads_only_zeros(const MemRequest& r, const isa::MemPlan& plan) {
  for (const Piece& p : r.pieces) {
    const uint8_t* d = plan.data.data() + p.data_offset;
    if (std::any_of(d, d + p.bytes, [](uint8_t b) { return b != 0; })) return false;
  }
  return true;
}

}  // namespace tessera
