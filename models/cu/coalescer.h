// The address coalescer: turns the device-memory chunks of one memory
// instruction's plan into line requests, one per distinct line touched, in
// the order lanes first touch them.
//
// A chunk that crosses a line boundary is split. A request covers the bytes
// its pieces touch, [lowest, highest) within the line: loads read that span;
// stores write it with byte enables when the pieces do not cover all of it
// (later lanes overwrite earlier ones, as lanes store in order); atomics
// carry one GpuAccess lane per chunk with its offset from the request's
// address and its operands, and write no bytes themselves.
// LDS chunks (flat accesses through the shared aperture) are not coalesced:
// the CU serves them itself.
#pragma once
#include <cstdint>
#include <vector>

#include "models/cu/mem_request.h"

namespace tessera {

class Coalescer {
 public:
  // Appends to `out` the requests for `inst`'s Global chunks. `kind` is the
  // GpuAccess kind for the requests; cu/wave identify the requester.
  static void coalesce(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                       std::vector<MemRequest*>& out);
  // coalesce() for any plan. coalesce() itself takes a fast path when
  // takes_fast_path() (no piece lies in a lower line than the piece before
  // it: unit stride, strided, uniform; not atomics), which must give exactly
  // what this gives; the tests compare the two.
  static void coalesce_general(MemInst& inst, AccessKind kind, int cu, int wave, RequestPool& pool,
                               std::vector<MemRequest*>& out);
  static bool takes_fast_path(const isa::MemPlan& plan, AccessKind kind, unsigned line_bytes);
  // Copies a load's or atomic's returned bytes into the plan.
  static void scatter(const MemRequest& req, isa::MemPlan& plan);
};

}  // namespace tessera
