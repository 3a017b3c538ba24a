// stencil_iter: eight Jacobi steps of the 5-point stencil on a (size + 3) x size
// grid (width x height), ping-ponging between two buffers, one launch per step.
// One work-item per cell over a 1D grid, so each chiplet owns a contiguous band
// of rows in every step, and the cells at a band's edge read the neighbouring
// row that another chiplet wrote in the previous step (halo reuse).
//
// As in stencil2d, the weights 1/2 and 1/8 are powers of two, so both products
// are exact and fusing either into an fma changes nothing; the four neighbours
// are added in source order. Every step is bit-exact, and so is the result.
#include <string>
#include <utility>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"
#include "sw/workloads/stencil_reference.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr int kSteps = 8;

Result run_stencil_iter(Device& device, size_t size, uint64_t seed) {
  const size_t height = size, width = size + 3, cells = width * height;
  Rng rng(seed);
  std::vector<float> grid(cells);
  for (auto& v : grid) v = rng.uniform(-1.0f, 1.0f);
  Result result;
  result.shape = std::to_string(width) + "x" + std::to_string(height) + " grid, " + std::to_string(kSteps) + " steps";
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr cur = s.upload(grid), next = s.alloc(cells * sizeof(float));
    for (int step = 0; step < kSteps; ++step) {
      // A band's halo rows belong to the neighbouring chiplets' shares, which a
      // proportional share cannot say: both buffers are declared whole.
      s.set_access_modes({{cur, cells * sizeof(float), AccessMode::ReadOnly},
                          {next, cells * sizeof(float), AccessMode::ReadWrite}});
      s.launch("stencil_iter", "stencil_iter_step", Dim3{round_up(cells, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(cur).pointer(next).value(uint32_t(width)).value(uint32_t(height)));
      std::swap(cur, next);
    }
    out = s.download<float>(cur, cells);
  }
  std::vector<float> want = grid;
  for (int step = 0; step < kSteps; ++step) want = jacobi_step(want, width, height);
  conclude(result, {make_output("grid", out)},
           {make_output("grid", want, Tolerance{0, {}, "exact (power-of-two weights, source-order adds)"})});
  return result;
}

const WorkloadRegistrar registrar{
    {"stencil_iter", "5-point Jacobi stencil, 8 ping-pong launches, row bands per chiplet; size is the height", 192,
     {1, 5, 33, 60}, run_stencil_iter}};

}  // namespace
}  // namespace tessera::workloads
