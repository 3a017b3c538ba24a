// `tessera launch FILE.hsaco --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`:
// runs one kernel of a code object on the functional executor (or, with
// --netlist, on the timing platform) with buffers and values described on the
// command line, and reports wave-instructions, time and speed (and simulated
// cycles). Exit 0 when the kernel completes, 1 when it faults (with the fault
// report), 2 for a bad command line, 3 for bad input.
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/limits.h"
#include "platform/functional_device.h"
#include "platform/netlist.h"
#include "platform/options.h"
#include "platform/output_file.h"
#include "platform/simulation.h"
#include "platform/timing_device.h"

namespace tessera {
namespace {

struct ElemType {
  const char* name;
  unsigned bytes;
  bool is_float, is_signed;
};
constexpr ElemType kTypes[] = {
    {"f32", 4, true, true},  {"f64", 8, true, true},   {"i8", 1, false, true},  {"u8", 1, false, false},
    {"i16", 2, false, true}, {"u16", 2, false, false}, {"i32", 4, false, true}, {"u32", 4, false, false},
    {"i64", 8, false, true}, {"u64", 8, false, false},
};

const ElemType* find_type(const std::string& name) {
  for (const ElemType& t : kTypes)
    if (name == t.name) return &t;
  return nullptr;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// The first `n - 1` fields split at `sep`, the rest of `s` as the last one
// (a file name may hold the separator).
std::vector<std::string> split_n(const std::string& s, char sep, size_t n) {
  std::vector<std::string> out = split(s, sep);
  while (out.size() > n) {
    out[n - 1] += sep + out[n];
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

uint64_t parse_uint(const std::string& what, const std::string& text) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || text[0] == '-')
    throw UsageError(what + " expects a non-negative integer, got \"" + text + "\"");
  return v;
}

// Encodes a number as `t` (little-endian), from its text.
std::vector<uint8_t> encode(const ElemType& t, const std::string& text, const std::string& what) {
  std::vector<uint8_t> out(t.bytes);
  size_t used = 0;
  try {
    if (t.is_float) {
      const double v = std::stod(text, &used);
      if (t.bytes == 4) {
        const float f = static_cast<float>(v);
        std::memcpy(out.data(), &f, 4);
      } else {
        std::memcpy(out.data(), &v, 8);
      }
    } else {
      const uint64_t v = t.is_signed ? static_cast<uint64_t>(std::stoll(text, &used, 0)) : std::stoull(text, &used, 0);
      std::memcpy(out.data(), &v, t.bytes);
    }
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size()) throw UsageError(what + ": \"" + text + "\" is not a " + t.name + " value");
  return out;
}

// "random(LO,HI)": the range's bounds, as numbers of type `t`.
struct RandomRange {
  bool given = false;
  double lo = 0, hi = 0;
};

double parse_number(const std::string& text, const std::string& what) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size()) throw UsageError(what + ": \"" + text + "\" is not a number");
  return v;
}

RandomRange parse_random_range(const ElemType& t, const std::string& init, const std::string& what) {
  RandomRange r;
  if (init.rfind("random(", 0) != 0) return r;
  const std::vector<std::string> b = split(init.substr(7, init.size() - 7 - (init.back() == ')')), ',');
  if (init.back() != ')' || b.size() != 2)
    throw UsageError(what + ": expected random(LO,HI), e.g. random(-4,4), got \"" + init + "\"");
  r = {true, parse_number(b[0], what), parse_number(b[1], what)};
  if (!(r.lo < r.hi) || (!t.is_float && (r.lo != std::floor(r.lo) || r.hi != std::floor(r.hi))))
    throw UsageError(what + ": random(LO,HI) needs LO < HI" + (t.is_float ? "" : ", both integers") + ", got \"" +
                     init + "\"");
  const double min = t.is_signed ? -std::ldexp(1.0, int(t.bytes) * 8 - 1) : 0.0;
  if (!t.is_float && (r.lo < min || r.hi >= std::ldexp(1.0, int(t.bytes) * 8 - t.is_signed)))
    throw UsageError(what + ": random(LO,HI) bounds do not fit in " + t.name);
  return r;
}

// One random element: floats uniform in [lo, hi), integers uniform in [lo, hi].
void random_element(const ElemType& t, const RandomRange& r, std::mt19937_64& rng, uint8_t* dst) {
  if (t.is_float) {
    const double v = r.lo + double(rng() >> 11) / double(1ull << 53) * (r.hi - r.lo);
    const float f = static_cast<float>(v);
    std::memcpy(dst, t.bytes == 4 ? static_cast<const void*>(&f) : static_cast<const void*>(&v), t.bytes);
    return;
  }
  const uint64_t span = static_cast<uint64_t>(r.hi - r.lo) + 1;  // 0: all 2^64 values
  const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(r.lo)) + (span ? rng() % span : rng());
  std::memcpy(dst, &v, t.bytes);
}

