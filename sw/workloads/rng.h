// The seeded input generator of the workload suite.
//
// SplitMix64 with our own mapping to ranges: the standard library's
// distributions are not specified bit for bit, so they would give different
// inputs with different library versions; these give the same everywhere.
#pragma once
#include <cstdint>

namespace tessera::workloads {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  uint64_t next_u64() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t next_u32() { return uint32_t(next_u64() >> 32); }

  // In [0, bound) by multiply-shift; the bias is below 2^-32 * bound, which
  // does not matter for test inputs, and the mapping is exact integer arithmetic.
  uint32_t below(uint32_t bound) { return uint32_t((uint64_t(next_u32()) * bound) >> 32); }

  // In [lo, hi), drawn from 24 random bits so every value is a float computed exactly.
  float uniform(float lo, float hi) {
    double unit = double(next_u32() >> 8) * 0x1p-24;
    return float(double(lo) + (double(hi) - double(lo)) * unit);
  }

  // k / denominator for an integer k in [-range, range]: values on a coarse
  // dyadic grid whose products and sums stay exact in binary floating point.
  float dyadic(int32_t range, int32_t denominator) {
    int32_t k = int32_t(below(uint32_t(2 * range + 1))) - range;
    return float(k) / float(denominator);
  }

  bool chance(double p) { return double(next_u32()) * 0x1p-32 < p; }

 private:
  uint64_t state_;
};

}  // namespace tessera::workloads
