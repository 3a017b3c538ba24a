#include "models/mem/gpu_access.h"

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

const char* cache_op_name(CacheOp op) {
  switch (op) {
    case CacheOp::Invalidate: return "invalidate";
    case CacheOp::Writeback: return "writeback";
    case CacheOp::WritebackInvalidate: return "writeback+invalidate";
  }
  return "?";
}

}  // namespace tessera