// "file=PATH": the buffer's raw bytes, exactly COUNT elements of them.
std::vector<uint8_t> read_buffer_file(const std::string& path, uint64_t bytes, const std::string& what) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw UserError(what + ": cannot read " + path + " (" + ec.message() + ")");
  if (size != bytes)
    throw UserError(what + ": " + path + " holds " + std::to_string(size) + " bytes, but the buffer is " +
                    std::to_string(bytes) + " (COUNT x the element size)");
  std::vector<uint8_t> out(bytes);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(bytes));
  if (!in) throw UserError(what + ": cannot read " + path);
  return out;
}

// Buffer contents: zero, random (floats in [-1, 1), integers in [0, 65536)),
// random(LO,HI), iota (0, 1, 2, ...), file=PATH or one value repeated.
std::vector<uint8_t> fill_buffer(const ElemType& t, uint64_t count, const std::string& init, std::mt19937_64& rng,
                                 const std::string& what) {
  if (init.rfind("file=", 0) == 0) return read_buffer_file(init.substr(5), count * t.bytes, what);
  std::vector<uint8_t> out(count * t.bytes, 0);
  if (init == "zero") return out;
  if (const RandomRange range = parse_random_range(t, init, what); range.given) {
    for (uint64_t i = 0; i < count; ++i) random_element(t, range, rng, out.data() + i * t.bytes);
    return out;
  }
  std::vector<uint8_t> constant;
  if (init != "random" && init != "iota") constant = encode(t, init, what);
  const bool random = init == "random", iota = init == "iota";
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* dst = out.data() + i * t.bytes;
    if (!random && !iota) {
      std::memcpy(dst, constant.data(), t.bytes);
      continue;
    }
    const uint64_t r = random ? rng() : i;
    if (t.is_float) {
      const double v = random ? double(r >> 11) / double(1ull << 53) * 2.0 - 1.0 : double(r);
      const float f = static_cast<float>(v);
      std::memcpy(dst, t.bytes == 4 ? static_cast<const void*>(&f) : static_cast<const void*>(&v), t.bytes);
    } else {
      const uint64_t v = random ? r % 65536 : r;
      std::memcpy(dst, &v, t.bytes);
    }
  }
  return out;
}

void parse_dims(const std::string& option, const std::string& text, uint32_t out[3]) {
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() > 3) throw UsageError(option + " takes at most three sizes X[,Y,Z], got \"" + text + "\"");
  out[0] = out[1] = out[2] = 1;
  for (size_t d = 0; d < parts.size(); ++d) {
    const uint64_t v = parse_uint(option, parts[d]);
    if (v == 0 || v > 0xffffffffull) throw UsageError(option + " sizes must be between 1 and 2^32-1, got \"" + text + "\"");
    out[d] = static_cast<uint32_t>(v);
  }
}

struct Buffer {
  uint64_t address = 0;
  uint64_t bytes = 0;
};

struct Dump {
  size_t arg;
  std::string path;
};

