// Input sparsity for the zero-sensitive workloads (relu_s*, fir_s*, spmv_s*,
// conv_relu50): a fraction of a buffer's elements set to zero; and magnitude
// pruning of weights (pruned_gemv*, conv_pruned50).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
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

// Zeroes the `fraction` smallest-magnitude weights of each row. The threshold
// is a value (the k-th smallest magnitude), so the pruned set does not depend
// on how a library orders equal elements.
inline void prune_rows(std::vector<float>& w, size_t rows, size_t cols, double fraction) {
  const size_t prune = size_t(double(cols) * fraction);
  if (prune == 0) return;
  std::vector<float> magnitudes(cols);
  for (size_t r = 0; r < rows; ++r) {
    float* row = &w[r * cols];
    for (size_t c = 0; c < cols; ++c) magnitudes[c] = std::fabs(row[c]);
    std::nth_element(magnitudes.begin(), magnitudes.begin() + (prune - 1), magnitudes.end());
    const float threshold = magnitudes[prune - 1];
    for (size_t c = 0; c < cols; ++c)
      if (std::fabs(row[c]) <= threshold) row[c] = 0.0f;
  }
}

// Block (structured) pruning: each row is cut into blocks of `block`
// consecutive weights, and the `fraction` of its blocks with the smallest sum
// of squares is set to zero (ties by position, lower first, so the result does
// not depend on a sort's order). A row's tail shorter than a block stays.
inline void prune_row_blocks(std::vector<float>& w, size_t rows, size_t cols, size_t block, double fraction) {
  const size_t blocks = cols / block, prune = size_t(double(blocks) * fraction);
  if (prune == 0) return;
  std::vector<std::pair<double, size_t>> energy(blocks);  // (sum of squares, block)
  for (size_t r = 0; r < rows; ++r) {
    float* row = &w[r * cols];
    for (size_t b = 0; b < blocks; ++b) {
      double e = 0.0;
      for (size_t k = 0; k < block; ++k) e += double(row[b * block + k]) * row[b * block + k];
      energy[b] = {e, b};
    }
    std::nth_element(energy.begin(), energy.begin() + (prune - 1), energy.end());
    for (size_t i = 0; i < prune; ++i) std::fill_n(row + energy[i].second * block, block, 0.0f);
  }
}

// "37% zero" for a result's shape line.
inline std::string zero_percent(const std::vector<float>& v) {
  const size_t zeros = size_t(std::count(v.begin(), v.end(), 0.0f));
  return std::to_string(v.empty() ? 0 : int(100.0 * double(zeros) / double(v.size()) + 0.5)) + "% zero";
}

}  // namespace tessera::workloads
