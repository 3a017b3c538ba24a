// What the 2D image workloads (gaussian_blur, sobel, xaddr2d) share: the
// workgroup shapes of DARSIE's shape sweep, the padded launch grid, the
// clamp-to-edge rule and the registration of one workload per shape.
//
// The kernels have no bounds branch: every work-item of the rounded-up grid
// reads clamped coordinates and writes its own cell of a pitched output whose
// rows are the grid's width. A guard on work-item y would put everything
// after it under a branch on y, which the kernel analysis must mark varying;
// without it, the per-column work stays conditionally redundant. The host
// checks every cell of the pitched output, padding included.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sw/workloads/workload.h"

namespace tessera::workloads {

struct GroupShape {
  uint32_t x = 16, y = 16;
  std::string name() const { return std::to_string(x) + "x" + std::to_string(y); }
};

// The sweep: 16x16 (the workload's plain name), then 256x1, 32x8, 8x32, 24x8,
// registered as NAME_256x1 and so on.
const std::vector<GroupShape>& shape_sweep();

// An image of width x height pixels launched in workgroups of `shape`: the
// grid is rounded up to whole workgroups and is also the output's extent.
struct ImageGrid {
  uint32_t width = 0, height = 0;  // the image
  uint32_t pitch = 0, rows = 0;    // the grid and the output
  GroupShape shape;

  ImageGrid(size_t image_width, size_t image_height, GroupShape group);
  Dim3 global() const { return Dim3{pitch, rows}; }
  Dim3 local() const { return Dim3{shape.x, shape.y}; }
  size_t cells() const { return size_t(pitch) * rows; }
  // Clamp-to-edge, as the kernels do it (x and y may be past the image).
  uint32_t clamp_x(int64_t x) const { return uint32_t(x < 0 ? 0 : x >= width ? width - 1 : x); }
  uint32_t clamp_y(int64_t y) const { return uint32_t(y < 0 ? 0 : y >= height ? height - 1 : y); }
  std::string describe() const;  // e.g. "45x40 image, 16x16 workgroups"
};

// 8-bit pixels, one per uint, drawn from the seed.
std::vector<uint32_t> random_pixels(size_t count, uint64_t seed);

using ShapedRun = std::function<Result(Device&, size_t size, uint64_t seed, GroupShape shape)>;

// Registers `name` with 16x16 workgroups and name_WxH for the other shapes of
// the sweep; the doc line gets the shape appended.
void register_shape_sweep(const std::string& name, const std::string& doc, size_t default_size,
                          const std::vector<size_t>& test_sizes, const ShapedRun& run);

}  // namespace tessera::workloads
