#include "platform/units.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "platform/errors.h"

namespace tessera {
namespace {

struct Unit {
  const char* name;
  double scale;
};

// Decimal prefixes for rates and bytes (KB = 1000 B), binary prefixes for KiB etc.
const std::vector<Unit>& units_for(Quantity q) {
  static const std::vector<Unit> size = {
      {"B", 1},          {"KB", 1e3},           {"MB", 1e6},
      {"GB", 1e9},       {"TB", 1e12},          {"KiB", 1024.0},
      {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  static const std::vector<Unit> freq = {{"Hz", 1}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
  static const std::vector<Unit> time = {{"fs", 1e-15}, {"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6},
                                         {"ms", 1e-3},  {"s", 1}};
  static const std::vector<Unit> bw = {
      {"B/s", 1},          {"KB/s", 1e3},           {"MB/s", 1e6},
      {"GB/s", 1e9},       {"TB/s", 1e12},          {"KiB/s", 1024.0},
      {"MiB/s", 1048576.0}, {"GiB/s", 1073741824.0}, {"TiB/s", 1099511627776.0}};
  switch (q) {
    case Quantity::Size: return size;
    case Quantity::Frequency: return freq;
    case Quantity::Time: return time;
    case Quantity::Bandwidth: return bw;
  }
  return size;
}

std::string unit_list(Quantity q) {
  std::string out;
  for (const auto& u : units_for(q)) {
    if (!out.empty()) out += ", ";
    out += u.name;
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

const char* quantity_name(Quantity q) {
  switch (q) {
    case Quantity::Size: return "size";
    case Quantity::Frequency: return "frequency";
    case Quantity::Time: return "time";
    case Quantity::Bandwidth: return "bandwidth";
  }
  return "quantity";
}

const char* quantity_example(Quantity q) {
  switch (q) {
    case Quantity::Size: return "\"16 KiB\"";
    case Quantity::Frequency: return "\"1.8 GHz\"";
    case Quantity::Time: return "\"40 ns\"";
    case Quantity::Bandwidth: return "\"768 GB/s\"";
  }
  return "";
}

double parse_quantity(const std::string& raw, Quantity q) {
  const std::string text = trim(raw);
  const std::string expected =
      std::string("expected a ") + quantity_name(q) + " such as " + quantity_example(q);
  if (text.empty()) throw UserError(expected + ", got an empty string");
  // Hex sizes ("0x1000") are plain byte counts: addresses are written that way.
  if (q == Quantity::Size && text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    std::string digits;
    for (char c : text.substr(2))
      if (c != '_') digits += c;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(digits.c_str(), &end, 16);
    if (digits.empty() || *end != '\0' || digits[0] == '-' || digits[0] == '+')
      throw UserError(expected + ", got \"" + raw + "\" (bad hex number)");
    if (errno == ERANGE) throw UserError(expected + ", got \"" + raw + "\" (more than 64 bits)");
    return static_cast<double>(v);
  }
  const char* begin = text.c_str();
  char* end = nullptr;
  double value = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(value))
    throw UserError(expected + ", got \"" + raw + "\" (no number)");
  std::string unit = trim(std::string(end));
  if (unit.empty())
    throw UserError(expected + ", got \"" + raw + "\" (missing unit; one of " + unit_list(q) + ")");
  for (const auto& u : units_for(q)) {
    if (unit == u.name) {
      if (value < 0) throw UserError(expected + ", got \"" + raw + "\" (negative)");
      return value * u.scale;
    }
  }
  throw UserError(expected + ", got \"" + raw + "\" (unknown unit \"" + unit + "\"; one of " +
                  unit_list(q) + ")");
}

void check_size_range(double bytes, const std::string& text) {
  // 2^64 is exact as a double; anything at or above it has no uint64_t value.
  if (bytes >= 18446744073709551616.0)
    throw UserError("size \"" + text + "\" is too large: sizes must be below 2^64 bytes (16 EiB)");
}

uint64_t parse_size(const std::string& text) {
  double v = parse_quantity(text, Quantity::Size);
  if (v != std::floor(v)) throw UserError("expected a whole number of bytes, got \"" + text + "\"");
  check_size_range(v, text);
  return static_cast<uint64_t>(v);
}

std::string format_quantity(double value, Quantity q) {
  char buf[64] = "";
  if (q == Quantity::Size) {
    static const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = value;
    while (i < 4 && v >= 1024 && std::fmod(v, 1024) == 0) {
      v /= 1024;
      ++i;
    }
    std::snprintf(buf, sizeof buf, "%.15g %s", v, names[i]);
    return buf;
  }
  struct Step {
    double scale;
    const char* name;
  };
  static const Step freq[] = {{1e9, "GHz"}, {1e6, "MHz"}, {1e3, "kHz"}, {1, "Hz"}};
  static const Step time[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}, {1e-12, "ps"}};
  static const Step bw[] = {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "KB/s"}, {1, "B/s"}};
  const Step* steps = q == Quantity::Frequency ? freq : q == Quantity::Time ? time : bw;
  const int n = q == Quantity::Time ? 5 : q == Quantity::Frequency ? 4 : 5;
  for (int i = 0; i < n; ++i) {
    if (std::fabs(value) >= steps[i].scale * 0.999999 || i == n - 1) {
      std::snprintf(buf, sizeof buf, "%.6g %s", value / steps[i].scale, steps[i].name);
      return buf;
    }
  }
  return buf;
}

std::string format_rounded_size(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) bytes /= 1024, ++unit;
  char buf[32];
  std::snprintf(buf, sizeof buf, bytes < 1000 ? "%.3g %s" : "%.0f %s", bytes, kUnits[unit]);  // no "1.02e+03"
  return buf;
}

}  // namespace tessera
