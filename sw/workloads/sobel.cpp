// sobel: the Sobel edge magnitude |Gx| + |Gy| of a (size + 3) x size 8-bit
// image, clamp-to-edge, into a pitched output, in every workgroup shape of the
// sweep (docs/DARSIE.md, image2d.h).
#include <cstdlib>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/image2d.h"

namespace tessera::workloads {
namespace {

std::vector<uint32_t> sobel_reference(const std::vector<uint32_t>& image, const ImageGrid& g) {
  std::vector<uint32_t> want(g.cells());
  for (uint32_t y = 0; y < g.rows; ++y)
    for (uint32_t x = 0; x < g.pitch; ++x) {
      auto at = [&](int dx, int dy) {
        return int(image[size_t(g.clamp_y(int64_t(y) + dy)) * g.width + g.clamp_x(int64_t(x) + dx)]);
      };
      const int gx = (at(1, -1) + 2 * at(1, 0) + at(1, 1)) - (at(-1, -1) + 2 * at(-1, 0) + at(-1, 1));
      const int gy = (at(-1, 1) + 2 * at(0, 1) + at(1, 1)) - (at(-1, -1) + 2 * at(0, -1) + at(1, -1));
      want[size_t(y) * g.pitch + x] = uint32_t(std::abs(gx) + std::abs(gy));
    }
  return want;
}

Result run_sobel(Device& device, size_t size, uint64_t seed, GroupShape shape) {
  const ImageGrid g(size + 3, size, shape);
  const std::vector<uint32_t> image = random_pixels(size_t(g.width) * g.height, seed);
  Result result;
  result.shape = g.describe();
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(image), dout = s.alloc(g.cells() * sizeof(uint32_t));
    s.launch("sobel", "sobel", g.global(), g.local(),
             KernelArgs().pointer(din).pointer(dout).value(g.width).value(g.height).value(g.pitch));
    out = s.download<uint32_t>(dout, g.cells());
  }
  conclude(result, {make_output("out", out)}, {make_output("out", sobel_reference(image, g))});
  return result;
}

const bool registered = [] {
  register_shape_sweep("sobel", "Sobel edge magnitude of an 8-bit image, clamp-to-edge; size is the height, width = size + 3",
                       256, {1, 21, 40}, run_sobel);
  return true;
}();

}  // namespace
}  // namespace tessera::workloads
