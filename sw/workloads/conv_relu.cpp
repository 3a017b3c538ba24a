// conv_relu50: a ResNet-like 3x3 convolution layer with ReLU, 16 input and 16
// output channels of size x size pixels (zero padding, stride 1), whose input
// activations are ReLU-sparse: half of them are zero, as after the previous
// layer's ReLU. Made for the zero-skipping studies (zero caches, lazy loads).
// conv_pruned50: the same layer with half of each filter's weights pruned to
// zero by magnitude as well (a pruned ResNet layer, as LazyGPU evaluates at 50 %
// weight sparsity): the kernel multiplies every weight (the FMA's first factor)
// by its activation, so a zero weight makes the activation's load dead.
//
// Tolerance: each output is a dot product of 9 x 16 terms, so two
// implementations are within sum_error_bound(144, sum |w x|); the final ReLU
// does not increase a difference.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;
constexpr uint32_t kChannels = 16;

Result run_conv_relu(Device& device, size_t size, uint64_t seed, double sparsity, double weight_sparsity) {
  const uint32_t hw = uint32_t(size), plane = hw * hw, outputs = kChannels * plane;
  Rng rng(seed);
  std::vector<float> in(size_t(kChannels) * plane), w(size_t(kChannels) * kChannels * 9);
  // Non-negative activations (a ReLU's output), then the zeros.
  for (auto& v : in) v = rng.uniform(0.0f, 1.0f);
  for (auto& v : w) v = rng.uniform(-0.25f, 0.25f);
  zero_fraction(in, sparsity, seed);
  prune_rows(w, kChannels, kChannels * 9, weight_sparsity);  // each output channel's filter
  Result result;
  result.shape = std::to_string(kChannels) + "x" + std::to_string(hw) + "x" + std::to_string(hw) + " -> " +
                 std::to_string(kChannels) + " channels, 3x3, input " + zero_percent(in) +
                 (weight_sparsity > 0 ? ", weights " + zero_percent(w) : "");
  std::vector<float> out;
  {
    Session s(device, result);
    DevicePtr din = s.upload(in), dw = s.upload(w), dout = s.alloc(outputs * sizeof(float));
    s.launch("conv_relu", "conv_relu", Dim3{round_up(outputs, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(din).pointer(dw).pointer(dout).value(kChannels).value(kChannels).value(hw).value(hw));
    out = s.download<float>(dout, outputs);
  }
  std::vector<float> want(outputs);
  Tolerance tol{0, std::vector<double>(outputs), "gamma(144) * sum|w x| per output (order, fma)"};
  for (uint32_t i = 0; i < outputs; ++i) {
    const uint32_t x = i % hw, y = (i / hw) % hw, o = i / plane;
    float acc = 0.0f;
    double magnitude = 0.0;
    for (uint32_t c = 0; c < kChannels; ++c)
      for (uint32_t dy = 0; dy < 3; ++dy)
        for (uint32_t dx = 0; dx < 3; ++dx) {
          const int yy = int(y + dy) - 1, xx = int(x + dx) - 1;
          if (yy < 0 || xx < 0 || yy >= int(hw) || xx >= int(hw)) continue;
          const float wv = w[((o * kChannels + c) * 3 + dy) * 3 + dx], iv = in[(c * hw + uint32_t(yy)) * hw + uint32_t(xx)];
          acc += wv * iv;
          magnitude += std::fabs(double(wv) * iv);
        }
    want[i] = acc > 0.0f ? acc : 0.0f;
    tol.abs_bound[i] = sum_error_bound(kChannels * 9, magnitude);
  }
  conclude(result, {make_output("out", out)}, {make_output("out", want, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"conv_relu50",
                                   "3x3 conv + ReLU, 16 -> 16 channels of size x size, 50% of the input activations zero",
                                   56, {1, 7, 20},
                                   [](Device& d, size_t size, uint64_t seed) { return run_conv_relu(d, size, seed, 0.5, 0.0); }}};
const WorkloadRegistrar pruned{{"conv_pruned50",
                                "conv_relu50 with 50% of each filter's weights pruned to zero by magnitude",
                                56, {1, 7, 20},
                                [](Device& d, size_t size, uint64_t seed) { return run_conv_relu(d, size, seed, 0.5, 0.5); }}};

}  // namespace
}  // namespace tessera::workloads