Dump parse_dump(const std::string& text, bool force) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError("--dump expects N=FILE (argument index and output file), got \"" + text + "\"");
  Dump d{parse_uint("--dump", text.substr(0, eq)), text.substr(eq + 1)};
  check_output_path(d.path, force, "--dump file");
  return d;
}

// "bytes:HEX": an arbitrary by-value argument (a struct), byte by byte.
std::vector<uint8_t> decode_hex(const std::string& text, const std::string& what) {
  if (text.empty() || text.size() % 2)
    throw UsageError(what + ": bytes:HEX needs an even number of hexadecimal digits, got \"" + text + "\"");
  std::vector<uint8_t> out;
  for (size_t i = 0; i < text.size(); i += 2) {
    const std::string pair = text.substr(i, 2);
    if (!std::isxdigit(static_cast<unsigned char>(pair[0])) || !std::isxdigit(static_cast<unsigned char>(pair[1])))
      throw UsageError(what + ": \"" + pair + "\" is not a hexadecimal byte");
    out.push_back(static_cast<uint8_t>(std::stoul(pair, nullptr, 16)));
  }
  return out;
}

// The element type of a vector type name "TYPExN", or nullptr.
const ElemType* vector_element(const std::string& type) {
  const size_t x = type.find('x');
  return x == std::string::npos ? nullptr : find_type(type.substr(0, x));
}

// "TYPExN:V1,...,VN": an OpenCL vector by value (N = 2, 3, 4, 8, 16); a
// 3-vector occupies four elements, as in OpenCL.
std::vector<uint8_t> encode_vector(const ElemType& t, const std::string& type, const std::string& values,
                                   const std::string& what) {
  const std::string n_text = type.substr(type.find('x') + 1);
  if (n_text != "2" && n_text != "3" && n_text != "4" && n_text != "8" && n_text != "16")
    throw UsageError(what + ": vectors have 2, 3, 4, 8 or 16 elements, not \"" + n_text + "\"");
  const size_t n = std::stoul(n_text);
  const std::vector<std::string> parts = split(values, ',');
  if (parts.size() != n)
    throw UsageError(what + ": " + type + " takes " + n_text + " comma-separated values, got " +
                     std::to_string(parts.size()));
  std::vector<uint8_t> out;
  for (const std::string& p : parts) {
    const std::vector<uint8_t> e = encode(t, p, what);
    out.insert(out.end(), e.begin(), e.end());
  }
  if (n == 3) out.resize(4 * t.bytes, 0);
  return out;
}

// A by-value argument's bytes from TYPE:VALUE, TYPExN:V,... or bytes:HEX,
// checked against the size the kernel's metadata gives it (`meta`, nullptr
// past the kernel's last argument: the argument count is checked later).
std::vector<uint8_t> encode_by_value(const std::vector<std::string>& f, const isa::KernelArg* meta,
                                     const std::string& what) {
  std::vector<uint8_t> bytes;
  if (f.size() == 2 && f[0] == "bytes") {
    bytes = decode_hex(f[1], what);
  } else if (const ElemType* t = find_type(f[0]); t && f.size() == 2) {
    bytes = encode(*t, f[1], what);
  } else if (const ElemType* e = vector_element(f[0]); e && f.size() == 2) {
    bytes = encode_vector(*e, f[0], f[1], what);
  } else {
    throw UsageError(what + ": expected buf:TYPE:COUNT:INIT, local:BYTES, TYPE:VALUE (e.g. i32:5, f32:1.5), "
                     "TYPExN:V,... (e.g. u32x2:1,2) or bytes:HEX");
  }
  if (meta && meta->value_kind == "by_value" && bytes.size() != meta->size)
    throw UsageError(what + ": argument " + (meta->name.empty() ? "" : "'" + meta->name + "' ") + "of type " +
                     (meta->type_name.empty() ? "?" : meta->type_name) + " takes " + std::to_string(meta->size) +
                     " bytes, " + std::to_string(bytes.size()) + " given");
  return bytes;
}

