// What a GPU memory transaction carries besides address, command and data.
//
// Every transaction on the GPU's memory side (CU -> L1V / scalar / instruction
// cache -> crossbar -> L2 -> DRAM controller) is a tlm_generic_payload with a
// GpuAccess extension. Requests never cross a line of the cache they are sent
// to. Partial writes use the payload's byte-enable array (0xff = written).
//
// Atomics travel as TLM_WRITE_COMMAND with kind Atomic and one AtomicLane per
// active lane, in lane order. The level that owns the data (the L2, or a DRAM
// controller without an L2 in front of it) applies them in that order with
// isa::mem::rmw() and fills each lane's `old`, which the CU writes back to the
// destination registers when the instruction returns data. Caches above the
// owner (L1V) forward atomics and drop their own copy of the line.
//
// Cache maintenance (write back dirty lines, invalidate) travels on a cache's
// `ctrl` socket as a transaction with a CacheCommand extension; the cache
// answers when every line it had to touch is done, so the time between request
// and response is the command's cost.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <tlm>

#include "models/cu/isa/sem_memory_common.h"
#include "models/mem/bdi.h"

namespace tessera {

enum class AccessKind : uint8_t {
  Load,        // vector memory read (global, flat, scratch, buffer)
  Store,       // vector memory write
  Atomic,      // read-modify-write, applied by the data's owner
  ScalarLoad,  // SMEM read through the scalar cache
  InstFetch,   // instruction fetch through the instruction cache
  Writeback,   // a cache writing a dirty line back to the next level
  Fill,        // a cache fetching a line from the next level
  // A zero-cache mask query (LazyGPU): a READ whose address and length name
  // the data words asked about (4-byte aligned, inside one mask line's
  // coverage at every level). It travels the data's own route, so a mask line
  // is homed where its data is. A cache with a zero cache answers it from its
  // mask array (a miss fetches the mask line from below as another ZeroMask
  // query); a cache without one passes it down; memory charges a read of the
  // mask bytes (one bit per word). The payload's data is not a result: the
  // requester learns which words are zero from the values themselves (the
  // masks are kept coherent with every write, so they agree), and the query
  // stands for the time and traffic of the mask lookup.
  // Between caches (docs/CACHES.md, "Zero cache"): a cache's mask fill is
  // such a READ addressed at the first data word its mask line covers, as
  // long as the mask line (the bytes that move); a dirty mask line goes below
  // as a ZeroMask WRITE of the same address and length with no byte enabled,
  // so that it costs a mask line's traffic and changes no data.
  ZeroMask,
};

const char* access_kind_name(AccessKind kind);

struct AtomicLane {
  uint32_t offset = 0;  // byte offset from the transaction's address
  uint64_t src = 0;     // the lane's data operand
  uint64_t cmp = 0;     // compare value (compare-swap) or second operand (mskor)
  uint64_t old = 0;     // filled by the owner: the memory value before this lane's update
};

class GpuAccess : public tlm::tlm_extension<GpuAccess> {
 public:
  AccessKind kind = AccessKind::Load;
  int32_t cu = -1;           // requesting compute unit, -1 for none (cache fills, host)
  int32_t wave = -1;         // wave slot inside the CU, -1 for none
  uint64_t tag = 0;          // the requester's own id for this transaction
  bool glc = false;          // globally coherent: the L1 neither hits nor allocates
  bool slc = false;          // streaming: do not keep in the L2 when it can be avoided
  // The requester takes a BEGIN_RESP annotated with a delay as arriving then
  // and completes it at once (TLM_COMPLETED, never END_RESP). A cache may then
  // answer from its tag lookup (a hit's BEGIN_RESP, annotated with the hit
  // latency, standing for END_REQ), a DRAM controller when it issues the
  // column command and a crossbar when it takes the answer from its target,
  // instead of waking again when the answer is due. Set by
  // the requester itself (a compute unit, a cache on what it sends below); a
  // block that passes the request on and takes the answer through the four
  // phases clears it (take_four_phase). A target may ignore it.
  bool early_response = false;

  // CABA (docs/CABA.md), both left `uncompressed` unless the netlist turns
  // compression with assist warps on:
  // - cu_decompress, on the answer to a vector load: the line it was served
  //   from arrived from below compressed with this encoding, and the
  //   requesting compute unit's assist warps decompress it before the load's
  //   data count as returned (set by the vector L1 on the fill's answers).
  // - cu_compressed, on a store: the compute unit's assist warps compressed
  //   the written line with this encoding, so the levels below carry and
  //   hold it at that size.
  bdi::Encoding cu_decompress = bdi::Encoding::uncompressed;
  bdi::Encoding cu_compressed = bdi::Encoding::uncompressed;
  // With cu_decompress: which fill of the L1 it was (numbered from 1 per
  // cache), so that the compute unit rebuilds a line once per fill however
  // many requests that fill answers.
  uint64_t cu_fill = 0;
  // The data this transaction carries (a write's, or a read's answer) crosses
  // links and DRAM compressed with this encoding: its size on the wire is
  // wire_bytes() below. Set by the level that compressed it (a cache or DRAM
  // controller with `compression` on); uncompressed otherwise.
  bdi::Encoding wire = bdi::Encoding::uncompressed;

  // Atomics only.
  isa::mem::Rmw op = isa::mem::Rmw::Add;
  isa::mem::Elem elem = isa::mem::Elem::U32;
  std::vector<AtomicLane> lanes;

  tlm::tlm_extension_base* clone() const override { return new GpuAccess(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const GpuAccess&>(other);
  }
  void reset() {
    *this = GpuAccess();
  }
};

// The bytes `t`'s data occupies on a link: its length, or the BDI image's
// size rounded up to whole 32-byte bursts when it travels compressed
// (GpuAccess::wire), never more than its length.
uint64_t wire_bytes(const tlm::tlm_generic_payload& t);

// Called by a block that forwards `t` (the same payload) and will take its
// answer through the four phases, not at once: the early_response promise was
// the requester's, not this block's.
inline void take_four_phase(tlm::tlm_generic_payload& t) {
  if (GpuAccess* a = t.get_extension<GpuAccess>()) a->early_response = false;
}

enum class CacheOp : uint8_t {
  Invalidate,           // drop every line; dirty data is lost (callers write back first)
  Writeback,            // write every dirty line back, keep clean copies
  WritebackInvalidate,  // both: the cache is empty and memory is current afterwards
};

const char* cache_op_name(CacheOp op);

class CacheCommand : public tlm::tlm_extension<CacheCommand> {
 public:
  CacheOp op = CacheOp::Invalidate;
  // Filled by the cache when it answers: what the command touched.
  uint64_t lines_written_back = 0;
  uint64_t lines_invalidated = 0;
  // Filled by the cache's debug transport on `ctrl` (transport_dbg, which
  // touches nothing and takes no time): true if it may hold dirty lines
  // (write_policy write_back), whether it applies atomics in its own copy
  // (write_back with atomics here), and its path for messages. A dispatcher
  // asks before the simulation starts.
  bool write_back = false;
  bool atomics_here = false;
  const std::string* path = nullptr;

  tlm::tlm_extension_base* clone() const override { return new CacheCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const CacheCommand&>(other);
  }
};

}  // namespace tessera
