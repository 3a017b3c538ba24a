// conv_relu50: a ResNet-like 3x3 convolution layer with ReLU, 16 input and 16
// output channels of size x size pixels (zero padding, stride 1), whose input
// activations are ReLU-sparse: half of them are zero, as after the previous
// layer's ReLU. Made for the zero-skipping studies (zero caches, lazy loads).
// conv_pruned50: the same layer with half of each filter's weights pruned to
// zero by magnitude as well (a pruned ResNet layer, as LazyGPU evaluates at 50 %
// weight sparsity): the kernel multiplies every weight (the FMA's first factor)
// by its activation, so a zero weight makes the activation's load dead.
// Both by a direct convolution (conv_relu.cl), one work-item per output.
//
// conv_gemm_relu50 and conv_gemm_pruned50: the same two layers with 64 input
// and 64 output channels (ResNet-18's first stage), computed as a DNN library
// without a direct-convolution kernel computes them: im2col, then a naive
// GEMM of the filters by the unrolled input in 16 x 16 workgroups
// (conv_gemm.cl). The GEMM reads each weight with a vector load that 16 lanes
// share, so a zero weight's request needs only zero words, and its partner
// loads are 16 lanes of the unrolled input.
//
// The *_fmap_* variants read feature maps instead (feature_maps.h): the same
// 50 % of zero activations, computed by a previous convolution and ReLU from
// an image with natural images' spectrum, so that they come in patches as a
// real network's do, rather than one element at a time. The weights are the
// same as their independent-zero twins'.
//
// Tolerance: each output is a dot product of 9 x channels terms, so two
// implementations are within sum_error_bound(9 x channels, sum |w x|); the
// final ReLU does not increase a difference.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "sw/workloads/compare.h"
#include "sw/workloads/feature_maps.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 256;         // the direct convolution's workgroup
constexpr uint32_t kGemmGroup = 256;     // the GEMM's workgroups: 16 x 16, or 64 x 4
constexpr uint32_t kIm2colGroup = 256;
constexpr uint32_t kDirectChannels = 16;  // conv_relu50, conv_pruned50
constexpr uint32_t kGemmChannels = 64;    // conv_gemm_*: ResNet-18's conv2_x layers

// The GEMM kernel is conv_gemm_relu, or conv_gemm_relu_unrolled (8 rows per
// step, the step's loads ahead of its FMAs).
enum class ConvMethod { direct, im2col_gemm, im2col_gemm_unrolled };

// Where the input's zeros are: each element independently (zero_fraction), or
// where a previous layer's ReLU put them (relu_feature_maps).
enum class ActivationZeros { independent, feature_maps };

struct ConvLayer {
  uint32_t channels;  // input and output channels
  ConvMethod method;
  double input_sparsity, weight_sparsity;
  // The GEMM's workgroup width in pixels (its height is kGemmGroup / that):
  // 16, a wave is 4 filters x 16 pixels; 64, a wave is 64 pixels of one filter.
  uint32_t gemm_tile_x = 16;
  ActivationZeros zeros = ActivationZeros::independent;
};

