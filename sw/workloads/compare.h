// Comparing a run's outputs with its CPU reference, or with another device's
// outputs, under each output's tolerance rule (see Output in workload.h).
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "sw/workloads/workload.h"

namespace tessera::workloads {

// How far apart two results may be. The default is exact.
struct Tolerance {
  uint32_t max_ulps = 0;
  std::vector<double> abs_bound;  // per element; empty means "ulps only"
  std::string text = "exact";
};

// Distance between two floats in units in the last place (+0 and -0 are 0 apart).
uint64_t ulp_distance(float a, float b);
uint64_t half_ulp_distance(uint16_t a, uint16_t b);

// The bound on |a - b| for two implementations that each compute a sum of
// `terms` rounded operations (products or additions, possibly fused) whose
// magnitudes add up to `magnitude`. Each implementation is within
// gamma(terms) * magnitude of the exact value (gamma(n) = n u / (1 - n u),
// u = 2^-24, the classic rounding-error bound for recursive summation and dot
// products in any order); two of them are within twice that. One extra term of
// slack covers a final multiply or a contraction into fma.
double sum_error_bound(size_t terms, double magnitude);

template <class T>
constexpr ElementType element_type_of() {
  if constexpr (std::is_same_v<T, float>) return ElementType::f32;
  else if constexpr (std::is_same_v<T, int32_t>) return ElementType::i32;
  else if constexpr (std::is_same_v<T, uint32_t>) return ElementType::u32;
  else if constexpr (std::is_same_v<T, uint16_t>) return ElementType::f16;  // f16 data is carried as its bits
  else {
    static_assert(std::is_same_v<T, uint8_t>, "unsupported output element type");
    return ElementType::u8;
  }
}

template <class T>
Output make_output(const std::string& name, const std::vector<T>& values, const Tolerance& tol = {}) {
  Output o;
  o.name = name;
  o.type = element_type_of<T>();
  o.bytes.resize(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(o.bytes.data(), values.data(), o.bytes.size());
  o.max_ulps = tol.max_ulps;
  o.abs_bound = tol.abs_bound;
  o.tolerance = tol.text;
  return o;
}

// "" when `got` matches `want` under want's rule; otherwise a message naming the
// buffer, how many elements differ and the first few of them with their bound.
std::string compare_outputs(const Output& got, const Output& want);

// Finishes a run: compares each device output with the reference output of the
// same position, sets result.passed and result.message, and keeps the device
// outputs (carrying the reference's rule) for cross-device comparison.
void conclude(Result& result, std::vector<Output> device, const std::vector<Output>& reference);

}  // namespace tessera::workloads
