// stencil2d: four Jacobi steps of the 5-point stencil on a size x (size + 5)
// grid, ping-ponging between two buffers (four launches).
//
// The weights 1/2 and 1/8 are powers of two, so both products are exact and
// fusing either into an fma changes nothing; the four neighbours are added in
// source order (no reassociation is allowed without fast-math). Every step is
// therefore bit-exact, and so is the result.
#include <string>
#include <utility>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"
#include "sw/workloads/stencil_reference.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 16;
constexpr int kSteps = 4;

Result run_stencil2d(Device& device, size_t size, uint64_t seed) {
  const size_t height = size, width = size + 5;
  Rng rng(seed);
  std::vector<float> grid(width * height);
  for (auto& v : grid) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = std::to_string(width) + "x" + std::to_string(height) + " grid, " + std::to_string(kSteps) + " steps";
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr cur = s.upload(grid), next = s.alloc(grid.size() * sizeof(float));
    for (int step = 0; step < kSteps; ++step) {
      s.launch("stencil2d", "stencil5", Dim3{round_up(width, kGroup), round_up(height, kGroup)},
               Dim3{kGroup, kGroup},
               KernelArgs().pointer(cur).pointer(next).value(uint32_t(width)).value(uint32_t(height)));
      std::swap(cur, next);
    }
    out = s.download<float>(cur, grid.size());
  }
  std::vector<float> want = grid;
  for (int step = 0; step < kSteps; ++step) want = jacobi_step(want, width, height);
  conclude(result, {make_output("grid", out)},
           {make_output("grid", want, Tolerance{0, {}, "exact (power-of-two weights, source-order adds)"})});
  return result;
}

const WorkloadRegistrar registrar{{"stencil2d", "5-point Jacobi stencil with an LDS halo tile, 4 steps; size is the height",
                                   512, {1, 3, 17, 64}, run_stencil2d}};

}  // namespace
}  // namespace tessera::workloads
