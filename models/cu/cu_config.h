// The parameters of a compute unit, read once from the netlist and checked.
//
// Every latency and occupancy is in CU clock cycles. The defaults describe a
// CDNA2 (MI200) compute unit: 4 SIMDs of 16 lanes (a wave64 VALU op holds its
// SIMD 4 cycles), 10 wave slots per SIMD, 512 VGPRs per SIMD lane, 800 SGPRs
// per SIMD, 64 KiB of LDS in 32 banks. docs/CU.md explains each one.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "platform/param_table.h"

namespace tessera {

enum class CuScheduler : uint8_t { Oldest, RoundRobin };

struct CuConfig {
  // Resources and occupancy.
  unsigned simds;
  unsigned wave_slots;     // per SIMD
  unsigned vgprs;         // per SIMD lane (unified VGPR+AGPR file)
  unsigned vgpr_granule;
  unsigned sgprs;         // per SIMD
  unsigned sgpr_granule;
  uint32_t lds_size;
  uint32_t lds_granule;
  unsigned lds_banks;

  // Issue and execution timing.
  unsigned simd_width;     // lanes per cycle: a wave64 VALU op occupies its SIMD 64 / simd_width cycles
  unsigned valu_latency;    // issue to result usable by a dependent instruction
  unsigned trans_cycles;   // transcendental ops (exp, log, rcp, rsq, sqrt, sin, cos) occupy the SIMD
  unsigned dp_cycles;       // f64 VALU ops occupy the SIMD
  unsigned salu_latency;
  unsigned branch_latency;  // branch issue to the wave's next issue
  unsigned lds_latency;     // LDS instruction's last bank cycle to its lgkmcnt decrement
  unsigned smem_issue_cycles;
  unsigned vmem_issue_cycles;  // address processing of a wave64 vector memory instruction
  unsigned sleep_unit;     // cycles per s_sleep count
  // MFMA: (mnemonic fragment, cycles); the longest fragment found in the
  // mnemonic wins.
  std::vector<std::pair<std::string, unsigned>> mfma_cycles;
  unsigned mfma_rate;       // matrix-core speed-up: MFMA occupancy and latency are divided by it

  // The LDS multicast unit (models/lds/lds_multicast.h, docs/IWMA.md).
  bool lds_multicast;
  unsigned lds_multicast_table;  // load request table entries
  unsigned lds_multicast_queue;   // LDS requests that may wait for the banks while the unit is on
  unsigned lds_multicast_wait; // cycles a read may wait in the table for its partner

  // DARSIE (darsie_unit.h, docs/DARSIE.md): followers skip vector instructions
  // a workgroup's leader wave already executed.
  bool darsie;
  bool darsie_count;           // count executed vector instructions by DARSIE class (on with darsie)
  unsigned darsie_skip_table;      // PC skip table entries per workgroup
  unsigned darsie_rename_vgprs;   // renamed VGPRs per workgroup, at most (from unallocated space)
  bool darsie_check;           // followers compute skipped values and compare them with the leader's

