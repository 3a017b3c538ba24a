// rnn: an RNN-like chain of kSteps launches, h_{t+1} = relu(W h_t + x_t) for
// a hidden state of n floats: every step reads the same n x n weight matrix
// (read-only, reused by every launch) and the state the previous step wrote.
// Access modes per launch: W and x read-only, the state buffer read-write.
//
// Tolerance, carried through the steps: if the state reaching step t is off
// by at most e_t per element, both implementations' h_{t+1} are within
// |W| e_t + gamma(n + 1) (|W| |h_t| + |x_t|) of the exact step applied to the
// reference's h_t (ReLU does not increase a difference). The bound is
// computed per element and step in double from the reference and doubled,
// as for every pair of implementations.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;
constexpr uint32_t kSteps = 16;

Result run_rnn(Device& device, size_t size, uint64_t seed) {
  const uint32_t n = uint32_t(size);
  Rng rng(seed);
  // Entries of W within +-1/sqrt(n): the state stays bounded over the steps.
  const float scale = float(1.0 / std::sqrt(double(n)));
  std::vector<float> wt(size_t(n) * n), x(size_t(kSteps) * n), h0(n);
  for (auto& v : wt) v = rng.uniform(-scale, scale);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
  for (auto& v : h0) v = rng.uniform(0.0f, 1.0f);
  Result result;
  result.shape = "n=" + std::to_string(n) + ", " + std::to_string(kSteps) + " steps";
  std::vector<float> h_all(size_t(kSteps + 1) * n);
  std::copy(h0.begin(), h0.end(), h_all.begin());
  std::vector<float> got;
  {
    Session s(device, result);
    DevicePtr dw = s.upload(wt), dx = s.upload(x), dh = s.upload(h_all);
    for (uint32_t t = 0; t < kSteps; ++t) {
      s.set_access_modes({{dw, wt.size() * sizeof(float), AccessMode::ReadOnly},
                          {dx, x.size() * sizeof(float), AccessMode::ReadOnly},
                          {dh, h_all.size() * sizeof(float), AccessMode::ReadWrite}});
      s.launch("rnn", "rnn_step", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
               KernelArgs().pointer(dw).pointer(dx).pointer(dh).value(n).value(t));
    }
    got = s.download<float>(dh, h_all.size());
  }
  Tolerance tol{0, std::vector<double>(h_all.size(), 0.0), "propagated gamma(n+1) bound per step (see source)"};
  std::vector<double> error(n, 0.0);  // e_t, one implementation's distance from exact
  for (uint32_t t = 0; t < kSteps; ++t) {
    const float* h_in = &h_all[size_t(t) * n];
    float* h_out = &h_all[size_t(t + 1) * n];
    std::vector<double> next(n);
    for (uint32_t i = 0; i < n; ++i) {
      float acc = 0.0f;
      double magnitude = 0.0, carried = 0.0;
      for (uint32_t j = 0; j < n; ++j) {
        const float w = wt[size_t(j) * n + i];
        acc += w * h_in[j];
        magnitude += std::fabs(double(w) * h_in[j]);
        carried += std::fabs(double(w)) * error[j];
      }
      acc += x[size_t(t) * n + i];
      magnitude += std::fabs(double(x[size_t(t) * n + i]));
      h_out[i] = acc > 0.0f ? acc : 0.0f;
      next[i] = carried + sum_error_bound(n + 1, magnitude) / 2;  // sum_error_bound is for two implementations
      tol.abs_bound[size_t(t + 1) * n + i] = 2 * next[i];
    }
    error = next;
  }
  conclude(result, {make_output("h", got)}, {make_output("h", h_all, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"rnn",
                                   "RNN-like chain h = relu(W h + x_t), n hidden units, 16 launches reading the same W",
                                   256, {1, 70, 200}, run_rnn}};

}  // namespace
}  // namespace tessera::workloads
