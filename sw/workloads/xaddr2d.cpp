// xaddr2d: a 2D gather over a (size + 5) x size image whose column indices and
// weights are computed from the column alone (4 taps, a division by the
// run-time width each), into a pitched output, in every workgroup shape of the
// sweep (docs/DARSIE.md, image2d.h).
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/image2d.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kTaps = 4;  // matches XA_TAPS in xaddr2d.cl

struct Addressing {
  uint32_t stride, spacing;
};

std::vector<uint32_t> xaddr_reference(const std::vector<uint32_t>& image, const ImageGrid& g, Addressing a) {
  std::vector<uint32_t> want(g.cells());
  for (uint32_t y = 0; y < g.rows; ++y)
    for (uint32_t x = 0; x < g.pitch; ++x) {
      const uint32_t xc = g.clamp_x(x), row = g.clamp_y(y) * g.width;
      uint32_t acc = 0;
      for (uint32_t k = 0; k < kTaps; ++k) {
        const uint32_t col = (xc * a.stride + k * a.spacing) % g.width;
        acc += (1u + ((col ^ xc) & 7u)) * image[row + col];
      }
      want[size_t(y) * g.pitch + x] = acc;
    }
  return want;
}

Result run_xaddr2d(Device& device, size_t size, uint64_t seed, GroupShape shape) {
  const ImageGrid g(size + 5, size, shape);
  const std::vector<uint32_t> image = random_pixels(size_t(g.width) * g.height, seed);
  Rng rng(seed ^ 0xadd5ull);
  const Addressing a{3 + 2 * rng.below(16), 1 + rng.below(g.width)};  // odd strides 3..33
  Result result;
  result.shape = g.describe() + ", stride " + std::to_string(a.stride) + ", spacing " + std::to_string(a.spacing);
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(image), dout = s.alloc(g.cells() * sizeof(uint32_t));
    s.launch("xaddr2d", "xaddr2d", g.global(), g.local(),
             KernelArgs().pointer(din).pointer(dout).value(g.width).value(g.height).value(g.pitch).value(a.stride).value(
                 a.spacing));
    out = s.download<uint32_t>(dout, g.cells());
  }
  conclude(result, {make_output("out", out)}, {make_output("out", xaddr_reference(image, g, a))});
  return result;
}

const bool registered = [] {
  register_shape_sweep("xaddr2d", "2D gather with x-only column arithmetic (4 taps, a modulo each); size is the height, width = size + 5",
                       256, {1, 21, 40}, run_xaddr2d);
  return true;
}();

}  // namespace
}  // namespace tessera::workloads
