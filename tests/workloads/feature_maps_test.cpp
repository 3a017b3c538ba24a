// The feature maps the conv_*_fmap_* layers read: each channel's share of
// zeros, the value range, determinism, and zeros in patches (what makes them
// differ from zero_fraction's independent zeros).
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>

#include "sw/workloads/feature_maps.h"
#include "sw/workloads/sparsity.h"

using namespace tessera::workloads;

namespace {

// The share of aligned runs of `run` elements (a cache line's words along a
// row) that are all zero.
double all_zero_runs(const std::vector<float>& v, size_t run) {
  size_t runs = 0, zero = 0;
  for (size_t i = 0; i + run <= v.size(); i += run, ++runs)
    zero += std::all_of(v.begin() + long(i), v.begin() + long(i + run), [](float x) { return x == 0.0f; });
  return double(zero) / double(runs);
}

}  // namespace

TEST_CASE("feature maps: each channel has the requested share of zeros, values in [0, 1]", "[workloads][sparsity]") {
  const uint32_t channels = 16, hw = 32, plane = hw * hw;
  for (double sparsity : {0.25, 0.5, 0.75}) {
    const std::vector<float> maps = relu_feature_maps(channels, hw, sparsity, 7);
    REQUIRE(maps.size() == size_t(channels) * plane);
    for (uint32_t c = 0; c < channels; ++c) {
      const auto first = maps.begin() + long(c) * plane, last = first + plane;
      CHECK(size_t(std::count(first, last, 0.0f)) == size_t(plane * sparsity + 0.5));
      CHECK(*std::min_element(first, last) == 0.0f);
      CHECK(*std::max_element(first, last) == 1.0f);
    }
  }
  // Sparsity 0 still cuts the smallest element (the values stay non-negative).
  const std::vector<float> dense = relu_feature_maps(1, hw, 0.0, 7);
  CHECK(std::count(dense.begin(), dense.end(), 0.0f) == 1);
  CHECK_THROWS_AS(relu_feature_maps(1, hw, 1.0, 7), std::invalid_argument);
  CHECK_THROWS_AS(relu_feature_maps(1, hw, -0.5, 7), std::invalid_argument);
}

TEST_CASE("feature maps: the same seed gives the same maps, another seed others", "[workloads][sparsity]") {
  CHECK(relu_feature_maps(4, 20, 0.5, 1) == relu_feature_maps(4, 20, 0.5, 1));
  CHECK(relu_feature_maps(4, 20, 0.5, 1) != relu_feature_maps(4, 20, 0.5, 2));
  CHECK(relu_feature_maps(1, 1, 0.5, 1) == std::vector<float>{0.0f});  // the one element is the cut
}

TEST_CASE("feature maps: their zeros come in patches, independent zeros do not", "[workloads][sparsity]") {
  // 64 channels of 56 x 56, conv_gemm_fmap_pruned50's input: a 64 B line holds
  // 16 words of a row. Independently, all 16 are zero with probability 2^-16.
  const std::vector<float> maps = relu_feature_maps(64, 56, 0.5, 1);
  std::vector<float> independent(maps.size(), 1.0f);
  zero_fraction(independent, 0.5, 1);
  CHECK(all_zero_runs(maps, 16) > 0.1);
  CHECK(all_zero_runs(independent, 16) < 0.001);
}