// Runs the layer on the device, the direct kernel or im2col + GEMM.
std::vector<float> run_on_device(Device& device, Result& result, const ConvLayer& layer, uint32_t hw,
                                 const std::vector<float>& in, const std::vector<float>& w) {
  const uint32_t plane = hw * hw, outputs = layer.channels * plane, rows = layer.channels * 9;
  Session s(device, result);
  DevicePtr din = s.upload(in), dw = s.upload(w), dout = s.alloc(size_t(outputs) * sizeof(float));
  if (layer.method == ConvMethod::direct) {
    s.launch("conv_relu", "conv_relu", Dim3{round_up(outputs, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(din).pointer(dw).pointer(dout).value(layer.channels).value(layer.channels).value(hw).value(hw));
  } else {
    DevicePtr dcols = s.alloc(size_t(rows) * plane * sizeof(float));
    s.launch("conv_gemm", "conv_im2col", Dim3{round_up(rows * plane, kIm2colGroup)}, Dim3{kIm2colGroup},
             KernelArgs().pointer(din).pointer(dcols).value(layer.channels).value(hw).value(hw));
    const char* gemm = layer.method == ConvMethod::im2col_gemm ? "conv_gemm_relu" : "conv_gemm_relu_unrolled";
    const uint32_t tile_x = layer.gemm_tile_x, tile_y = kGemmGroup / tile_x;
    s.launch("conv_gemm", gemm, Dim3{round_up(plane, tile_x), round_up(layer.channels, tile_y)}, Dim3{tile_x, tile_y},
             KernelArgs().pointer(dw).pointer(dcols).pointer(dout).value(rows).value(plane).value(layer.channels));
  }
  return s.download<float>(dout, outputs);
}

// ", im2col + GEMM unrolled by 8 in 64 x 4 workgroups" for a result's shape
// line; nothing for the direct convolution.
std::string method_text(const ConvLayer& layer) {
  if (layer.method == ConvMethod::direct) return "";
  const std::string gemm = layer.method == ConvMethod::im2col_gemm ? ", im2col + GEMM" : ", im2col + GEMM unrolled by 8";
  return gemm + " in " + std::to_string(layer.gemm_tile_x) + " x " + std::to_string(kGemmGroup / layer.gemm_tile_x) +
         " workgroups";
}

Result run_conv_relu(Device& device, size_t size, uint64_t seed, const ConvLayer& layer) {
  // The kernels index with 32-bit integers: cols (channels x 9 rows of size^2) must fit.
  if (size == 0 || double(size) * double(size) * layer.channels * 9 > double(UINT32_MAX))
    throw runtime::DeviceError("conv: size " + std::to_string(size) + " must be at least 1 and at most " +
                               std::to_string(size_t(std::sqrt(double(UINT32_MAX) / (layer.channels * 9)))) +
                               " (32-bit indices)");
  const uint32_t channels = layer.channels, hw = uint32_t(size), plane = hw * hw, outputs = channels * plane;
  Rng rng(seed);
  std::vector<float> in(size_t(channels) * plane), w(size_t(channels) * channels * 9);
  // Non-negative activations (a ReLU's output), then the zeros.
  for (auto& v : in) v = rng.uniform(0.0f, 1.0f);
  for (auto& v : w) v = rng.uniform(-0.25f, 0.25f);
  if (layer.zeros == ActivationZeros::feature_maps)
    in = relu_feature_maps(channels, hw, layer.input_sparsity, seed);  // after w's draws: the same weights
  else
    zero_fraction(in, layer.input_sparsity, seed);
  prune_rows(w, channels, channels * 9, layer.weight_sparsity);  // each output channel's filter
  Result result;
  result.shape = std::to_string(channels) + "x" + std::to_string(hw) + "x" + std::to_string(hw) + " -> " +
                 std::to_string(channels) + " channels, 3x3, input " + zero_percent(in) +
                 (layer.zeros == ActivationZeros::feature_maps ? " (feature maps)" : "") +
                 (layer.weight_sparsity > 0 ? ", weights " + zero_percent(w) : "") + method_text(layer);
  const std::vector<float> out = run_on_device(device, result, layer, hw, in, w);
  std::vector<float> want(outputs);
  Tolerance tol{0, std::vector<double>(outputs),
                "gamma(" + std::to_string(channels * 9) + ") * sum|w x| per output (order, fma)"};
  for (uint32_t i = 0; i < outputs; ++i) {
    const uint32_t x = i % hw, y = (i / hw) % hw, o = i / plane;
    float acc = 0.0f;
    double magnitude = 0.0;
    for (uint32_t c = 0; c < channels; ++c)
      for (uint32_t dy = 0; dy < 3; ++dy)
        for (uint32_t dx = 0; dx < 3; ++dx) {
          const int yy = int(y + dy) - 1, xx = int(x + dx) - 1;
          if (yy < 0 || xx < 0 || yy >= int(hw) || xx >= int(hw)) continue;
          const float wv = w[((o * channels + c) * 3 + dy) * 3 + dx], iv = in[(c * hw + uint32_t(yy)) * hw + uint32_t(xx)];
          acc += wv * iv;
          magnitude += std::fabs(double(wv) * iv);
        }
    want[i] = acc > 0.0f ? acc : 0.0f;
    tol.abs_bound[i] = sum_error_bound(channels * 9, magnitude);
  }
  conclude(result, {make_output("out", out)}, {make_output("out", want, tol)});
  return result;
}

Workload conv_workload(const std::string& name, const std::string& description, size_t default_size,
                       std::vector<size_t> test_sizes, ConvLayer layer) {
  return Workload{name, description, default_size, std::move(test_sizes),
                  [layer](Device& d, size_t size, uint64_t seed) { return run_conv_relu(d, size, seed, layer); }};
}

const WorkloadRegistrar relu50{conv_workload(
    "conv_relu50", "3x3 conv + ReLU, 16 -> 16 channels of size x size, 50% of the input activations zero", 56,
    {1, 7, 20}, {kDirectChannels, ConvMethod::direct, 0.5, 0.0})};
const WorkloadRegistrar pruned50{conv_workload("conv_pruned50",
                                               "conv_relu50 with 50% of each filter's weights pruned to zero by magnitude",
                                               56, {1, 7, 20}, {kDirectChannels, ConvMethod::direct, 0.5, 0.5})};
static_assert(kGemmChannels * 9 % 8 == 0, "conv_gemm_relu_unrolled reads 8 rows per step and has no tail");
const WorkloadRegistrar gemm_relu50{conv_workload(
    "conv_gemm_relu50",
    "3x3 conv + ReLU, 64 -> 64 channels of size x size, 50% of the input activations zero, as im2col + naive GEMM "
    "(16 x 16 workgroups)",
    56, {1, 5}, {kGemmChannels, ConvMethod::im2col_gemm, 0.5, 0.0})};
const WorkloadRegistrar gemm_pruned50{conv_workload(
    "conv_gemm_pruned50", "conv_gemm_relu50 with 50% of each filter's weights pruned to zero by magnitude", 56, {1, 5},
    {kGemmChannels, ConvMethod::im2col_gemm, 0.5, 0.5})};
const WorkloadRegistrar gemm_unrolled_relu50{conv_workload(
    "conv_gemm_unrolled_relu50",
    "conv_gemm_relu50 with the GEMM's loop unrolled by 8 as a library kernel (8 rows' loads ahead of the FMAs)", 56,
    {1, 5}, {kGemmChannels, ConvMethod::im2col_gemm_unrolled, 0.5, 0.0})};
const WorkloadRegistrar gemm_unrolled_pruned50{conv_workload(
    "conv_gemm_unrolled_pruned50",
    "conv_gemm_unrolled_relu50 with 50% of each filter's weights pruned to zero by magnitude", 56, {1, 5},
    {kGemmChannels, ConvMethod::im2col_gemm_unrolled, 0.5, 0.5})};
const WorkloadRegistrar gemm64_unrolled_relu50{conv_workload(
    "conv_gemm64_unrolled_relu50",
    "conv_gemm_unrolled_relu50 in 64 x 4 workgroups: a wave is 64 pixels of one filter, so each weight is one word "
    "for the whole wave",
    56, {1, 5}, {kGemmChannels, ConvMethod::im2col_gemm_unrolled, 0.5, 0.0, 64})};
const WorkloadRegistrar gemm64_unrolled_pruned50{conv_workload(
    "conv_gemm64_unrolled_pruned50",
    "conv_gemm64_unrolled_relu50 with 50% of each filter's weights pruned to zero by magnitude", 56, {1, 5},
    {kGemmChannels, ConvMethod::im2col_gemm_unrolled, 0.5, 0.5, 64})};

// The layers with their activations' zeros in patches (feature_maps.h).
constexpr ActivationZeros kMaps = ActivationZeros::feature_maps;
const WorkloadRegistrar fmap_relu50{conv_workload(
    "conv_fmap_relu50",
    "conv_relu50 reading feature maps: its 50% zero activations computed by a previous 3x3 conv + ReLU of a "
    "natural-spectrum image, so they come in patches",
    56, {1, 7, 20}, {kDirectChannels, ConvMethod::direct, 0.5, 0.0, 16, kMaps})};
const WorkloadRegistrar fmap_pruned50{conv_workload(
    "conv_fmap_pruned50", "conv_fmap_relu50 with 50% of each filter's weights pruned to zero by magnitude", 56,
    {1, 7, 20}, {kDirectChannels, ConvMethod::direct, 0.5, 0.5, 16, kMaps})};
const WorkloadRegistrar gemm_fmap_pruned50{conv_workload(
    "conv_gemm_fmap_pruned50",
    "conv_gemm_pruned50 reading feature maps (zero activations in patches, as conv_fmap_relu50)", 56, {1, 5},
    {kGemmChannels, ConvMethod::im2col_gemm, 0.5, 0.5, 16, kMaps})};
const WorkloadRegistrar gemm64_unrolled_fmap_pruned50{conv_workload(
    "conv_gemm64_unrolled_fmap_pruned50",
    "conv_gemm64_unrolled_pruned50 reading feature maps (zero activations in patches, as conv_fmap_relu50)", 56, {1, 5},
    {kGemmChannels, ConvMethod::im2col_gemm_unrolled, 0.5, 0.5, 64, kMaps})};

}  // namespace
}  // namespace tessera::workloads
