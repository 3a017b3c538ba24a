#include "models/cache/cache_config.h"

#include <cstdlib>

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

namespace {

// The bytes of `size` that zero_fraction gives the zero cache: 0, a fraction
// of size (a number below 1 or "A/B") or a size ("8 KiB"). Throws UserError.
uint64_t zero_share(const json& v, uint64_t size, const std::string& path) {
  const std::string what = path + ": zero_fraction ";
  const std::string expected = "; expected 0, a fraction of size below 1 (\"1/8\", 0.125) or a size (\"8 KiB\")";
  if (v.is_number()) {
    const double f = v.get<double>();
    if (!(f >= 0 && f < 1)) throw UserError(what + v.dump() + " is not a fraction below 1" + expected);
    const double bytes = f * static_cast<double>(size);
    if (bytes != static_cast<double>(static_cast<uint64_t>(bytes)))
      throw UserError(what + v.dump() + " of " + std::to_string(size) + " bytes is not a whole number of bytes");
    return static_cast<uint64_t>(bytes);
  }
  if (!v.is_string()) throw UserError(what + v.dump() + expected);
  const std::string text = v.get<std::string>();
  const size_t slash = text.find('/');
  if (slash == std::string::npos) {
    try {
      return parse_size(text);
    } catch (const UserError& e) {
      throw UserError(what + "\"" + text + "\": " + e.what() + expected);
    }
  }
  char* end = nullptr;
  const unsigned long long num = std::strtoull(text.c_str(), &end, 10);
  const unsigned long long den = std::strtoull(text.c_str() + slash + 1, &end, 10);
  if (end != text.c_str() + text.size() || den == 0 || num >= den || text[0] == '-' || text[slash + 1] == '-')
    throw UserError(what + "\"" + text + "\" is not a fraction A/B with 0 <= A < B" + expected);
  if (size * num % den != 0)
    throw UserError(what + "\"" + text + "\" of " + std::to_string(size) + " bytes is not a whole number of bytes");
  return size * num / den;
}

// The zero cache's share: whole sets of `ways` mask lines, leaving the data
// array at least one set (cache.h: the carve-out splits sets, not ways).
void check_zero_cache(const CacheConfig& c, const std::string& path) {
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_size;
  if (c.zero_bytes == 0) return;
  if (c.zero_bytes >= c.size)
    throw UserError(path + ": zero_fraction gives the zero cache " + std::to_string(c.zero_bytes) +
                    " bytes, leaving nothing of size " + std::to_string(c.size) + " bytes for data");
  if (c.zero_bytes % set_bytes != 0)
    throw UserError(path + ": zero_fraction gives the zero cache " + std::to_string(c.zero_bytes) +
                    " bytes, not a whole number of sets of ways * line_size = " + std::to_string(set_bytes) +
                    " bytes (the zero cache keeps the data cache's ways and line size and takes whole sets)");
  if (c.read_only)
    throw UserError(path + ": a read_only cache (scalar, instruction) holds no zero cache; zero_fraction must be 0");
  if (c.zero_shared && c.write_back)
    throw UserError(path + ": zero_shared is for write-through caches (an L1), whose mask lines are never dirty");
  if (c.zero_interleave != 0 && (!is_power_of_two(c.zero_interleave) || c.zero_interleave < c.line_size))
    throw UserError(path + ": zero_interleave " + std::to_string(c.zero_interleave) +
                    " bytes is neither 0 nor a power of two of at least line_size (" + std::to_string(c.line_size) +
                    " bytes)");
}

}  // namespace

CacheConfig CacheConfig::from_params(const Params& p, const std::string& path) {
  return from_params(p, path, cache_param_table());
}

