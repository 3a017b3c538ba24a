// The configuration of one cache (any of the four cache block types) and the
// checks that reject impossible configurations with a clear error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/param_table.h"

namespace tessera {

// The values of one cache's parameters, in base units; each field is filled
// by its parameter's one declaration in cache_param_table().
struct CacheConfig {
  uint64_t size = 0;             // bytes of data
  unsigned ways = 0;
  unsigned line_size = 0;        // bytes, a power of two
  unsigned banks = 0;            // tag/data banks; one lookup per bank per cycle
  unsigned mshrs = 0;            // lines with a fill outstanding
  unsigned mshr_targets = 0;     // requests waiting on one MSHR (the first included)
  unsigned hit_latency = 0;      // cycles from acceptance to the response of a hit
  unsigned miss_latency = 0;     // cycles from acceptance to the request leaving on `out`
  unsigned ports = 0;            // requests accepted per cycle over all `in` sockets
  unsigned out_ports = 0;        // requests sent per cycle on `out`
  unsigned queue_depth = 0;      // requests accepted and not yet answered
  bool write_back = false;       // false: write-through
  bool atomics_below = false;    // write_back: atomics are applied by the level below, not here
  bool write_allocate = false;
  bool read_only = false;        // writes and atomics are answered with a command error
  bool xor_index = false;        // set and bank index from an XOR fold of the line number
  unsigned maintenance_cycles = 0;  // cycles per line a maintenance command touches
  // Read misses allocate (fill the line). false: a miss with no fill of its
  // line outstanding is passed below and answered from there, so lines come in
  // by writes and write-backs only (a non-inclusive l3_cache).
  bool inclusive = true;
  // The zero cache (LazyGPU), carved out of `size`: models/cache/zero_cache.h.
  json zero_fraction;              // as written: 0, a fraction ("1/8", 0.125) or a size ("8 KiB")
  uint64_t zero_bytes = 0;         // its share of `size` in bytes; 0: no zero cache
  uint64_t zero_interleave = 0;    // bytes per memory partition chunk; 0: mask lines cover contiguous data
  unsigned zero_partitions = 1;    // partitions the data is interleaved over in zero_interleave chunks
  bool zero_shared = false;        // the zero caches of an array of blocks (sa[3].l1v[0..3]) are one
  unsigned zero_hit_latency = 0;   // cycles from a query's acceptance to its answer on a zero-cache hit; 0: hit_latency
  // BDI compression (CABA, docs/CABA.md): "off", "hold" (lines held
  // compressed: whole lines leave compressed), "hardware" (compressed fills
  // are decompressed here, whole-line stores compressed here) or "cu" (the
  // compute unit's assist warps do both); the hardware codec's latencies.
  std::string compression;
  unsigned decompress_cycles = 0, compress_cycles = 0;
  // HMG hardware coherence between chiplets' L2s (docs/CPELIDE.md, "HMG"):
  // write-through, a directory at each line's home chiplet, invalidations.
  bool hmg = false;
  unsigned hmg_directory_entries = 0, hmg_directory_ways = 0, hmg_lines_per_entry = 0;
  uint64_t hmg_home_interleave = 0;      // bytes: the home chiplet of addr is addr / this mod chiplets
  unsigned hmg_message_size = 0;         // bytes of an invalidation and of its acknowledgement on the network
  bool hmg_skip_invalidations = false;    // debug: invalidations are counted, not applied

  // The data array: what the zero cache leaves of `size`.
  uint64_t data_size() const { return size - zero_bytes; }
  uint64_t sets() const { return data_size() / (uint64_t{ways} * line_size); }
  uint64_t zero_sets() const { return zero_bytes / (uint64_t{ways} * line_size); }

  // Reads the parameters of `path` and checks the combinations no single
  // parameter's range rules out; throws UserError naming the instance, the
  // parameter and what is expected.
  static CacheConfig from_params(const Params& params, const std::string& path);
  // The same with the parameters of `table` (a cache type's own table that
  // include()s cache_param_table(), as l3_cache's does).
  static CacheConfig from_params(const Params& params, const std::string& path, const ParamTable<CacheConfig>& table);
};

// Every cache parameter, declared once (platform/param_table.h). The four
// cache block types differ only in the defaults they pass to specs().
const ParamTable<CacheConfig>& cache_param_table();

}  // namespace tessera
