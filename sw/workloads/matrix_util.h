// Dense row-major matrix helpers shared by the GEMM-like workloads: the CPU
// reference product and the per-element error bound that goes with it.
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "sw/workloads/compare.h"

namespace tessera::workloads {

// C = A (m x k) * B (k x n), accumulated in k order like the simplest kernel.
inline std::vector<float> reference_gemm(const std::vector<float>& a, const std::vector<float>& b, size_t m,
                                         size_t n, size_t k) {
  std::vector<float> c(m * n, 0.0f);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (size_t p = 0; p < k; ++p) acc += a[i * k + p] * b[p * n + j];
      c[i * n + j] = acc;
    }
  return c;
}

// Per element: two dot products of length k in any order, fused or not, differ
// by at most sum_error_bound(k, sum_p |a_ip| |b_pj|).
inline Tolerance gemm_tolerance(const std::vector<float>& a, const std::vector<float>& b, size_t m, size_t n,
                                size_t k) {
  Tolerance tol{0, std::vector<double>(m * n), "gamma(K) * sum|a||b| per element (accumulation order, fma)"};
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double magnitude = 0.0;
      for (size_t p = 0; p < k; ++p) magnitude += std::fabs(double(a[i * k + p]) * b[p * n + j]);
      tol.abs_bound[i * n + j] = sum_error_bound(k, magnitude);
    }
  return tol;
}

}  // namespace tessera::workloads
