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

std::vector<ParamSpec> cu_param_specs() {
  auto cycles = [](const char* name, int64_t def, const char* doc, double min = 0) {
    return int_param(name, def, doc, min, 1e6, "cycles");
  };
  return {
      int_param("simds", 4, "SIMD units; waves of a workgroup spread over them round-robin", 1, 16, "SIMDs"),
      int_param("wave_slots", 10, "wave slots per SIMD", 1, 64, "waves"),
      int_param("vgprs", 512, "VGPRs (VGPRs and AGPRs, unified) per SIMD lane", 8, 4096, "registers"),
      int_param("vgpr_granule", 8, "a wave's VGPR+AGPR allocation is rounded up to this", 1, 256, "registers"),
      int_param("sgprs", 800, "SGPRs per SIMD", 16, 65536, "registers"),
      int_param("sgpr_granule", 16, "a wave's SGPR allocation is rounded up to this", 1, 256, "registers"),
      size_param("lds_size", "64 KiB", "LDS bytes per CU", 0.0, 16.0 * 1024 * 1024),
      size_param("lds_granule", "512 B", "a workgroup's LDS allocation is rounded up to this (power of two)", 4.0,
                 65536.0),
      int_param("lds_banks", 32, "LDS banks of 4 bytes (power of two)", 1, 256, "banks"),
      int_param("simd_width", 16, "lanes a SIMD processes per cycle: a wave64 VALU op occupies it 64/simd_width cycles",
                1, 64, "lanes"),
      cycles("valu_latency", 4, "VALU issue to result usable by a dependent instruction of the same wave", 1),
      cycles("trans_cycles", 16, "cycles a transcendental op (exp, log, rcp, rsq, sqrt, sin, cos) occupies its SIMD", 1),
      cycles("dp_cycles", 4, "cycles an f64 VALU op occupies its SIMD (CDNA2 runs f64 at the f32 rate)", 1),
      json_param("mfma_cycles", default_mfma_cycles(),
                 "cycles an MFMA occupies its SIMD's matrix core and until its result is usable, by mnemonic "
                 "fragment (the longest fragment found in the mnemonic wins); default from the CDNA2 ISA guide's "
                 "pass counts x 4 cycles"),
      int_param("mfma_rate", 1,
                "matrix-core rate multiplier (1, 2, 4: the next-generation rates): divides every MFMA's cycles "
                "(rounded up)",
                1, 16, "x"),
      bool_param("lds_multicast", false,
                 "the LDS multicast unit: two marked ds_read* of different waves of a workgroup with the same "
                 "addresses and registers share one LDS access (docs/IWMA.md)"),
      int_param("lds_multicast_table", 64, "load request table entries of the LDS multicast unit (0: none waits)", 0,
                4096, "entries"),
      int_param("lds_multicast_queue", 8, "LDS requests that may wait for the banks while the multicast unit is on",
                0, 4096, "requests"),
      cycles("lds_multicast_wait", 1024, "cycles a marked read may wait in the load request table for its partner"),
      bool_param("darsie", false,
                 "DARSIE: in a workgroup, the first wave on the majority path executes a vector instruction marked "
                 "redundant (DR, or CR in a 2D workgroup with a power-of-two x-size <= 64) and the others skip it "
                 "(docs/DARSIE.md)"),
      bool_param("darsie_count", false,
                 "count executed vector instructions by DARSIE class (DR, CR, V) without skipping (on with darsie)"),
      int_param("darsie_skip_table", 8, "DARSIE's PC skip table entries per workgroup", 1, 64, "entries"),
      int_param("darsie_rename_vgprs", 32,
                "DARSIE's renamed VGPRs per workgroup, at most: taken from the VGPRs its SIMDs leave unallocated "
                "at the current occupancy",
                0, 512, "VGPRs"),
      bool_param("darsie_check", false,
                 "DARSIE's checking mode (with darsie): a follower computes each skipped instruction and compares it "
                 "with the leader's value lane by lane; a difference faults the workgroup naming the instruction"),
      cycles("salu_latency", 1, "SALU issue to result usable", 1),
      cycles("branch_latency", 2, "branch issue to the wave's next issue (a taken branch also refetches)", 1),
      cycles("lds_latency", 32, "an LDS instruction's last bank cycle to the decrement of its lgkmcnt"),
      cycles("smem_issue_cycles", 1, "cycles a scalar memory instruction occupies the scalar memory pipe", 1),
      cycles("vmem_issue_cycles", 4,
             "cycles a vector memory instruction occupies the vector memory pipe at least (64 lane addresses at 16 "
             "per cycle); one more per coalesced request beyond that",
             1),
      cycles("sleep_unit", 64, "cycles per count of s_sleep", 1),
      size_param("vmem_line", "64 B", "line size of the vector L1: the coalescer sends one request per line touched",
                 4.0, 4096.0),
      size_param("smem_line", "64 B", "line size of the scalar cache", 4.0, 4096.0),
      int_param("max_vmem_requests", 64, "vector memory requests in flight per CU (sent, not yet answered)", 1, 65536,
                "requests"),
      int_param("vmem_queue", 64, "coalesced vector requests waiting to be sent before vector memory issue stalls", 1,
                65536, "requests"),
      int_param("max_smem_requests", 16, "scalar memory requests in flight per CU", 1, 65536, "requests"),
      int_param("max_fetches", 8, "instruction fetches in flight per CU", 1, 1024, "requests"),
      size_param("fetch_bytes", "32 B", "bytes per instruction fetch (aligned)", 4.0, 4096.0),
      int_param("ib_depth", 2,
                "instruction buffer per wave, in fetch blocks ((ib_depth - 1) x fetch_bytes at least 8 bytes)", 1, 64,
                "fetch blocks"),
      size_param("fetch_base", "0x0", "added to code-object addresses (PCs) to form instruction fetch addresses"),
      cycles("launch_latency", 4, "cycles to launch one wave; a CU launches its waves one after another"),
      cycles("issue_period", 1,
             "cycles between a SIMD's issue turns: SIMD s considers its waves at cycles c with c % issue_period == "
             "s % issue_period (CDNA2: 4, one SIMD per cycle, with one SALU/SMEM and one branch/s_endpgm per "
             "cycle); 1, the default, lets every SIMD issue every cycle",
             1),
      enum_param("scheduler", "oldest", {"oldest", "round_robin"},
                 "issue priority among ready waves: oldest first, or rotating one position per cycle"),
      enum_param("load_values", "response", {"response", "execute"},
                 "where a load's value comes from: its timing response, or a debug read through the same caches "
                 "when it executes (the timing is the same either way)"),
      bool_param("lazy_loads", false,
                 "LazyGPU's lazy unit: a vector global load is valued when it executes and its requests wait, in "
                 "per-lane busy bits of its destinations, until an instruction reads them; not counted in vmcnt; "
                 "overwritten or never-read lanes send no request (docs/LAZYGPU.md)"),
      bool_param("lazy_zero_products", false,
                 "LazyGPU's elimination of loads feeding a product (with lazy_loads): a multiply, FMA/MAC/mad or AND "
                 "does not wait for the lanes of a deferred multiplicand whose partner operand is 0; they are never "
                 "requested if overwritten before another read (docs/LAZYGPU.md)"),
      bool_param("zero_queries", false,
                 "LazyGPU's zero-mask queries: a vector global load sends ZeroMask queries down vmem for its words "
                 "and requests only what holds a non-zero word; with lazy_loads the queries at execute and the data "
                 "when a reader needs the lanes, without it queries and data requests together at execute "
                 "(docs/LAZYGPU.md)"),
      size_param("zero_query_span", "0 B",
                 "bytes of data one zero-mask query covers at most: the memory's partition interleave chunk (one "
                 "query per partition a load touches, as LazyGPU's zero-cache transactions); 0: one per vmem line",
                 0.0, 1024.0 * 1024),
      bool_param("assist_warps", false,
                 "CABA's assist warps: a vector load's line answered compressed (GpuAccess::cu_decompress) is "
                 "rebuilt by the BDI decompression routine of the Assist Warp Store, issued at high priority on the "
                 "CU's units, before the load completes; each wave reserves assist_warp_vgprs more VGPRs "
                 "(docs/CABA.md, \"Assist warps\")"),
      int_param("assist_warp_vgprs", 16, "VGPRs each wave reserves for its assist warps (with assist_warps)", 16, 256,
                "registers"),
      int_param("assist_store_buffer", 8,
                "with assist_warps: whole-line stores held at once for low-priority compression (the paper buffers "
                "them in a few dedicated L1 sets; 8 is two sets of its 4-way L1); a store finding it full goes "
                "uncompressed",
                2, 1024, "lines"),
      int_param("assist_warps_per_wave", 0,
                "decompression assist warps a wave may run at once (with assist_warps). The paper allows one "
                "instance of a routine per thread: a line's rebuild takes vmem_line / 4 lanes, so a wave's "
                "assist_warp_vgprs reserved VGPRs hold 256 / vmem_line of them in disjoint lanes, each with its own "
                "active mask; 0 is that many, and more reserve assist_warp_vgprs again for each such group",
                0, 64, "assist warps"),
      bool_param("assist_warp_check", false,
                 "with assist_warps: compare every line an assist warp rebuilds with the line's bytes read through "
                 "the caches; a mismatch stops the run with an error naming the wave, address and encoding"),
  };
}

