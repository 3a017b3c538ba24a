// Input sparsity for the zero-sensitive workloads (relu_s*, fir_s*, spmv_s*,
// conv_relu50): a fraction of a buffer's elements set to zero.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "sw/workloads/rng.h"

namespace tessera::workloads {

// Sets each element to zero with probability `fraction`, drawn from its own
// generator (seeded from `seed`), so that the other inputs a workload draws
// are the same at every sparsity and fraction 0 leaves the data untouched.
inline void zero_fraction(std::vector<float>& v, double fraction, uint64_t seed) {
  if (fraction <= 0.0) return;
  Rng rng(seed ^ 0x5a5a0f0f3c3cc3c3ull);
  for (auto& x : v)
    if (rng.chance(fraction)) x = 0.0f;
}

// "37% zero" for a result's shape line.
inline std::string zero_percent(const std::vector<float>& v) {
  const size_t zeros = size_t(std::count(v.begin(), v.end(), 0.0f));
  return std::to_string(v.empty() ? 0 : int(100.0 * double(zeros) / double(v.size()) + 0.5)) + "% zero";
}

}  // namespace tessera::workloads