// One --arg: a new buffer (allocated and filled), a __local size or a value.
// `held`: the bytes of the buffers before it.
isa::ArgValue parse_arg(const std::string& spec, const isa::KernelArg* meta, runtime::Device& dev,
                        std::mt19937_64& rng, uint64_t held, Buffer& b) {
  const std::string what = "--arg " + spec;
  const std::vector<std::string> f = split_n(spec, ':', 4);
  isa::ArgValue v;
  if (f[0] == "buf") {
    if (f.size() != 4) throw UsageError(what + ": expected buf:TYPE:COUNT:INIT");
    const ElemType* t = find_type(f[1]);
    if (!t) throw UsageError(what + ": unknown element type \"" + f[1] + "\" (f32 f64 i8 u8 i16 u16 i32 u32 i64 u64)");
    const uint64_t count = parse_uint(what, f[2]);
    if (count == 0 || count > (1ull << 30)) throw UsageError(what + ": COUNT must be between 1 and 2^30");
    // Before its initial contents are made on the host: those are as large.
    check_device_memory(held, count * t->bytes);
    const std::vector<uint8_t> data = fill_buffer(*t, count, f[3], rng, what);
    b.bytes = data.size();
    b.address = dev.alloc(data.size());
    dev.write(b.address, data.data(), data.size());
    v.bytes.resize(8);
    std::memcpy(v.bytes.data(), &b.address, 8);
  } else if (f[0] == "local") {
    if (f.size() != 2) throw UsageError(what + ": expected local:BYTES");
    v.kind = isa::ArgValue::Kind::LocalBytes;
    const uint64_t bytes = parse_uint(what, f[1]);
    if (bytes > isa::kMaxGroupSegmentBytes)
      throw UsageError(what + ": BYTES must be at most " + std::to_string(isa::kMaxGroupSegmentBytes) +
                       " (a CU's LDS)");
    v.local_bytes = static_cast<uint32_t>(bytes);
  } else {
    v.bytes = encode_by_value(split_n(spec, ':', 2), meta, what);
  }
  return v;
}

// The --dump files, from the buffers as device memory holds them.
void write_dumps(const std::vector<Dump>& dumps, const std::vector<Buffer>& buffers, runtime::Device& dev,
                 bool force, bool faulted) {
  for (const Dump& d : dumps) {
    std::vector<uint8_t> data(buffers[d.arg].bytes);
    dev.read(data.data(), buffers[d.arg].address, data.size());
    write_file_atomically(d.path, std::string(data.begin(), data.end()), force, "--dump file");
    std::printf("argument %zu: %zu bytes written to %s%s\n", d.arg, data.size(), d.path.c_str(),
                faulted ? " (the kernel did not complete: what it had written when it stopped)" : "");
  }
}

// The timing platform of --netlist, with --set overrides.
std::unique_ptr<TimingDevice> make_launch_platform(const cli::ParsedArgs& parsed) {
  TimingDeviceOptions o;
  o.netlist_file = *parsed.value("--netlist");
  for (const auto& s : parsed.values("--set")) o.overrides.push_back(parse_override(s));
  if (auto m = parsed.value("--max-cycles")) o.max_cycles = parse_uint("--max-cycles", *m);
  return std::make_unique<TimingDevice>(std::move(o));
}

void print_functional_launch(const std::string& kernel, const isa::ExecStats& s, double seconds) {
  std::printf("kernel %s: %llu workgroups, %llu waves, %llu wave-instructions in %.3f s (%.2f M wave-instructions/s)\n",
              kernel.c_str(), static_cast<unsigned long long>(s.workgroups), static_cast<unsigned long long>(s.waves),
              static_cast<unsigned long long>(s.wave_instructions), seconds,
              seconds > 0 ? double(s.wave_instructions) / seconds / 1e6 : 0.0);
}

