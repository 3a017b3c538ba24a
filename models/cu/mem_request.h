// The compute unit's memory transactions: one memory instruction in flight
// (MemInst, holding its two-phase plan) and the line requests the coalescer
// makes of it (MemRequest, each a TLM generic payload with a GpuAccess
// extension), recycled through pools so that steady-state issue allocates
// nothing.
//
// MemRequest payloads use a memory manager: the CU acquires a payload when it
// sends it and releases it when the response is taken; a block that keeps the
// payload longer acquires it too. When the last reference goes, the payload
// returns to its pool.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include <tlm>

#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/mem_plan.h"
#include "models/mem/gpu_access.h"

namespace tessera {

struct WaveSlot;

// One memory instruction (vector, scalar) between issue and completion.
struct MemInst {
  isa::MemPlan plan;
  const isa::DecodedOp* op = nullptr;
  WaveSlot* wave = nullptr;
  uint64_t issued = 0;     // cycle
  unsigned pending = 0;    // requests not answered yet
  bool error = false;      // a response carried an error status
  bool counts_vm = false, counts_lgkm = false;
  bool scalar = false;
  // A lazy unit's request group (lazy_unit.h): not in vmcnt; its registers
  // hold their values already. The lanes of registers [lazy_first,
  // lazy_first + lazy_regs) it requested, per register.
  bool lazy = false;
  unsigned lazy_first = 0, lazy_regs = 0;
  uint64_t lazy_lanes[4] = {};
  // With zero_queries, a lazy group first sends its ZeroMask queries
  // (`zero_phase`, `queries` of them); when they are back it requests the
  // lanes of lazy_lanes not in lazy_zero (those whose dword is zero).
  bool zero_phase = false;
  unsigned queries = 0;
  uint64_t lazy_zero[4] = {};
  // Non-zero: the queries a lazy load sends when it executes, for the
  // record of that serial (lazy_unit.h); its non-zero lanes stay deferred.
  uint32_t lazy_record = 0;
};

// A piece of a chunk that lies inside one request's line.
struct Piece {
  uint16_t line_offset;  // from the request's address
  uint16_t data_offset;  // into MemPlan::data
  uint16_t bytes;        // up to a line (a packed plan's chunk covers whole lines)
};

class RequestPool;

// The payload itself, so that a response leads straight back to its request
// (no extension lookup, no pool table: a response's request is cold by the
// time it returns, and each dependent load is a cache miss).
struct MemRequest : tlm::tlm_generic_payload {
  GpuAccess* access = nullptr;       // owned by the payload (its extension)
  std::vector<uint8_t> data, enables;
  std::vector<Piece> pieces;         // in lane order (atomics: one per GpuAccess lane)
  MemInst* inst = nullptr;           // nullptr: an instruction fetch
  // Instruction fetches: the wave and its buffer generation at request time.
  WaveSlot* fetch_wave = nullptr;
  uint32_t fetch_gen = 0;
  uint64_t fetch_block = 0;          // the block's PC
  uint64_t sent = 0;                 // cycle the request was sent
  bool value_read = false;           // its bytes were read when the load executed: the response only times it
  bool held = false;                 // not sent before an assist warp has compressed its line (CABA)
  uint32_t index = 0;                // in its pool; GpuAccess::tag carries it
};

class RequestPool : public tlm::tlm_mm_interface {
 public:
  explicit RequestPool(unsigned line_bytes) : line_(line_bytes) {}
  ~RequestPool() override;
  // A request with its payload reset to a fresh read of `line_` bytes'
  // capacity, holding one reference.
  MemRequest* get();
  void free(tlm::tlm_generic_payload* trans) override;
  unsigned line_bytes() const { return line_; }
  // The request a payload of this pool is (every payload a pool hands out is a MemRequest).
  static MemRequest* from(tlm::tlm_generic_payload& trans) { return static_cast<MemRequest*>(&trans); }

 private:
  unsigned line_;
  std::vector<std::unique_ptr<MemRequest>> all_;
  std::vector<MemRequest*> free_;
};

// Recycled MemInst objects (each holds a ~1 KiB plan).
class MemInstPool {
 public:
  MemInst* get();
  void put(MemInst* m) { free_.push_back(m); }

 private:
  std::vector<std::unique_ptr<MemInst>> all_;
  std::vector<MemInst*> free_;
};

}  // namespace tessera
