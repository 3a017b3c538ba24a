#include "sw/workloads/compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace tessera::workloads {
namespace {

constexpr double kUnitRoundoff = 0x1p-24;  // binary32, round to nearest
constexpr int kMismatchesShown = 4;

// Maps a float's bits onto a line where adjacent floats are adjacent integers.
int64_t ordered(uint32_t bits, uint32_t sign_bit) {
  return (bits & sign_bit) ? -int64_t(bits & (sign_bit - 1)) : int64_t(bits);
}

template <class T>
T element(const Output& o, size_t i) {
  T v;
  std::memcpy(&v, o.bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

bool float_matches(const Output& want, size_t i, double got, double expected, uint64_t ulps) {
  if (std::isnan(got) || std::isnan(expected)) return std::isnan(got) && std::isnan(expected);
  if (ulps <= want.max_ulps) return true;
  return !want.abs_bound.empty() && std::fabs(got - expected) <= want.abs_bound[i];
}

// Whether element i matches; when `out` is given, also both values printed
// there for a report (no stream is made for the elements that match).
bool element_matches(const Output& got, const Output& want, size_t i, std::ostream* out) {
  bool ok = false;
  switch (want.type) {
    case ElementType::u8: {
      auto a = element<uint8_t>(got, i), b = element<uint8_t>(want, i);
      ok = a == b;
      if (out) *out << unsigned(a) << " vs " << unsigned(b);
      break;
    }
    case ElementType::i32: {
      auto a = element<int32_t>(got, i), b = element<int32_t>(want, i);
      ok = a == b;
      if (out) *out << a << " vs " << b;
      break;
    }
    case ElementType::u32: {
      auto a = element<uint32_t>(got, i), b = element<uint32_t>(want, i);
      ok = a == b;
      if (out) *out << a << " vs " << b;
      break;
    }
    case ElementType::f16: {
      auto a = element<uint16_t>(got, i), b = element<uint16_t>(want, i);
      ok = (a == b) || half_ulp_distance(a, b) <= want.max_ulps;
      if (out) *out << "0x" << std::hex << a << " vs 0x" << b << std::dec;
      break;
    }
    case ElementType::f32: {
      auto a = element<float>(got, i), b = element<float>(want, i);
      uint64_t ulps = ulp_distance(a, b);
      ok = float_matches(want, i, a, b, ulps);
      if (!out) break;
      out->precision(9);
      *out << a << " vs " << b << " (" << ulps << " ulps";
      if (!want.abs_bound.empty()) *out << ", |diff| " << std::fabs(double(a) - double(b)) << " > " << want.abs_bound[i];
      *out << ")";
      break;
    }
  }
  return ok;
}

}  // namespace

uint64_t ulp_distance(float a, float b) {
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  int64_t d = ordered(x, 0x80000000u) - ordered(y, 0x80000000u);
  return uint64_t(d < 0 ? -d : d);
}

uint64_t half_ulp_distance(uint16_t a, uint16_t b) {
  int64_t d = ordered(a, 0x8000u) - ordered(b, 0x8000u);
  return uint64_t(d < 0 ? -d : d);
}

double sum_error_bound(size_t terms, double magnitude) {
  double n = double(terms + 1);
  double gamma = n * kUnitRoundoff / (1.0 - n * kUnitRoundoff);
  // The smallest normal float absorbs differences in how denormal results are flushed.
  return 2.0 * gamma * magnitude + 0x1p-126;
}

std::string compare_outputs(const Output& got, const Output& want) {
  if (got.type != want.type || got.bytes.size() != want.bytes.size()) {
    std::ostringstream s;
    s << want.name << ": expected " << want.count() << " " << element_type_name(want.type) << " elements, got "
      << got.count() << " " << element_type_name(got.type);
    return s.str();
  }
  if (!want.abs_bound.empty() && want.abs_bound.size() != want.count())
    return want.name + ": the tolerance has " + std::to_string(want.abs_bound.size()) + " bounds for " +
           std::to_string(want.count()) + " elements";
  size_t bad = 0;
  std::ostringstream shown;
  for (size_t i = 0; i < want.count(); ++i) {
    if (element_matches(got, want, i, nullptr)) continue;
    if (bad < kMismatchesShown) {
      shown << "\n  [" << i << "] ";
      element_matches(got, want, i, &shown);
    }
    ++bad;
  }
  if (bad == 0) return "";
  std::ostringstream s;
  s << want.name << ": " << bad << " of " << want.count() << " elements differ (tolerance: " << want.tolerance
    << ")" << shown.str();
  return s.str();
}

void conclude(Result& result, std::vector<Output> device, const std::vector<Output>& reference) {
  std::string problems;
  for (size_t i = 0; i < reference.size(); ++i) {
    if (i >= device.size()) {
      problems += (problems.empty() ? "" : "\n") + reference[i].name + ": missing from the device outputs";
      continue;
    }
    device[i].max_ulps = reference[i].max_ulps;
    device[i].abs_bound = reference[i].abs_bound;
    device[i].tolerance = reference[i].tolerance;
    std::string m = compare_outputs(device[i], reference[i]);
    if (!m.empty()) problems += (problems.empty() ? "" : "\n") + m;
  }
  result.passed = problems.empty();
  if (!result.passed) result.message = problems;
  else if (result.message.empty()) result.message = "outputs match the CPU reference";
  result.outputs = std::move(device);
}

}  // namespace tessera::workloads
