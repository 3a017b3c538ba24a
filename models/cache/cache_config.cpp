#include "models/cache/cache_config.h"

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

namespace {
unsigned checked_uint(const Params& p, const std::string& path, const char* name, int64_t min) {
  const int64_t v = p.integer(name);
  if (v < min)
    throw UserError(path + ": parameter '" + name + "' is " + std::to_string(v) + "; expected at least " +
                    std::to_string(min));
  if (v > 0x7fffffff) throw UserError(path + ": parameter '" + name + "' is too large (" + std::to_string(v) + ")");
  return static_cast<unsigned>(v);
}
}  // namespace

CacheConfig CacheConfig::from_params(const Params& p, const std::string& path) {
  CacheConfig c;
  c.size = p.size("size");
  c.ways = checked_uint(p, path, "ways", 1);
  const uint64_t line = p.size("line_size");
  c.banks = checked_uint(p, path, "banks", 1);
  c.mshrs = checked_uint(p, path, "mshrs", 1);
  c.mshr_targets = checked_uint(p, path, "mshr_targets", 1);
  c.hit_latency = checked_uint(p, path, "hit_latency", 1);
  c.miss_latency = checked_uint(p, path, "miss_latency", 0);
  c.ports = checked_uint(p, path, "ports", 1);
  c.queue_depth = checked_uint(p, path, "queue_depth", 1);
  c.maintenance_cycles = checked_uint(p, path, "maintenance_cycles", 0);
  c.write_back = p.string("write_policy") == "write_back";
  c.atomics_below = p.string("atomics") == "below";
  c.write_allocate = p.boolean("write_allocate");
  c.read_only = p.boolean("read_only");
  c.xor_index = p.string("indexing") == "xor";

  if (!is_power_of_two(line) || line < 4 || line > 4096)
    throw UserError(path + ": line_size " + std::to_string(line) +
                    " bytes is not a power of two between 4 and 4096 bytes");
  c.line_size = static_cast<unsigned>(line);
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_size;
  if (c.size == 0 || c.size % set_bytes != 0)
    throw UserError(path + ": size " + std::to_string(c.size) + " bytes is not a non-zero multiple of ways * line_size = " +
                    std::to_string(c.ways) + " * " + std::to_string(c.line_size) + " = " + std::to_string(set_bytes) +
                    " bytes");
  if (c.xor_index && !is_power_of_two(c.sets()))
    throw UserError(path + ": indexing \"xor\" needs a power-of-two number of sets; size / (ways * line_size) = " +
                    std::to_string(c.sets()));
  if (c.xor_index && !is_power_of_two(c.banks))
    throw UserError(path + ": indexing \"xor\" needs a power-of-two number of banks, not " + std::to_string(c.banks));
  if (c.banks > c.sets())
    throw UserError(path + ": " + std::to_string(c.banks) + " banks but only " + std::to_string(c.sets()) +
                    " sets; a bank holds whole sets");
  if (c.read_only && c.write_back)
    throw UserError(path + ": a read_only cache never holds dirty data; write_policy must be \"write_through\"");
  return c;
}

std::vector<ParamSpec> cache_param_specs(const CacheDefaults& d) {
  return {
      size_param("size", d.size, "data capacity; a non-zero multiple of ways * line_size"),
      int_param("ways", d.ways, "associativity (lines per set)", 1.0, 65536.0, "ways"),
      size_param("line_size", d.line_size, "line size, a power of two from 4 B to 4 KiB; requests must not cross a line",
                 4.0, 4096.0),
      int_param("banks", d.banks,
                "tag/data banks; a bank performs one lookup per cycle, lines map to banks by their line number",
                1.0, 4096.0, "banks"),
      int_param("mshrs", d.mshrs, "miss status holding registers: lines with a fill outstanding; a miss that finds "
                "none free waits without END_REQ", 1.0, 65536.0, "entries"),
      int_param("mshr_targets", d.mshr_targets, "requests one MSHR serves (the miss that opened it included); a "
                "further miss to the line waits without END_REQ", 1.0, 65536.0, "requests"),
      int_param("hit_latency", d.hit_latency, "cycles from a request's acceptance (END_REQ) to its response on a hit",
                1.0, 1e6, "cycles"),
      int_param("miss_latency", d.miss_latency, "cycles from a request's acceptance to its fill (or forwarded "
                "request) leaving on out; a miss answers when the fill returns", 0.0, 1e6, "cycles"),
      int_param("ports", d.ports, "requests accepted per cycle over all in[] sockets", 1.0, 1024.0, "requests/cycle"),
      int_param("queue_depth", d.queue_depth, "requests accepted and not yet answered (END_RESP); a further "
                "request waits without END_REQ", 1.0, 1048576.0, "requests"),
      enum_param("write_policy", d.write_policy, {"write_through", "write_back"},
                 "write_through: writes update a cached copy and are forwarded; write_back: writes stay in the cache "
                 "(dirty) until evicted or written back, and atomics are applied here"),
      enum_param("atomics", d.atomics, {"here", "below"},
                 "where a write_back cache's atomics are applied: here, or below (the line is written back if dirty "
                 "and dropped, and the atomic goes on: a CU's own L1 and one L2 per chiplet must leave atomics to the "
                 "level every requester shares)"),
      bool_param("write_allocate", d.write_allocate, "a write miss fetches the line (write_back: then merges the "
                 "write into it; a full-line write needs no fetch)"),
      enum_param("replacement", "lru", {"lru"}, "victim choice within a set: an invalid way, else least recently used"),
      enum_param("indexing", d.indexing, {"modulo", "xor"},
                 "set and bank from the line number: modulo, or an XOR fold of the line number's bit fields (spreads "
                 "addresses interleaved across slices over every set; needs power-of-two sets and banks)"),
      bool_param("read_only", d.read_only, "writes and atomics are answered with TLM_COMMAND_ERROR_RESPONSE"),
      int_param("maintenance_cycles", d.maintenance_cycles,
                "cycles a maintenance command (ctrl) spends per line it touches", 0.0, 1e6, "cycles/line"),
  };
}

}  // namespace tessera
