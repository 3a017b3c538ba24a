// Hooks a mechanism attaches to inside a compute unit: an observer the CU
// calls before a wave issues an instruction and when a memory
// instruction's data is back. With no observer attached the CU pays one
// empty-vector test per issue and per completed memory instruction.
//
// Observers see the wave slot (registers, scoreboard, marks) and may not
// change the architectural state; before_issue may hold a wave back.
#pragma once
#include <cstdint>

#include "models/cu/isa/decode_cache.h"

namespace tessera {

struct WaveSlot;
struct MemInst;

class CuObserver {
 public:
  virtual ~CuObserver() = default;
  // Wave `w` passed every issue check for `op` at cycle c. Returning false
  // holds it back: it does not issue and is considered again at c + 1
  // (the cycle counts as a structural stall).
  virtual bool before_issue(const WaveSlot& w, const isa::DecodedOp& op, uint64_t c) {
    (void)w, (void)op, (void)c;
    return true;
  }
  // Every response of memory instruction `m` of wave `w` is back at cycle
  // c; its destination registers are written right after this call.
  virtual void on_memory_response(const WaveSlot& w, const MemInst& m, uint64_t c) { (void)w, (void)m, (void)c; }
};

}  // namespace tessera
