// The CPU reference of one Jacobi step of the 5-point stencil kernels
// (stencil2d.cl, stencil_iter.cl): interior cells become half themselves plus
// an eighth of their four neighbours, boundary cells stay; exact in float for
// these weights, as on the GPU.
#pragma once
#include <cstddef>
#include <vector>

namespace tessera::workloads {

inline std::vector<float> jacobi_step(const std::vector<float>& in, size_t width, size_t height) {
  std::vector<float> out(in);
  for (size_t y = 1; y + 1 < height; ++y)
    for (size_t x = 1; x + 1 < width; ++x) {
      float neighbours = in[(y - 1) * width + x] + in[(y + 1) * width + x] + in[y * width + x - 1] +
                         in[y * width + x + 1];
      out[y * width + x] = 0.5f * in[y * width + x] + 0.125f * neighbours;
    }
  return out;
}

}  // namespace tessera::workloads