void print_timing_launch(const std::string& kernel, const LaunchResult& r, const TimingDevice& dev, double seconds) {
  std::printf("kernel %s on %s: %llu cycles (kernel %llu), %llu workgroups, %llu waves, %llu wave-instructions in "
              "%.3f s (%.2f M wave-instructions/s)\n",
              kernel.c_str(), dev.netlist_file().c_str(), static_cast<unsigned long long>(r.cycles),
              static_cast<unsigned long long>(r.kernel_cycles), static_cast<unsigned long long>(r.workgroups),
              static_cast<unsigned long long>(r.waves), static_cast<unsigned long long>(r.wave_instructions), seconds,
              seconds > 0 ? double(r.wave_instructions) / seconds / 1e6 : 0.0);
}

int run_launch(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(args,
                                      {{"--kernel", true, false},
                                       {"--grid", true, false},
                                       {"--block", true, false},
                                       {"--arg", true, true},
                                       {"--dump", true, true},
                                       {"--force", false, false},
                                       {"--seed", true, false},
                                       {"--max-instructions", true, false},
                                       {"--netlist", true, false},
                                       {"--set", true, true},
                                       {"--stats", true, false},
                                       {"--max-cycles", true, false}},
                                      1, 1);
  const std::string& file = parsed.positional[0];
  const auto kernel = parsed.value("--kernel");
  if (!kernel) throw UsageError("name the kernel to run with --kernel NAME");
  const bool timing = parsed.value("--netlist").has_value();
  if (!timing && (!parsed.values("--set").empty() || parsed.value("--stats") || parsed.value("--max-cycles")))
    throw UsageError("--set, --stats and --max-cycles apply to the timing platform: add --netlist FILE");
  if (timing && parsed.value("--max-instructions"))
    throw UsageError("--max-instructions applies to the functional executor; on a netlist use --max-cycles");
  const auto stats_file = parsed.value("--stats");
  const bool force = parsed.flag("--force");
  if (stats_file) check_output_path(*stats_file, force, "statistics file");
  isa::LaunchConfig config;
  parse_dims("--grid", parsed.value("--grid").value_or("1"), config.grid);
  parse_dims("--block", parsed.value("--block").value_or("64"), config.workgroup);
  std::mt19937_64 rng(parse_uint("--seed", parsed.value("--seed").value_or("1")));
  isa::ExecutorOptions options;
  if (auto m = parsed.value("--max-instructions")) options.instruction_limit = parse_uint("--max-instructions", *m);
  std::vector<Dump> dumps;
  for (const std::string& d : parsed.values("--dump")) dumps.push_back(parse_dump(d, force));

  // Bad files exit 3 before any work (and before a platform is built).
  const isa::CodeObject code = isa::CodeObject::load_file(file);
  const isa::KernelInfo* info = code.find_kernel(*kernel);
  if (!info) throw UserError(file + " has no kernel '" + *kernel + "'; it has: " + code.kernel_names());
  const std::vector<const isa::KernelArg*> metas = info->explicit_args();

  std::unique_ptr<FunctionalDevice> functional;
  std::unique_ptr<TimingDevice> platform;
  if (timing) platform = make_launch_platform(parsed);
  else functional = std::make_unique<FunctionalDevice>("", options);
  runtime::Device& dev = timing ? static_cast<runtime::Device&>(*platform) : *functional;

  std::vector<Buffer> buffers;
  uint64_t held = 0;
  for (const std::string& spec : parsed.values("--arg")) {
    Buffer b;
    const size_t index = buffers.size();
    config.args.push_back(parse_arg(spec, index < metas.size() ? metas[index] : nullptr, dev, rng, held, b));
    buffers.push_back(b);
    held += b.bytes;
  }
  for (const Dump& d : dumps)
    if (d.arg >= buffers.size() || buffers[d.arg].bytes == 0)
      throw UsageError("--dump " + std::to_string(d.arg) + ": argument " + std::to_string(d.arg) + " is not a buffer");

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  try {
    if (timing) {
      const LaunchResult r = platform->launch_file(file, *kernel, config);
      print_timing_launch(*kernel, r, *platform, elapsed());
    } else {
      print_functional_launch(*kernel, functional->launch_file(file, *kernel, config), elapsed());
    }
  } catch (const isa::KernelFault& e) {
    std::cerr << "tessera launch: " << e.what() << '\n';
    write_dumps(dumps, buffers, dev, force, true);
    return cli::kFailure;
  } catch (const runtime::DeviceError& e) {  // the timing platform's faults and hangs
    std::cerr << "tessera launch: " << e.what() << '\n';
    write_dumps(dumps, buffers, dev, force, true);
    if (platform) platform->stop();
    return cli::kFailure;
  }
  write_dumps(dumps, buffers, dev, force, false);
  if (platform && stats_file) {
    write_stats_file(*stats_file, platform->finish(), force);
    std::printf("statistics written to %s\n", stats_file->c_str());
  } else if (platform) {
    platform->stop();
  }
  return cli::kOk;
}

}  // namespace

