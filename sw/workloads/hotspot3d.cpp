// hotspot3d: a Hotspot3D-like iterative thermal stencil on a size x size x 8
// grid: kSteps launches ping-ponging two temperature buffers, each reading the
// power buffer (read-only, the same in every step) and the previous step's
// temperatures, including the neighbouring cells across the boundary of the
// grid range another chiplet owns. Access modes are declared per launch.
//
// Bit-exact: the weights are powers of two, so every product is exact (fused
// or not), and device and CPU add the terms in the same source order.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kLayers = 8;
constexpr uint32_t kSteps = 8;

// The kernel's arithmetic, term for term in the same order.
std::vector<float> reference_step(const std::vector<float>& power, const std::vector<float>& in, uint32_t nx,
                                  uint32_t ny, uint32_t nz) {
  std::vector<float> out(in.size());
  const uint32_t plane = nx * ny;
  for (uint32_t i = 0; i < in.size(); ++i) {
    const uint32_t x = i % nx, y = (i / nx) % ny, z = i / plane;
    const float c = in[i];
    const float w = x > 0 ? in[i - 1] : c, e = x + 1 < nx ? in[i + 1] : c;
    const float n = y > 0 ? in[i - nx] : c, s = y + 1 < ny ? in[i + nx] : c;
    const float b = z > 0 ? in[i - plane] : c, t = z + 1 < nz ? in[i + plane] : c;
    out[i] = c * 0.25f + w * 0.125f + e * 0.125f + n * 0.125f + s * 0.125f + b * 0.0625f + t * 0.0625f +
             power[i] * 0.0625f;
  }
  return out;
}

Result run_hotspot3d(Device& device, size_t size, uint64_t seed) {
  const uint32_t nx = uint32_t(size), ny = uint32_t(size), nz = kLayers, cells = nx * ny * nz;
  Rng rng(seed);
  std::vector<float> power(cells), temp(cells);
  for (auto& v : temp) v = rng.uniform(300.0f, 340.0f);
  for (auto& v : power) v = rng.uniform(0.0f, 8.0f);
  Result result;
  result.shape = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz) + ", " +
                 std::to_string(kSteps) + " steps";
  const size_t bytes = cells * sizeof(float);
  std::vector<float> got;
  {
    Session s(device, result);
    DevicePtr dp = s.upload(power);
    DevicePtr t[2] = {s.upload(temp), s.alloc(bytes)};
    for (uint32_t step = 0; step < kSteps; ++step) {
      DevicePtr in = t[step % 2], out = t[(step + 1) % 2];
      s.set_access_modes({{dp, bytes, AccessMode::ReadOnly},
                          {in, bytes, AccessMode::ReadOnly},
                          {out, bytes, AccessMode::ReadWrite}});
      s.launch("hotspot3d", "hotspot3d_step", Dim3{round_up(cells, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(dp).pointer(in).pointer(out).value(nx).value(ny).value(nz));
    }
    got = s.download<float>(t[kSteps % 2], cells);
  }
  std::vector<float> want = temp;
  for (uint32_t step = 0; step < kSteps; ++step) want = reference_step(power, want, nx, ny, nz);
  conclude(result, {make_output("temp", got)},
           {make_output("temp", want, Tolerance{0, {}, "exact (power-of-two weights, source order)"})});
  return result;
}

const WorkloadRegistrar registrar{{"hotspot3d",
                                   "Hotspot3D-like 7-point thermal stencil, size x size x 8 cells, 8 ping-pong launches",
                                   64, {1, 13, 40}, run_hotspot3d}};

}  // namespace
}  // namespace tessera::workloads
