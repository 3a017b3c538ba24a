#include "models/mem/gpu_access.h"

#include <algorithm>

namespace tessera {

const char* access_kind_name(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Atomic: return "atomic";
    case AccessKind::ScalarLoad: return "scalar load";
    case AccessKind::InstFetch: return "instruction fetch";
    case AccessKind::Writeback: return "writeback";
    case AccessKind::Fill: return "fill";
    case AccessKind::ZeroMask: return "zero mask";
  }
  return "?";
}

uint64_t wire_bytes(const tlm::tlm_generic_payload& t) {
  const uint64_t len = t.get_data_length();
  const GpuAccess* a = t.get_extension<GpuAccess>();
  if (!a || a->wire == bdi::Encoding::uncompressed) return len;
  const uint64_t bytes = uint64_t{bdi::bursts(bdi::stored_bytes(a->wire, len))} * bdi::kBurstBytes;
  return std::min(bytes, len);
}

const char* cache_op_name(CacheOp op) {
  switch (op) {
    case CacheOp::Invalidate: return "invalidate";
    case CacheOp::Writeback: return "writeback";
    case CacheOp::WritebackInvalidate: return "writeback+invalidate";
  }
  return "?";
}

}  // namespace tessera
