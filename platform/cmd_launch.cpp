// `tessera launch FILE.hsaco --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] --arg ...`:
// runs one kernel of a code object on the functional executor with buffers
// and values described on the command line, and reports wave-instructions,
// time and speed. Exit 0 when the kernel completes, 1 when it faults (with the
// fault report), 2 for a bad command line, 3 for bad input.
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/functional_device.h"
#include "platform/options.h"
#include "platform/output_file.h"

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

// Buffer contents: zero, random (floats in [-1, 1), integers in [0, 65536)),
// iota (0, 1, 2, ...) or one value repeated.
std::vector<uint8_t> fill_buffer(const ElemType& t, uint64_t count, const std::string& init, std::mt19937_64& rng,
                                 const std::string& what) {
  std::vector<uint8_t> out(count * t.bytes, 0);
  if (init == "zero") return out;
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

int run_launch(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(args,
                                      {{"--kernel", true, false},
                                       {"--grid", true, false},
                                       {"--block", true, false},
                                       {"--arg", true, true},
                                       {"--dump", true, true},
                                       {"--force", false, false},
                                       {"--seed", true, false},
                                       {"--max-instructions", true, false}},
                                      1, 1);
  const std::string& file = parsed.positional[0];
  const auto kernel = parsed.value("--kernel");
  if (!kernel) throw UsageError("name the kernel to run with --kernel NAME");
  isa::LaunchConfig config;
  parse_dims("--grid", parsed.value("--grid").value_or("1"), config.grid);
  parse_dims("--block", parsed.value("--block").value_or("64"), config.workgroup);
  std::mt19937_64 rng(parse_uint("--seed", parsed.value("--seed").value_or("1")));
  isa::ExecutorOptions options;
  if (auto m = parsed.value("--max-instructions")) options.instruction_limit = parse_uint("--max-instructions", *m);
  std::vector<Dump> dumps;
  for (const std::string& d : parsed.values("--dump")) dumps.push_back(parse_dump(d, parsed.flag("--force")));

  FunctionalDevice dev("", options);
  const isa::CodeObject& code = dev.load(file);  // bad files: exit 3 before any work
  if (!code.find_kernel(*kernel)) throw UserError(file + " has no kernel '" + *kernel + "'; it has: " + code.kernel_names());

  std::vector<Buffer> buffers;
  for (const std::string& spec : parsed.values("--arg")) {
    const std::string what = "--arg " + spec;
    const std::vector<std::string> f = split(spec, ':');
    isa::ArgValue v;
    Buffer b;
    if (f[0] == "buf") {
      if (f.size() != 4) throw UsageError(what + ": expected buf:TYPE:COUNT:zero|random|iota|VALUE");
      const ElemType* t = find_type(f[1]);
      if (!t) throw UsageError(what + ": unknown element type \"" + f[1] + "\" (f32 f64 i8 u8 i16 u16 i32 u32 i64 u64)");
      const uint64_t count = parse_uint(what, f[2]);
      if (count == 0 || count > (1ull << 30)) throw UsageError(what + ": COUNT must be between 1 and 2^30");
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
    } else if (const ElemType* t = find_type(f[0]); t && f.size() == 2) {
      v.bytes = encode(*t, f[1], what);
    } else {
      throw UsageError(what + ": expected buf:TYPE:COUNT:INIT, local:BYTES or TYPE:VALUE (e.g. i32:5, f32:1.5)");
    }
    buffers.push_back(b);
    config.args.push_back(std::move(v));
  }
  for (const Dump& d : dumps)
    if (d.arg >= buffers.size() || buffers[d.arg].bytes == 0)
      throw UsageError("--dump " + std::to_string(d.arg) + ": argument " + std::to_string(d.arg) + " is not a buffer");

  const bool force = parsed.flag("--force");
  const auto start = std::chrono::steady_clock::now();
  isa::ExecStats s;
  try {
    s = dev.launch_file(file, *kernel, config);
  } catch (const isa::KernelFault& e) {
    std::cerr << "tessera launch: " << e.what() << '\n';
    return cli::kFailure;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("kernel %s: %llu workgroups, %llu waves, %llu wave-instructions in %.3f s (%.2f M wave-instructions/s)\n",
              kernel->c_str(), static_cast<unsigned long long>(s.workgroups), static_cast<unsigned long long>(s.waves),
              static_cast<unsigned long long>(s.wave_instructions), seconds,
              seconds > 0 ? double(s.wave_instructions) / seconds / 1e6 : 0.0);
  for (const Dump& d : dumps) {
    std::vector<uint8_t> data(buffers[d.arg].bytes);
    dev.read(data.data(), buffers[d.arg].address, data.size());
    write_file_atomically(d.path, std::string(data.begin(), data.end()), force, "--dump file");
    std::printf("argument %zu: %zu bytes written to %s\n", d.arg, data.size(), d.path.c_str());
  }
  return cli::kOk;
}

}  // namespace

TESSERA_REGISTER_COMMAND(launch_command,
                         cli::Command{"launch", "run one kernel of a code object on the functional executor",
                                      "usage: tessera launch FILE.hsaco --kernel NAME [--grid X[,Y,Z]] [--block X[,Y,Z]]\n"
                                      "                      [--arg SPEC]... [--dump N=FILE]... [--force] [--seed S]\n"
                                      "                      [--max-instructions N]\n\n"
                                      "Runs kernel NAME over --grid work-items (default 1) in workgroups of --block\n"
                                      "(default 64) on the functional executor and prints workgroups, waves,\n"
                                      "wave-instructions, time and speed. Arguments, in declaration order:\n"
                                      "  buf:TYPE:COUNT:INIT  a new buffer of COUNT elements; INIT is zero, random\n"
                                      "                       (floats in [-1,1), integers in [0,65536), from --seed),\n"
                                      "                       iota (0,1,2,...) or a value repeated\n"
                                      "  local:BYTES          the size of a __local pointer argument\n"
                                      "  TYPE:VALUE           a by-value argument, e.g. i32:5, f32:1.5\n"
                                      "TYPE is f32 f64 i8 u8 i16 u16 i32 u32 i64 u64.\n"
                                      "  --dump N=FILE        write argument N's buffer to FILE after the run (raw bytes;\n"
                                      "                       an existing FILE needs --force)\n"
                                      "  --max-instructions N stop as hung after N wave-instructions\n\n"
                                      "Exit status: 0 completed, 1 the kernel faulted (the report names workgroup,\n"
                                      "wave, PC, instruction and address), 2 bad command line, 3 bad input file.",
                                      run_launch});

}  // namespace tessera