TESSERA_REGISTER_COMMAND(launch_command,
                         cli::Command{"launch", "run one kernel of a code object (functional, or timing with --netlist)",
                                      "usage: tessera launch FILE.hsaco --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]]\n"
                                      "                      [--arg SPEC]... [--dump N=FILE]... [--force] [--seed S]\n"
                                      "                      [--max-instructions N]\n"
                                      "                      [--netlist FILE [--set PATH=VALUE]... [--stats FILE]\n"
                                      "                       [--max-cycles N]]\n\n"
                                      "Runs kernel NAME over --grid work-items (default 1) in workgroups of --block\n"
                                      "(default 64) on the functional executor and prints workgroups, waves,\n"
                                      "wave-instructions, time and speed. The code object is loaded as the HSA\n"
                                      "loader does (code, constant data and data in device memory, relocations\n"
                                      "applied). Arguments, in declaration order:\n"
                                      "  buf:TYPE:COUNT:INIT  a new buffer of COUNT elements; INIT is zero, random\n"
                                      "                       (floats in [-1,1), integers in [0,65536)), random(LO,HI)\n"
                                      "                       (floats in [LO,HI), integers in [LO,HI]; both from\n"
                                      "                       --seed), iota (0,1,2,...), file=PATH (raw bytes; the\n"
                                      "                       file must hold exactly COUNT elements) or a value\n"
                                      "                       repeated\n"
                                      "  local:BYTES          the size of a __local pointer argument\n"
                                      "  TYPE:VALUE           a by-value argument, e.g. i32:5, f32:1.5\n"
                                      "  TYPExN:V1,...,VN     a by-value vector (N = 2, 3, 4, 8, 16), e.g. u32x2:1,2 or\n"
                                      "                       f32x4:1,0,0,1 (a 3-vector takes four elements' room)\n"
                                      "  bytes:HEX            any by-value argument (a struct) as its bytes in memory\n"
                                      "                       order, e.g. bytes:0100000000002040\n"
                                      "TYPE is f32 f64 i8 u8 i16 u16 i32 u32 i64 u64. A by-value argument must have\n"
                                      "the size the kernel's metadata gives it; it is placed at the metadata's offset.\n"
                                      "  --dump N=FILE        write argument N's buffer to FILE after the run (raw bytes;\n"
                                      "                       an existing FILE needs --force), also when the kernel\n"
                                      "                       faults (then it holds what the kernel wrote until then)\n"
                                      "  --max-instructions N stop as hung after N wave-instructions\n\n"
                                      "With --netlist FILE the kernel runs on the timing platform that netlist\n"
                                      "describes, with the same arguments, and the run prints simulated cycles:\n"
                                      "  --set PATH=VALUE     override a parameter, e.g. --set 'l2[*].size=1 MiB'\n"
                                      "  --stats FILE         write every statistic as JSON (an existing FILE needs\n"
                                      "                       --force)\n"
                                      "  --max-cycles N       stop a launch that has not finished after N cycles\n\n"
                                      "Exit status: 0 completed, 1 the kernel faulted (the report names workgroup,\n"
                                      "wave, PC, instruction and address), 2 bad command line, 3 bad input file.",
                                      run_launch});

}  // namespace tessera