  // Memory interfaces.
  unsigned vmem_line;       // line of the vector L1 (requests never cross it)
  unsigned smem_line;       // line of the scalar cache
  unsigned max_vmem_requests;  // vector memory line requests in flight per CU (sent, not answered)
  unsigned vmem_queue;      // coalesced requests waiting to be sent before VMEM issue stalls
  unsigned max_smem_requests;
  unsigned max_fetches;      // instruction fetches in flight per CU
  unsigned fetch_bytes;     // bytes per instruction fetch
  unsigned fetch_shift = 5;      // log2(fetch_bytes): the instruction buffer divides by shifting
  unsigned ib_depth;         // fetch blocks buffered per wave
  uint64_t fetch_base;       // added to code-object addresses to form instruction fetch addresses
  unsigned launch_latency;   // cycles to launch one wave (waves launch one after another)
  // Issue turns: SIMD s may issue at cycles c with c % issue_period ==
  // s % issue_period (CDNA2: 4, one SIMD per cycle, set by every platform
  // netlist); 1, the default, lets every SIMD issue every cycle, the model the
  // unit tests' cycle counts were derived with (docs/CU.md, "Issue turns").
  unsigned issue_period;
  CuScheduler scheduler = CuScheduler::Oldest;
  // Where a load's value comes from: its timing response (default), or a
  // debug read through the same caches when it executes (values apart from
  // timing: the timing request may then be deferred or resized).
  bool values_at_execute;
  // LazyGPU's lazy unit (lazy_unit.h, docs/LAZYGPU.md): vector global loads
  // are valued at execute and their requests deferred until a reader needs them.
  bool lazy_loads;
  // ⊗ elimination (with lazy_loads): a multiply/FMA/AND does not wait for a
  // deferred multiplicand's lanes whose partner operand is 0.
  bool lazy_zero_products;
  // With lazy_loads: a reader of one register of a deferred multi-register
  // load requests all of the load's registers (for the lanes it reads).
  bool lazy_whole_loads;
  // LazyGPU's zero-mask queries (docs/LAZYGPU.md): a vector global load asks
  // the zero caches which of its words are zero and requests only what holds
  // a non-zero word (lazily: queries at execute, data when a reader needs it;
  // without lazy_loads, both at execute: the eager_zc design).
  bool zero_queries;
  // Bytes of data one zero-mask query covers at most (a partition's
  // interleave chunk; vmem_line unless set).
  unsigned zero_query_span;
  // CABA's assist warps (assist_warp_controller.h, docs/CABA.md): compressed
  // lines answered to vector loads are rebuilt by gfx90a routines before the
  // load completes; each wave reserves assist_warp_vgprs VGPRs for them.
  bool assist_warps;
  unsigned assist_warp_vgprs;
  unsigned assist_store_buffer;   // whole-line stores held for compression at once (the paper's L1 sets)
  // Decompression assist warps live at once per wave: by default as many as
  // the reserved VGPRs hold (assist_per_register_set()).
  unsigned assist_warps_per_wave;
  // VGPRs a decompression routine uses (v2 to v4, sw/assist/bdi_decompress.s).
  static constexpr unsigned kAssistDecompressVgprs = 3;
  // Decompression assist warps one set of assist_warp_vgprs holds: groups of
  // kAssistDecompressVgprs registers, times the groups of lanes a rebuild
  // takes in each (one value a lane; at most vmem_line / 2 lanes, base2's
  // 2-byte values, and at most the 64 of a register).
  unsigned assist_per_register_set() const {
    const unsigned lanes = std::min(64u, std::max(1u, vmem_line / 2));
    return std::max(1u, assist_warp_vgprs / kAssistDecompressVgprs) * (64 / lanes);
  }
  // Sets of assist_warp_vgprs a wave reserves for the assist warps it may
  // run at once.
  unsigned assist_register_sets() const {
    return (assist_warps_per_wave + assist_per_register_set() - 1) / assist_per_register_set();
  }
  // Whole-line stores that get a compression assist warp
  // (assist_compress_policy.h): kernels never compressed (a comma- or
  // space-separated list of names), and the dynamic policy's counter maximum
  // (0: off) and re-sampling period.
  std::string assist_compress_off;
  unsigned assist_compress_counter;
  unsigned assist_compress_sample;
  bool assist_warp_check;  // compare each rebuilt line with the line's bytes

  // Cycles a wave64 VALU op occupies its SIMD.
  unsigned valu_cycles() const { return (64 + simd_width - 1) / simd_width; }
  // Cycles of an MFMA by mnemonic; 0 if no fragment matches.
  unsigned mfma_cycles_of(const char* mnemonic) const;

  // Reads and checks the parameters of block `path`; throws UserError naming
  // the block and the parameter for an impossible configuration.
  static CuConfig from(const Params& p, const std::string& path);
  // Every parameter at its declared default (a compute_unit the netlist sets
  // nothing of).
  static CuConfig defaults();
};

// The compute_unit block's parameters, each declared once: the schema
// (`specs()`) and the reading into a CuConfig (`read()`, which from() uses).
const ParamTable<CuConfig>& cu_param_table();

}  // namespace tessera
