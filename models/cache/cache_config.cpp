#include "models/cache/cache_config.h"

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

CacheConfig CacheConfig::from_params(const Params& p, const std::string& path) {
  CacheConfig c = cache_param_table().read(p);
  const uint64_t line = c.line_size;
  if (!is_power_of_two(line) || line < 4 || line > 4096)
    throw UserError(path + ": line_size " + std::to_string(line) +
                    " bytes is not a power of two between 4 and 4096 bytes");
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

const ParamTable<CacheConfig>& cache_param_table() {
  using C = CacheConfig;
  static const ParamTable<C> table = ParamTable<C>()
      .add(&C::size, size_param("size", "16 KiB", "data capacity; a non-zero multiple of ways * line_size"))
      .add(&C::ways, int_param("ways", 4, "associativity (lines per set)", 1.0, 65536.0, "ways"))
      .add(&C::line_size, size_param("line_size", "64 B",
                                     "line size, a power of two from 4 B to 4 KiB; requests must not cross a line",
                                     4.0, 4096.0))
      .add(&C::banks, int_param("banks", 1,
                                "tag/data banks; a bank performs one lookup per cycle, lines map to banks by their "
                                "line number",
                                1.0, 4096.0, "banks"))
      .add(&C::mshrs, int_param("mshrs", 16,
                                "miss status holding registers: lines with a fill outstanding; a miss that finds "
                                "none free waits without END_REQ",
                                1.0, 65536.0, "entries"))
      .add(&C::mshr_targets, int_param("mshr_targets", 8,
                                       "requests one MSHR serves (the miss that opened it included); a further miss "
                                       "to the line waits without END_REQ",
                                       1.0, 65536.0, "requests"))
      .add(&C::hit_latency, int_param("hit_latency", 16,
                                      "cycles from a request's acceptance (END_REQ) to its response on a hit", 1.0,
                                      1e6, "cycles"))
      .add(&C::miss_latency, int_param("miss_latency", 4,
                                       "cycles from a request's acceptance to its fill (or forwarded request) leaving "
                                       "on out; a miss answers when the fill returns",
                                       0.0, 1e6, "cycles"))
      .add(&C::ports, int_param("ports", 1, "requests accepted per cycle over all in[] sockets", 1.0, 1024.0,
                                "requests/cycle"))
      .add(&C::queue_depth, int_param("queue_depth", 64,
                                      "requests accepted and not yet answered (END_RESP); a further request waits "
                                      "without END_REQ",
                                      1.0, 1048576.0, "requests"))
      .add_flag(&C::write_back,
                enum_param("write_policy", "write_through", {"write_through", "write_back"},
                           "write_through: writes update a cached copy and are forwarded; write_back: writes stay in "
                           "the cache (dirty) until evicted or written back, and atomics are applied here"),
                "write_back")
      .add_flag(&C::atomics_below,
                enum_param("atomics", "here", {"here", "below"},
                           "where a write_back cache's atomics are applied: here, or below (the line is written back "
                           "if dirty and dropped, and the atomic goes on: a CU's own L1 and one L2 per chiplet must "
                           "leave atomics to the level every requester shares)"),
                "below")
      .add(&C::write_allocate, bool_param("write_allocate", false,
                                          "a write miss fetches the line (write_back: then merges the write into it; "
                                          "a full-line write needs no fetch)"))
      .add(enum_param("replacement", "lru", {"lru"},
                      "victim choice within a set: an invalid way, else least recently used"))
      .add_flag(&C::xor_index,
                enum_param("indexing", "modulo", {"modulo", "xor"},
                           "set and bank from the line number: modulo, or an XOR fold of the line number's bit fields "
                           "(spreads addresses interleaved across slices over every set; needs power-of-two sets and "
                           "banks)"),
                "xor")
      .add(&C::read_only, bool_param("read_only", false,
                                     "writes and atomics are answered with TLM_COMMAND_ERROR_RESPONSE"))
      .add(&C::maintenance_cycles, int_param("maintenance_cycles", 1,
                                             "cycles a maintenance command (ctrl) spends per line it touches", 0.0,
                                             1e6, "cycles/line"));
  return table;
}

}  // namespace tessera
