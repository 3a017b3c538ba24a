// The configuration of one cache (any of the four cache block types) and the
// checks that reject impossible configurations with a clear error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/params.h"

namespace tessera {

struct CacheConfig {
  uint64_t size = 16 * 1024;     // bytes of data
  unsigned ways = 4;
  unsigned line_size = 64;       // bytes, a power of two
  unsigned banks = 1;            // tag/data banks; one lookup per bank per cycle
  unsigned mshrs = 16;           // lines with a fill outstanding
  unsigned mshr_targets = 8;     // requests waiting on one MSHR (the first included)
  unsigned hit_latency = 16;     // cycles from acceptance to the response of a hit
  unsigned miss_latency = 4;     // cycles from acceptance to the request leaving on `out`
  unsigned ports = 1;            // requests accepted per cycle over all `in` sockets
  unsigned queue_depth = 64;     // requests accepted and not yet answered
  bool write_back = false;       // false: write-through
  bool atomics_below = false;    // write_back: atomics are applied by the level below, not here
  bool write_allocate = false;
  bool read_only = false;        // writes and atomics are answered with a command error
  bool xor_index = false;        // set and bank index from an XOR fold of the line number
  unsigned maintenance_cycles = 1;  // cycles per line a maintenance command touches

  uint64_t sets() const { return size / (uint64_t{ways} * line_size); }

  // Reads and checks the parameters of `path`; throws UserError naming the
  // instance, the parameter and what is expected.
  static CacheConfig from_params(const Params& params, const std::string& path);
};

// The defaults a cache block type gives its parameters.
struct CacheDefaults {
  std::string size = "16 KiB";
  int64_t ways = 4;
  std::string line_size = "64 B";
  int64_t banks = 1;
  int64_t mshrs = 16;
  int64_t mshr_targets = 8;
  int64_t hit_latency = 16;
  int64_t miss_latency = 4;
  int64_t ports = 1;
  int64_t queue_depth = 64;
  std::string write_policy = "write_through";
  std::string atomics = "here";
  bool write_allocate = false;
  bool read_only = false;
  std::string indexing = "modulo";
  int64_t maintenance_cycles = 1;
};

std::vector<ParamSpec> cache_param_specs(const CacheDefaults& d);

}  // namespace tessera
