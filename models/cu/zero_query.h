// LazyGPU's zero-mask queries from the compute unit (docs/LAZYGPU.md): a
// vector global load asks the zero caches which of its words are zero
// (AccessKind::ZeroMask, models/mem/gpu_access.h) and requests data only for
// the lines holding a non-zero word its lanes read.
//
// Queries are shaped as the coalescer shapes the load's data requests, and
// then the requests of one partition's chunk (`zero_query_span`, the router's
// interleave) are merged: one query per partition a load touches, as the
// paper's zero-cache transactions. A chunk lies inside one mask line's
// coverage at every level (docs/CACHES.md: a mask line covers 32 lines of
// one memory partition), as a query must.
//
// The answer is not in the payload: the values were read through the caches
// when the load executed, and the zero caches' masks are coherent with every
// write, so which words are zero is read from those values. The queries carry
// the time and traffic of the mask lookup.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cu/mem_request.h"
#include "platform/stats.h"

namespace tessera {

struct ZeroQueryStats {
  explicit ZeroQueryStats(StatGroup& g);
  Counter& queries;         // ZeroMask queries sent
  Counter& requests_saved;  // data line requests not sent: every word their lanes read was zero
  Counter& lanes_zero;      // register-lanes of lazy loads found zero by the queries and never requested
};

// Appends to `out` the ZeroMask queries for `m`'s plan: one per aligned
// `span` bytes touched (a partition's interleave chunk; the pool's line
// at least), covering the bytes the lanes ask for there. Their responses
// only time them.
void make_zero_queries(MemInst& m, int cu, int wave, unsigned span, RequestPool& pool, std::vector<MemRequest*>& out);

// How many distinct lines of `line_bytes` the Global chunks of `plan` touch.
unsigned lines_touched(const isa::MemPlan& plan, unsigned line_bytes);

// Whether every byte a load request's pieces read is zero, in `plan`'s data
// (the values read at execute).
bool reads_only_zeros(const MemRequest& r, const isa::MemPlan& plan);

}  // namespace tessera
