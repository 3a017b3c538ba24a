// ReLU feature maps as a convolutional network's next layer reads them
// (conv_*_fmap_*): zeros where a feature is absent, which come in patches,
// not scattered one element at a time as zero_fraction's do.
//
// The maps are computed, not drawn: an image with the spectrum of natural
// images (amplitude falling as 1/frequency, made as a sum of octaves of
// interpolated white noise) goes through a 3x3 convolution with random
// filters, and each channel is cut at its own `sparsity` quantile, as a
// batch-norm shift followed by a ReLU would cut it, so each channel has the
// requested fraction of zeros. Nothing in it is chosen for a zero's position:
// which elements are zero follows from the image and the filters.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sw/workloads/rng.h"

namespace tessera::workloads {

namespace feature_maps_detail {

constexpr uint32_t kImageChannels = 3;  // an RGB image

// One channel of hw x hw with a 1/f amplitude spectrum: octaves of white noise
// on grids of cell 1, 2, 4, ... pixels, bilinearly interpolated, each with an
// amplitude proportional to its cell (its wavelength).
inline std::vector<float> natural_image_channel(uint32_t hw, Rng& rng) {
  std::vector<float> image(size_t(hw) * hw, 0.0f);
  for (uint32_t cell = 1; cell <= hw; cell *= 2) {
    const uint32_t grid = hw / cell + 2;
    std::vector<float> noise(size_t(grid) * grid);
    for (auto& v : noise) v = rng.uniform(-1.0f, 1.0f);
    for (uint32_t y = 0; y < hw; ++y)
      for (uint32_t x = 0; x < hw; ++x) {
        const uint32_t gx = x / cell, gy = y / cell;
        const float fx = float(x % cell) / float(cell), fy = float(y % cell) / float(cell);
        const auto at = [&](uint32_t i, uint32_t j) { return noise[size_t(j) * grid + i]; };
        const float top = at(gx, gy) + (at(gx + 1, gy) - at(gx, gy)) * fx;
        const float bottom = at(gx, gy + 1) + (at(gx + 1, gy + 1) - at(gx, gy + 1)) * fx;
        image[size_t(y) * hw + x] += float(cell) * (top + (bottom - top) * fy);
      }
  }
  return image;
}

// One output channel of a 3x3 convolution (zero padding) of `image`.
inline std::vector<float> conv3x3(const std::vector<std::vector<float>>& image, uint32_t hw, Rng& rng) {
  float w[kImageChannels][3][3];
  for (auto& plane : w)
    for (auto& row : plane)
      for (auto& v : row) v = rng.uniform(-1.0f, 1.0f);
  std::vector<float> out(size_t(hw) * hw, 0.0f);
  for (uint32_t y = 0; y < hw; ++y)
    for (uint32_t x = 0; x < hw; ++x) {
      float acc = 0.0f;
      for (uint32_t c = 0; c < kImageChannels; ++c)
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int yy = int(y) + dy, xx = int(x) + dx;
            if (yy < 0 || xx < 0 || yy >= int(hw) || xx >= int(hw)) continue;
            acc += w[c][dy + 1][dx + 1] * image[c][size_t(yy) * hw + size_t(xx)];
          }
      out[size_t(y) * hw + x] = acc;
    }
  return out;
}

// Cuts a channel at its `sparsity` quantile (the values at or below it become
// zero, the others the distance above it) and scales it to a largest value of 1.
// At least one element is cut (the smallest), so the values are never negative.
inline void relu_at_quantile(std::vector<float>& channel, double sparsity) {
  if (channel.empty()) return;
  const size_t zeros = std::max<size_t>(1, size_t(double(channel.size()) * sparsity + 0.5));
  std::vector<float> sorted(channel);
  std::nth_element(sorted.begin(), sorted.begin() + (zeros - 1), sorted.end());
  const float cut = sorted[zeros - 1];
  float top = 0.0f;
  for (auto& v : channel) {
    v = v > cut ? v - cut : 0.0f;
    top = std::max(top, v);
  }
  if (top > 0.0f)
    for (auto& v : channel) v /= top;
}

}  // namespace feature_maps_detail

// `channels` planes of hw x hw floats (channel-major, rows of hw), each with
// `sparsity` of its elements zero (to the nearest element and at least one;
// more only where a channel's values tie at its cut), non-negative, at most 1.
inline std::vector<float> relu_feature_maps(uint32_t channels, uint32_t hw, double sparsity, uint64_t seed) {
  using namespace feature_maps_detail;
  if (!(sparsity >= 0.0 && sparsity < 1.0))
    throw std::invalid_argument("relu_feature_maps: sparsity must be in [0, 1)");
  Rng rng(seed ^ 0x3c6ef372fe94f82bull);
  std::vector<std::vector<float>> image;
  for (uint32_t c = 0; c < kImageChannels; ++c) image.push_back(natural_image_channel(hw, rng));
  std::vector<float> maps;
  maps.reserve(size_t(channels) * hw * hw);
  for (uint32_t k = 0; k < channels; ++k) {
    std::vector<float> channel = conv3x3(image, hw, rng);
    relu_at_quantile(channel, sparsity);
    maps.insert(maps.end(), channel.begin(), channel.end());
  }
  return maps;
}

}  // namespace tessera::workloads