CacheConfig CacheConfig::from_params(const Params& p, const std::string& path, const ParamTable<CacheConfig>& table) {
  CacheConfig c = table.read(p);
  c.zero_bytes = zero_share(c.zero_fraction, c.size, path);
  const uint64_t line = c.line_size;
  if (!is_power_of_two(line) || line < 4 || line > 4096)
    throw UserError(path + ": line_size " + std::to_string(line) +
                    " bytes is not a power of two between 4 and 4096 bytes");
  const uint64_t set_bytes = uint64_t{c.ways} * c.line_size;
  if (c.size == 0 || c.size % set_bytes != 0)
    throw UserError(path + ": size " + std::to_string(c.size) + " bytes is not a non-zero multiple of ways * line_size = " +
                    std::to_string(c.ways) + " * " + std::to_string(c.line_size) + " = " + std::to_string(set_bytes) +
                    " bytes");
  if (c.xor_index && !is_power_of_two(c.size / set_bytes))
    throw UserError(path + ": indexing \"xor\" needs a power-of-two number of sets; size / (ways * line_size) = " +
                    std::to_string(c.size / set_bytes));
  check_zero_cache(c, path);
  if (c.xor_index && !is_power_of_two(c.banks))
    throw UserError(path + ": indexing \"xor\" needs a power-of-two number of banks, not " + std::to_string(c.banks));
  if (c.banks > c.sets())
    throw UserError(path + ": " + std::to_string(c.banks) + " banks but only " + std::to_string(c.sets()) +
                    " sets; a bank holds whole sets");
  if (c.read_only && c.write_back)
    throw UserError(path + ": a read_only cache never holds dirty data; write_policy must be \"write_through\"");
  if (c.hmg && (c.read_only || c.zero_bytes || c.compression != "off"))
    throw UserError(path + ": coherence \"hmg\" is for a writable L2 without a zero cache or compression");
  if (c.hmg && (!is_power_of_two(c.hmg_home_interleave) || c.hmg_home_interleave < c.line_size))
    throw UserError(path + ": hmg_home_interleave " + std::to_string(c.hmg_home_interleave) +
                    " bytes is not a power of two of at least line_size (" + std::to_string(c.line_size) + " bytes)");
  if (c.hmg) {  // HMG's L2s write through to the home chiplet; a write miss does not allocate
    c.write_back = false;
    c.write_allocate = false;
  }
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
      .add(&C::out_ports, int_param("out_ports", 1,
                                    "requests (fills, forwarded requests, write-backs) sent per cycle on out, each "
                                    "once the one before it is accepted",
                                    1.0, 1024.0, "requests/cycle"))
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
                                             1e6, "cycles/line"))
      .add(&C::zero_fraction, json_param("zero_fraction", 0,
                                         "share of size given to a zero cache (LazyGPU: one mask bit per 4-byte "
                                         "word, in lines of line_size): 0 (none), a fraction (\"1/8\", 0.125) or a "
                                         "size (\"8 KiB\"); whole sets, the data array keeps the rest"))
      .add(&C::zero_interleave, size_param("zero_interleave", "0 B",
                                           "the chunk size data is interleaved over memory partitions with (the "
                                           "address map's interleave); a mask line covers words of one partition "
                                           "only. 0: mask lines cover contiguous data",
                                           0.0, 1073741824.0))
      .add(&C::zero_partitions, int_param("zero_partitions", 1,
                                          "memory partitions the data is interleaved over in zero_interleave chunks",
                                          1.0, 1024.0, "partitions"))
      .add(&C::zero_shared, bool_param("zero_shared", false,
                                       "the zero caches of one array of blocks (sa[3].l1v[0..3]: same parent, same "
                                       "name) are one zero cache of the sum of their sizes, which each of them "
                                       "looks up and fills (LazyGPU: one L1 zero cache per shader array); "
                                       "write-through caches only"))
      .add(&C::zero_hit_latency, int_param("zero_hit_latency", 0,
                                           "cycles from a zero-mask query's acceptance to its answer on a zero-cache "
                                           "hit; 0: the cache's hit_latency (the paper gives no zero-cache latency: "
                                           "a what-if, for how fast the masks must answer)",
                                           0.0, 1e6, "cycles"))
      .add(&C::compression,
           enum_param("compression", "off", {"off", "hold", "hardware", "cu"},
                      "BDI line compression (CABA; timing only, the data stay plain): off; hold: lines are held "
                      "compressed, whole-line answers and writebacks leave compressed (an L2); hardware: compressed "
                      "fills are decompressed here (decompress_cycles) and whole-line stores and writebacks leave "
                      "compressed (compress_cycles) (an L1); cu: compressed fills are answered as they are, marked "
                      "for the compute unit's assist warps (GpuAccess::cu_decompress), and a store leaves "
                      "compressed only when the compute unit compressed it (cu_compressed)"))
      .add(&C::decompress_cycles, int_param("decompress_cycles", 1,
                                            "compression hardware: cycles a compressed fill waits for the "
                                            "decompressor",
                                            0.0, 1e6, "cycles"))
      .add(&C::compress_cycles, int_param("compress_cycles", 5,
                                          "compression hardware: cycles a compressed whole-line store's answer "
                                          "waits for the compressor",
                                          0.0, 1e6, "cycles"))
      .add_flag(&C::hmg,
                enum_param("coherence", "none", {"none", "hmg"},
                           "coherence between chiplets' L2s: none (kernel-boundary maintenance keeps them right), or "
                           "hmg: writes go through to memory (write_policy and write_allocate are then "
                           "write_through and false), each line's home chiplet keeps a directory of the chiplets "
                           "that fetched it, and a write invalidates the other chiplets' copies"),
                "hmg")
      .add(&C::hmg_directory_entries, int_param("hmg_directory_entries", 12288,
                                                "hmg: directory entries per home chiplet (shared by its L2 slices)",
                                                1.0, 16777216.0, "entries"))
      .add(&C::hmg_directory_ways, int_param("hmg_directory_ways", 8, "hmg: directory entries per set (LRU)", 1.0,
                                             65536.0, "ways"))
      .add(&C::hmg_lines_per_entry, int_param("hmg_lines_per_entry", 4,
                                              "hmg: consecutive lines one directory entry covers (a power of two)",
                                              1.0, 4096.0, "lines"))
      .add(&C::hmg_home_interleave, size_param("hmg_home_interleave", "4 KiB",
                                               "hmg: the home chiplet of an address is address / this modulo the "
                                               "chiplets (the chiplet network's interleave)",
                                               1.0, 1099511627776.0))
      .add(&C::hmg_message_size,
           size_param("hmg_message_size", "16 B",
                      "hmg: bytes of an invalidation message and of its acknowledgement, each sent over the "
                      "platform's chiplet network (home -> sharer, sharer -> home)",
                      1.0, 4096.0))
      .add(&C::hmg_skip_invalidations,
           bool_param("hmg_skip_invalidations", false,
                      "hmg, debug: invalidations are counted but not applied (a test shows the copies then go "
                      "stale)"));
  return table;
}

}  // namespace tessera