CuConfig CuConfig::from(const Params& p, const std::string& path) {
  CuConfig c;
  auto u = [&](const char* n) { return static_cast<unsigned>(p.integer(n)); };
  c.simds = u("simds");
  c.wave_slots = u("wave_slots");
  c.vgprs = u("vgprs");
  c.vgpr_granule = u("vgpr_granule");
  c.sgprs = u("sgprs");
  c.sgpr_granule = u("sgpr_granule");
  c.lds_size = static_cast<uint32_t>(p.size("lds_size"));
  c.lds_granule = static_cast<uint32_t>(p.size("lds_granule"));
  c.lds_banks = u("lds_banks");
  c.simd_width = u("simd_width");
  c.valu_latency = u("valu_latency");
  c.trans_cycles = u("trans_cycles");
  c.dp_cycles = u("dp_cycles");
  c.salu_latency = u("salu_latency");
  c.branch_latency = u("branch_latency");
  c.lds_latency = u("lds_latency");
  c.smem_issue_cycles = u("smem_issue_cycles");
  c.vmem_issue_cycles = u("vmem_issue_cycles");
  c.sleep_unit = u("sleep_unit");
  c.vmem_line = static_cast<unsigned>(p.size("vmem_line"));
  c.smem_line = static_cast<unsigned>(p.size("smem_line"));
  c.max_vmem_requests = u("max_vmem_requests");
  c.vmem_queue = u("vmem_queue");
  c.max_smem_requests = u("max_smem_requests");
  c.max_fetches = u("max_fetches");
  c.fetch_bytes = static_cast<unsigned>(p.size("fetch_bytes"));
  c.ib_depth = u("ib_depth");
  c.fetch_base = p.size("fetch_base");
  c.launch_latency = u("launch_latency");
  c.issue_period = u("issue_period");
  c.scheduler = p.string("scheduler") == "round_robin" ? CuScheduler::RoundRobin : CuScheduler::Oldest;
  c.values_at_execute = p.string("load_values") == "execute";
  c.lazy_loads = p.boolean("lazy_loads");
  c.lazy_zero_products = p.boolean("lazy_zero_products");
  c.zero_queries = p.boolean("zero_queries");
  c.zero_query_span = static_cast<unsigned>(p.size("zero_query_span"));
  if (c.zero_query_span == 0) c.zero_query_span = c.vmem_line;
  c.mfma_rate = u("mfma_rate");
  c.lds_multicast = p.boolean("lds_multicast");
  c.lds_multicast_table = u("lds_multicast_table");
  c.lds_multicast_queue = u("lds_multicast_queue");
  c.lds_multicast_wait = u("lds_multicast_wait");
  c.darsie = p.boolean("darsie");
  c.darsie_count = p.boolean("darsie_count") || c.darsie;
  c.darsie_skip_table = u("darsie_skip_table");
  c.darsie_rename_vgprs = u("darsie_rename_vgprs");
  c.darsie_check = p.boolean("darsie_check");
  c.assist_warps = p.boolean("assist_warps");
  c.assist_warp_vgprs = u("assist_warp_vgprs");
  c.assist_warps_per_wave = u("assist_warps_per_wave");
  if (c.assist_warps_per_wave == 0) c.assist_warps_per_wave = c.assist_lane_groups();
  c.assist_store_buffer = u("assist_store_buffer");
  c.assist_warp_check = p.boolean("assist_warp_check");

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
