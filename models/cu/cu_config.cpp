#include "models/cu/cu_config.h"

#include <cstring>

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

namespace {

// MFMA occupancy by shape: the CDNA2 ISA guide lists each MFMA's passes
// (4 cycles each): 32x32 shapes take 16 passes, 16x16 take 8, 4x4 take 2;
// the f64 MFMAs take 8 (16x16x4) and 4 (4x4x4) passes.
json default_mfma_cycles() {
  return json{{"32x32", 64}, {"16x16", 32}, {"4x4", 8}, {"16x16x4f64", 32}, {"4x4x4f64", 16}};
}

}  // namespace

unsigned CuConfig::mfma_cycles_of(const char* mnemonic) const {
  unsigned best = 0;
  size_t best_len = 0;
  for (const auto& [fragment, cycles] : mfma_cycles)
    if (fragment.size() > best_len && std::strstr(mnemonic, fragment.c_str())) {
      best = cycles;
      best_len = fragment.size();
    }
  return best;
}

const ParamTable<CuConfig>& cu_param_table() {
  auto cycles = [](const char* name, int64_t def, const char* doc, double min = 0) {
    return int_param(name, def, doc, min, 1e6, "cycles");
  };
  // mfma_cycles and scheduler are stored nowhere by the table: from() reads
  // them into their own types.
  static const auto table =
      ParamTable<CuConfig>()
          .add(&CuConfig::simds,
               int_param("simds", 4, "SIMD units; waves of a workgroup spread over them round-robin", 1, 16, "SIMDs"))
          .add(&CuConfig::wave_slots, int_param("wave_slots", 10, "wave slots per SIMD", 1, 64, "waves"))
          .add(&CuConfig::vgprs,
               int_param("vgprs", 512, "VGPRs (VGPRs and AGPRs, unified) per SIMD lane", 8, 4096, "registers"))
          .add(&CuConfig::vgpr_granule,
               int_param("vgpr_granule", 8, "a wave's VGPR+AGPR allocation is rounded up to this", 1, 256, "registers"))
          .add(&CuConfig::sgprs, int_param("sgprs", 800, "SGPRs per SIMD", 16, 65536, "registers"))
          .add(&CuConfig::sgpr_granule,
               int_param("sgpr_granule", 16, "a wave's SGPR allocation is rounded up to this", 1, 256, "registers"))
          .add(&CuConfig::lds_size, size_param("lds_size", "64 KiB", "LDS bytes per CU", 0.0, 16.0 * 1024 * 1024))
          .add(&CuConfig::lds_granule,
               size_param("lds_granule", "512 B", "a workgroup's LDS allocation is rounded up to this (power of two)",
                          4.0, 65536.0))
          .add(&CuConfig::lds_banks, int_param("lds_banks", 32, "LDS banks of 4 bytes (power of two)", 1, 256, "banks"))
          .add(&CuConfig::simd_width,
               int_param("simd_width", 16,
                         "lanes a SIMD processes per cycle: a wave64 VALU op occupies it 64/simd_width cycles", 1, 64,
                         "lanes"))
          .add(&CuConfig::valu_latency,
               cycles("valu_latency", 4, "VALU issue to result usable by a dependent instruction of the same wave", 1))
          .add(&CuConfig::trans_cycles,
               cycles("trans_cycles", 16,
                      "cycles a transcendental op (exp, log, rcp, rsq, sqrt, sin, cos) occupies its SIMD", 1))
          .add(&CuConfig::dp_cycles,
               cycles("dp_cycles", 4, "cycles an f64 VALU op occupies its SIMD (CDNA2 runs f64 at the f32 rate)", 1))
          .add(json_param(
              "mfma_cycles", default_mfma_cycles(),
              "cycles an MFMA occupies its SIMD's matrix core and until its result is usable, by mnemonic "
              "fragment (the longest fragment found in the mnemonic wins); default from the CDNA2 ISA guide's "
              "pass counts x 4 cycles"))
          .add(
              &CuConfig::mfma_rate,
              int_param("mfma_rate", 1,
                        "matrix-core rate multiplier (1, 2, 4: the next-generation rates): divides every MFMA's cycles "
                        "(rounded up)",
                        1, 16, "x"))
          .add(&CuConfig::lds_multicast,
               bool_param("lds_multicast", false,
                          "the LDS multicast unit: two marked ds_read* of different waves of a workgroup with the same "
                          "addresses and registers share one LDS access (docs/IWMA.md)"))
          .add(&CuConfig::lds_multicast_table,
               int_param("lds_multicast_table", 64,
                         "load request table entries of the LDS multicast unit (0: none waits)", 0, 4096, "entries"))
          .add(
              &CuConfig::lds_multicast_queue,
              int_param("lds_multicast_queue", 8,
                        "LDS requests that may wait for the banks while the multicast unit is on", 0, 4096, "requests"))
          .add(&CuConfig::lds_multicast_wait,
               cycles("lds_multicast_wait", 1024,
                      "cycles a marked read may wait in the load request table for its partner"))
          .add(&CuConfig::darsie,
               bool_param(
                   "darsie", false,
                   "DARSIE: in a workgroup, the first wave on the majority path executes a vector instruction marked "
                   "redundant (DR, or CR in a 2D workgroup with a power-of-two x-size <= 64) and the others skip it "
                   "(docs/DARSIE.md)"))
          .add(&CuConfig::darsie_count,
               bool_param(
                   "darsie_count", false,
                   "count executed vector instructions by DARSIE class (DR, CR, V) without skipping (on with darsie)"))
          .add(&CuConfig::darsie_skip_table,
               int_param("darsie_skip_table", 8, "DARSIE's PC skip table entries per workgroup", 1, 64, "entries"))
          .add(&CuConfig::darsie_rename_vgprs,
               int_param(
                   "darsie_rename_vgprs", 32,
                   "DARSIE's renamed VGPRs per workgroup, at most: taken from the VGPRs its SIMDs leave unallocated "
                   "at the current occupancy",
                   0, 512, "VGPRs"))
          .add(&CuConfig::darsie_check,
               bool_param(
                   "darsie_check", false,
                   "DARSIE's checking mode (with darsie): a follower computes each skipped instruction and compares it "
                   "with the leader's value lane by lane; a difference faults the workgroup naming the instruction"))
          .add(&CuConfig::salu_latency, cycles("salu_latency", 1, "SALU issue to result usable", 1))
          .add(&CuConfig::branch_latency,
               cycles("branch_latency", 2, "branch issue to the wave's next issue (a taken branch also refetches)", 1))
          .add(&CuConfig::lds_latency,
               cycles("lds_latency", 32, "an LDS instruction's last bank cycle to the decrement of its lgkmcnt"))
          .add(&CuConfig::smem_issue_cycles,
               cycles("smem_issue_cycles", 1, "cycles a scalar memory instruction occupies the scalar memory pipe", 1))
          .add(&CuConfig::vmem_issue_cycles, cycles("vmem_issue_cycles", 4,
                                                    "cycles a vector memory instruction occupies the vector memory "
                                                    "pipe at least (64 lane addresses at 16 "
                                                    "per cycle); one more per coalesced request beyond that",
                                                    1))
          .add(&CuConfig::sleep_unit, cycles("sleep_unit", 64, "cycles per count of s_sleep", 1))
          .add(&CuConfig::vmem_line,
               size_param("vmem_line", "64 B",
                          "line size of the vector L1: the coalescer sends one request per line touched", 4.0, 4096.0))
          .add(&CuConfig::smem_line, size_param("smem_line", "64 B", "line size of the scalar cache", 4.0, 4096.0))
          .add(&CuConfig::max_vmem_requests,
               int_param("max_vmem_requests", 64, "vector memory requests in flight per CU (sent, not yet answered)", 1,
                         65536, "requests"))
          .add(&CuConfig::vmem_queue,
               int_param("vmem_queue", 64,
                         "coalesced vector requests waiting to be sent before vector memory issue stalls", 1, 65536,
                         "requests"))
          .add(&CuConfig::max_smem_requests,
               int_param("max_smem_requests", 16, "scalar memory requests in flight per CU", 1, 65536, "requests"))
          .add(&CuConfig::max_fetches,
               int_param("max_fetches", 8, "instruction fetches in flight per CU", 1, 1024, "requests"))
          .add(&CuConfig::fetch_bytes,
               size_param("fetch_bytes", "32 B", "bytes per instruction fetch (aligned)", 4.0, 4096.0))
          .add(&CuConfig::ib_depth,
               int_param("ib_depth", 2,
                         "instruction buffer per wave, in fetch blocks ((ib_depth - 1) x fetch_bytes at least 8 bytes)",
                         1, 64, "fetch blocks"))
          .add(&CuConfig::fetch_base,
               size_param("fetch_base", "0x0",
                          "added to code-object addresses (PCs) to form instruction fetch addresses"))
          .add(&CuConfig::launch_latency,
               cycles("launch_latency", 4, "cycles to launch one wave; a CU launches its waves one after another"))
          .add(&CuConfig::issue_period,
               cycles("issue_period", 1,
                      "cycles between a SIMD's issue turns: SIMD s considers its waves at cycles c with c % "
                      "issue_period == "
                      "s % issue_period (CDNA2: 4, one SIMD per cycle, with one SALU/SMEM and one branch/s_endpgm per "
                      "cycle); 1, the default, lets every SIMD issue every cycle",
                      1))
          .add(enum_param("scheduler", "oldest", {"oldest", "round_robin"},
                          "issue priority among ready waves: oldest first, or rotating one position per cycle"))
          .add_flag(&CuConfig::values_at_execute,
                    enum_param(
                        "load_values", "response", {"response", "execute"},
                        "where a load's value comes from: its timing response, or a debug read through the same caches "
                        "when it executes (the timing is the same either way)"),
                    "execute")
          .add(&CuConfig::lazy_loads,
               bool_param(
                   "lazy_loads", false,
                   "LazyGPU's lazy unit: a vector global load is valued when it executes and its requests wait, in "
                   "per-lane busy bits of its destinations, until an instruction reads them; not counted in vmcnt; "
                   "overwritten or never-read lanes send no request (docs/LAZYGPU.md)"))
          .add(&CuConfig::lazy_zero_products,
               bool_param(
                   "lazy_zero_products", false,
                   "LazyGPU's elimination of loads feeding a product (with lazy_loads): a multiply, FMA/MAC/mad or AND "
                   "does not wait for the lanes of a deferred multiplicand whose partner operand is 0; they are never "
                   "requested if overwritten before another read (docs/LAZYGPU.md)"))
          .add(&CuConfig::lazy_whole_loads,
               bool_param(
                   "lazy_whole_loads", false,
                   "with lazy_loads: a reader of any destination register of a deferred multi-register load requests "
                   "the whole load (every register) for the lanes it reads, as LazyGPU keeps one request per lane and "
                   "load (its Table 1); false: only the registers it reads (docs/LAZYGPU.md)"))
          .add(&CuConfig::zero_queries,
               bool_param("zero_queries", false,
                          "LazyGPU's zero-mask queries: a vector global load sends ZeroMask queries down vmem for its "
                          "words and requests only what holds a non-zero word; with lazy_loads the queries at execute "
                          "and the data when a reader needs the lanes, without it queries and data requests together "
                          "at execute (docs/LAZYGPU.md)"))
          .add(&CuConfig::zero_query_span,
               size_param("zero_query_span", "0 B",
                          "bytes of data one zero-mask query covers at most: the memory's partition interleave chunk "
                          "(one query per partition a load touches, as LazyGPU's zero-cache transactions); 0: one per "
                          "vmem line",
                          0.0, 1024.0 * 1024))
          .add(&CuConfig::assist_warps,
               bool_param(
                   "assist_warps", false,
                   "CABA's assist warps: a vector load's line answered compressed (GpuAccess::cu_decompress) is "
                   "rebuilt by the BDI decompression routine of the Assist Warp Store, issued at high priority on the "
                   "CU's units, before the load completes; each wave reserves assist_warp_vgprs more VGPRs "
                   "(docs/CABA.md, \"Assist warps\")"))
          .add(&CuConfig::assist_warp_vgprs,
               int_param("assist_warp_vgprs", 16, "VGPRs each wave reserves for its assist warps (with assist_warps)",
                         16, 256, "registers"))
          .add(&CuConfig::assist_store_buffer,
               int_param(
                   "assist_store_buffer", 8,
                   "with assist_warps: whole-line stores held at once for low-priority compression (the paper buffers "
                   "them in a few dedicated L1 sets; 8 is two sets of its 4-way L1); a store finding it full goes "
                   "uncompressed",
                   2, 1024, "lines"))
          .add(&CuConfig::assist_warps_per_wave,
               int_param(
                   "assist_warps_per_wave", 0,
                   "decompression assist warps a wave may run at once (with assist_warps). The paper allows one "
                   "instance of a routine per thread: a rebuild takes 3 VGPRs (v2 to v4) in at most vmem_line / 2 "
                   "lanes (one value a lane, 2-byte values the narrowest), so a wave's assist_warp_vgprs reserved "
                   "VGPRs hold (assist_warp_vgprs / 3) x (64 / min(64, vmem_line / 2)) of them in disjoint registers "
                   "and lanes, each with its own active mask; 0 is that many, and more reserve assist_warp_vgprs "
                   "again for each such group",
                   0, 64, "assist warps"))
          .add(&CuConfig::assist_compress_off,
               string_param("assist_compress_off", "",
                            "with assist_warps: kernels (names, comma- or space-separated) whose whole-line stores "
                            "never get a compression assist warp and go uncompressed: the static switch"))
          .add(&CuConfig::assist_compress_counter,
               int_param("assist_compress_counter", 3,
                         "with assist_warps: the maximum of each kernel's saturating counter of compression "
                         "outcomes (up for a compressed line, down for an uncompressed one; it starts there); at "
                         "zero the kernel's stores go uncompressed without an assist warp but for re-samples. 0: "
                         "no dynamic policy, every whole-line store is compressed",
                         0, 255, "outcomes"))
          .add(&CuConfig::assist_compress_sample,
               int_param("assist_compress_sample", 64,
                         "with assist_warps and a kernel's counter at zero: one in this many of its whole-line "
                         "stores is compressed anyway, to re-sample its data",
                         1, 1 << 20, "stores"))
          .add(&CuConfig::assist_warp_check,
               bool_param(
                   "assist_warp_check", false,
                   "with assist_warps: compare every line an assist warp rebuilds with the line's bytes read through "
                   "the caches; a mismatch stops the run with an error naming the wave, address and encoding"));
  return table;
}

