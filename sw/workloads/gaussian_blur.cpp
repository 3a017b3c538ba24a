// gaussian_blur: a 5x5 binomial blur of a (size + 3) x size 8-bit image,
// clamp-to-edge, into a pitched output (docs/DARSIE.md, image2d.h).
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/image2d.h"

namespace tessera::workloads {
namespace {

constexpr int kRadius = 2;  // matches GB_RADIUS in gaussian_blur.cl
constexpr uint32_t kWeights[2 * kRadius + 1] = {1, 4, 6, 4, 1};

std::vector<uint32_t> blur_reference(const std::vector<uint32_t>& image, const ImageGrid& g) {
  std::vector<uint32_t> want(g.cells());
  for (uint32_t y = 0; y < g.rows; ++y)
    for (uint32_t x = 0; x < g.pitch; ++x) {
      uint32_t acc = 0;
      for (int dy = -kRadius; dy <= kRadius; ++dy) {
        uint32_t row_sum = 0;
        for (int dx = -kRadius; dx <= kRadius; ++dx)
          row_sum += kWeights[dx + kRadius] * image[size_t(g.clamp_y(int64_t(y) + dy)) * g.width + g.clamp_x(int64_t(x) + dx)];
        acc += kWeights[dy + kRadius] * row_sum;
      }
      want[size_t(y) * g.pitch + x] = (acc + 128) >> 8;
    }
  return want;
}

Result run_gaussian_blur(Device& device, size_t size, uint64_t seed, GroupShape shape) {
  const ImageGrid g(size + 3, size, shape);
  const std::vector<uint32_t> image = random_pixels(size_t(g.width) * g.height, seed);
  Result result;
  result.shape = g.describe() + ", 5x5 binomial";
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(image), dout = s.alloc(g.cells() * sizeof(uint32_t));
    s.launch("gaussian_blur", "gaussian_blur", g.global(), g.local(),
             KernelArgs().pointer(din).pointer(dout).value(g.width).value(g.height).value(g.pitch));
    out = s.download<uint32_t>(dout, g.cells());
  }
  conclude(result, {make_output("out", out)}, {make_output("out", blur_reference(image, g))});
  return result;
}

const bool registered = [] {
  register_workload({"gaussian_blur", "5x5 Gaussian blur of an 8-bit image, clamp-to-edge; size is the height, width = size + 3; 16x16 workgroups",
                     256, {1, 21, 40},
                     [](Device& device, size_t size, uint64_t seed) {
                       return run_gaussian_blur(device, size, seed, GroupShape{16, 16});
                     }});
  return true;
}();

}  // namespace
}  // namespace tessera::workloads
