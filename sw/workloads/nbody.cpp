// nbody: one step of an all-pairs gravitational n-body simulation with LDS
// tiles of 64 bodies.
//
// Tolerance: each interaction term m d / (|d|^2 + eps^2)^(3/2) is computed
// with a few roundings plus rsqrt (at most 2 ulp in OpenCL, correctly rounded
// 1/sqrt on the CPU), under 16 u of relative error per implementation; the n
// terms are then summed in some order. So each acceleration component is
// within sum_error_bound(n + 16, sum |term|) between two implementations; the
// velocity update adds two roundings (possibly fused) and the position update
// two more plus dt times the velocity's bound.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;  // matches NBODY_GROUP in nbody.cl
constexpr float kDt = 0.01f;
constexpr float kSoftening2 = 0.01f;
constexpr size_t kTermError = 16;

Result run_nbody(Device& device, size_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<float> pos(4 * n), vel(4 * n, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) pos[4 * i + d] = rng.uniform(-1.0f, 1.0f);
    pos[4 * i + 3] = rng.uniform(0.5f, 1.5f);  // mass
    for (int d = 0; d < 3; ++d) vel[4 * i + d] = rng.uniform(-0.1f, 0.1f);
  }
  Result result;
  result.shape = std::to_string(n) + " bodies, 1 step";
  std::vector<float> new_pos, new_vel;
  {
    Session s(device, result);
    DevicePtr dpos = s.upload(pos), dvel = s.upload(vel);
    DevicePtr dnew_pos = s.alloc(pos.size() * sizeof(float)), dnew_vel = s.alloc(vel.size() * sizeof(float));
    s.launch("nbody", "nbody_step", Dim3{round_up(n, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(dpos).pointer(dvel).pointer(dnew_pos).pointer(dnew_vel).value(uint32_t(n)).value(
                 kDt).value(kSoftening2));
    new_pos = s.download<float>(dnew_pos, pos.size());
    new_vel = s.download<float>(dnew_vel, vel.size());
  }
  std::vector<float> want_pos(pos.size()), want_vel(vel.size(), 0.0f);
  Tolerance pos_tol{0, std::vector<double>(pos.size(), 0.0), "see nbody.cpp: interaction sums, then the updates"};
  Tolerance vel_tol{0, std::vector<double>(vel.size(), 0.0), pos_tol.text};
  for (size_t i = 0; i < n; ++i) {
    float acc[3] = {0, 0, 0};
    double magnitude[3] = {0, 0, 0};
    for (size_t j = 0; j < n; ++j) {
      float d[3];
      for (int k = 0; k < 3; ++k) d[k] = pos[4 * j + k] - pos[4 * i + k];
      float r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kSoftening2;
      float inv = 1.0f / std::sqrt(r2);
      float scale = pos[4 * j + 3] * inv * inv * inv;
      for (int k = 0; k < 3; ++k) {
        acc[k] += scale * d[k];
        magnitude[k] += std::fabs(double(scale) * d[k]);
      }
    }
    for (int k = 0; k < 3; ++k) {
      float v = vel[4 * i + k] + kDt * acc[k];
      want_vel[4 * i + k] = v;
      want_pos[4 * i + k] = pos[4 * i + k] + kDt * v;
      double acc_bound = sum_error_bound(n + kTermError, magnitude[k]);
      double vel_bound = kDt * acc_bound + sum_error_bound(2, std::fabs(vel[4 * i + k]) + kDt * std::fabs(acc[k]));
      vel_tol.abs_bound[4 * i + k] = vel_bound;
      pos_tol.abs_bound[4 * i + k] =
          kDt * vel_bound + sum_error_bound(2, std::fabs(pos[4 * i + k]) + kDt * std::fabs(v));
    }
    want_pos[4 * i + 3] = pos[4 * i + 3];  // mass is carried through unchanged
  }
  conclude(result, {make_output("pos", new_pos), make_output("vel", new_vel)},
           {make_output("pos", want_pos, pos_tol), make_output("vel", want_vel, vel_tol)});
  return result;
}

const WorkloadRegistrar registrar{{"nbody", "one all-pairs n-body step, 64-body LDS tiles, rsqrt", 4096,
                                   {1, 100, 700}, run_nbody}};

}  // namespace
}  // namespace tessera::workloads
