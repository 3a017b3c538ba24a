// conv2d: a size x (size + 3) image convolved with a 5 x 5 filter, zero padding.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr int kRadius = 2;  // matches CONV_RADIUS in conv2d.cl
constexpr int kSize = 2 * kRadius + 1;
constexpr uint32_t kGroup = 16;

Result run_conv2d(Device& device, size_t size, uint64_t seed) {
  const size_t height = size, width = size + 3;
  Rng rng(seed);
  std::vector<float> image(width * height), filter(kSize * kSize);
  for (auto& v : image) v = rng.uniform(0.0f, 1.0f);
  for (auto& v : filter) v = rng.uniform(-0.5f, 0.5f);
  Result result;
  result.shape = std::to_string(width) + "x" + std::to_string(height) + " image, 5x5 filter";
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(image), dfilter = s.upload(filter), dout = s.alloc(image.size() * sizeof(float));
    s.launch("conv2d", "conv2d", Dim3{round_up(width, kGroup), round_up(height, kGroup)}, Dim3{kGroup, kGroup},
             KernelArgs().pointer(din).pointer(dfilter).pointer(dout).value(uint32_t(width)).value(
                 uint32_t(height)));
    out = s.download<float>(dout, image.size());
  }
  std::vector<float> want(image.size());
  Tolerance tol{0, std::vector<double>(image.size()), "gamma(25) * sum|w x| per pixel (order, fma)"};
  for (int y = 0; y < int(height); ++y)
    for (int x = 0; x < int(width); ++x) {
      float acc = 0.0f;
      double magnitude = 0.0;
      for (int dy = -kRadius; dy <= kRadius; ++dy)
        for (int dx = -kRadius; dx <= kRadius; ++dx) {
          int sx = x + dx, sy = y + dy;
          if (sx < 0 || sy < 0 || sx >= int(width) || sy >= int(height)) continue;
          float term = filter[(dy + kRadius) * kSize + dx + kRadius] * image[sy * width + sx];
          acc += term;
          magnitude += std::fabs(double(term));
        }
      want[y * width + x] = acc;
      tol.abs_bound[y * width + x] = sum_error_bound(kSize * kSize, magnitude);
    }
  conclude(result, {make_output("out", out)}, {make_output("out", want, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"conv2d", "2D convolution, 5x5 filter in constant memory; size is the height",
                                   512, {1, 30, 100}, run_conv2d}};

}  // namespace
}  // namespace tessera::workloads