CuConfig CuConfig::defaults() { return from(cu_param_table().default_params(), "compute_unit"); }

CuConfig CuConfig::from(const Params& p, const std::string& path) {
  CuConfig c = cu_param_table().read(p);
  c.scheduler = p.string("scheduler") == "round_robin" ? CuScheduler::RoundRobin : CuScheduler::Oldest;
  c.darsie_count = c.darsie_count || c.darsie;
  if (c.zero_query_span == 0) c.zero_query_span = c.vmem_line;
  if (c.assist_warps_per_wave == 0) c.assist_warps_per_wave = c.assist_per_register_set();

  auto fail = [&](const std::string& param, const std::string& what) {
    throw UserError(path + ": parameter '" + param + "': " + what);
  };
  for (const char* n : {"vmem_line", "smem_line", "fetch_bytes", "lds_granule"})
    if (!is_power_of_two(p.size(n))) fail(n, "expected a power of two, got " + std::to_string(p.size(n)));
  c.fetch_shift = log2_of(c.fetch_bytes);
  // The buffer starts at the block holding the PC, and the longest
  // instruction (12 bytes) may start at a block's last dword: it reaches 8
  // bytes past that block. A buffer too short for it could never issue it.
  if ((c.ib_depth - 1) * c.fetch_bytes < 8)
    fail("ib_depth", "(ib_depth - 1) x fetch_bytes must be at least 8 bytes, got ib_depth " +
                         std::to_string(c.ib_depth) + " and fetch_bytes " + std::to_string(c.fetch_bytes) +
                         ": the longest instruction (12 bytes) may start at a fetch block's last dword, and the "
                         "instruction buffer must hold it there");
  if (!is_power_of_two(c.lds_banks)) fail("lds_banks", "expected a power of two, got " + std::to_string(c.lds_banks));
  if (c.assist_warps && c.vmem_line > 256)
    fail("vmem_line", "an assist warp rebuilds a line in one register (4 bytes a lane): at most 256 bytes with "
                      "assist_warps, got " + std::to_string(c.vmem_line));
  if (!is_power_of_two(c.zero_query_span) || c.zero_query_span < c.vmem_line)
    fail("zero_query_span", "expected 0 or a power of two of at least vmem_line (" + std::to_string(c.vmem_line) +
                                " B), got " + std::to_string(c.zero_query_span));
  if (c.lazy_whole_loads && !c.lazy_loads) fail("lazy_whole_loads", "needs lazy_loads");
  if (c.lazy_zero_products && !c.lazy_loads)
    fail("lazy_zero_products", "needs lazy_loads: only deferred loads can be eliminated by a zero partner operand");
  if (c.darsie_check && !c.darsie) fail("darsie_check", "needs darsie: only skipped instructions are checked");
  const json& m = p.raw("mfma_cycles");
  if (!m.is_object() || m.empty())
    fail("mfma_cycles", "expected an object mapping MFMA mnemonic fragments to cycles, e.g. {\"32x32\": 64}");
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (!it.value().is_number_integer() || it.value().get<int64_t>() < 1 || it.value().get<int64_t>() > 100000)
      fail("mfma_cycles", "entry '" + it.key() + "': expected an integer number of cycles in [1, 100000], got " +
                              it.value().dump());
    c.mfma_cycles.emplace_back(it.key(), static_cast<unsigned>(it.value().get<int64_t>()));
  }
  return c;
}

}  // namespace tessera
