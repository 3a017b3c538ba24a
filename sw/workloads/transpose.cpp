// transpose: a size x (2 size + 1) matrix of uints transposed through LDS tiles.
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kTile = 16;

Result run_transpose(Device& device, size_t size, uint64_t seed) {
  const size_t rows = size, cols = 2 * size + 1;
  Rng rng(seed);
  std::vector<uint32_t> in(rows * cols);
  for (auto& v : in) v = rng.next_u32();
  Result result;
  result.shape = std::to_string(rows) + "x" + std::to_string(cols);
  std::vector<uint32_t> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(in), dout = s.alloc(in.size() * sizeof(uint32_t));
    s.launch("transpose", "transpose", Dim3{round_up(cols, kTile), round_up(rows, kTile)}, Dim3{kTile, kTile},
             KernelArgs().pointer(din).pointer(dout).value(uint32_t(rows)).value(uint32_t(cols)));
    out = s.download<uint32_t>(dout, in.size());
  }
  std::vector<uint32_t> want(in.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) want[c * rows + r] = in[r * cols + c];
  conclude(result, {make_output("out", out)}, {make_output("out", want)});
  return result;
}

const WorkloadRegistrar registrar{{"transpose", "matrix transpose through 16x16 LDS tiles; size is rows, cols = 2 rows + 1",
                                   1024, {1, 16, 50}, run_transpose}};

}  // namespace
}  // namespace tessera::workloads
