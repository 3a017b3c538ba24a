// spmv: y = A x for a random size x size CSR matrix with 0 to 24 non-zeros per
// row (some rows empty), one work-item per row.
// spmv_s<percent>: the same with that fraction of the dense vector x zero.
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 128;
constexpr uint32_t kMaxRowNonZeros = 24;

Result run_spmv(Device& device, size_t rows, uint64_t seed, double sparsity) {
  Rng rng(seed);
  std::vector<uint32_t> row_ptr(rows + 1, 0), col_idx;
  std::vector<float> values, x(rows);
  for (size_t r = 0; r < rows; ++r) {
    uint32_t nnz = rng.below(kMaxRowNonZeros + 1);
    for (uint32_t j = 0; j < nnz; ++j) {
      col_idx.push_back(rng.below(uint32_t(rows)));
      values.push_back(rng.uniform(-1.0f, 1.0f));
    }
    row_ptr[r + 1] = uint32_t(col_idx.size());
  }
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
  zero_fraction(x, sparsity, seed);
  Result result;
  result.shape = std::to_string(rows) + "x" + std::to_string(rows) + ", nnz=" + std::to_string(values.size()) +
                 (sparsity > 0 ? ", x " + zero_percent(x) : "");
  std::vector<float> y;
  {
    Session s(device, result);
    DevicePtr drow = s.upload(row_ptr), dcol = s.upload(col_idx), dval = s.upload(values), dx = s.upload(x);
    DevicePtr dy = s.alloc(rows * sizeof(float));
    s.launch("spmv", "spmv_csr", Dim3{round_up(rows, kGroup)}, Dim3{kGroup},
             KernelArgs().pointer(drow).pointer(dcol).pointer(dval).pointer(dx).pointer(dy).value(uint32_t(rows)));
    y = s.download<float>(dy, rows);
  }
  std::vector<float> want(rows);
  Tolerance tol{0, std::vector<double>(rows), "gamma(nnz) * sum|a x| per row (fma)"};
  for (size_t r = 0; r < rows; ++r) {
    float acc = 0.0f;
    double magnitude = 0.0;
    for (uint32_t j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
      acc += values[j] * x[col_idx[j]];
      magnitude += std::fabs(double(values[j]) * x[col_idx[j]]);
    }
    want[r] = acc;
    tol.abs_bound[r] = sum_error_bound(row_ptr[r + 1] - row_ptr[r], magnitude);
  }
  conclude(result, {make_output("y", y)}, {make_output("y", want, tol)});
  return result;
}

const WorkloadRegistrar registrar{{"spmv", "sparse matrix-vector product, CSR, one work-item per row; size is rows",
                                   100000, {1, 129, 2000},
                                   [](Device& d, size_t n, uint64_t seed) { return run_spmv(d, n, seed, 0.0); }}};

Workload sparse_spmv(int percent) {
  return Workload{"spmv_s" + std::to_string(percent),
                  "spmv with " + std::to_string(percent) + "% of the dense vector x zero; size is rows", 100000,
                  {1, 129, 2000},
                  [percent](Device& d, size_t n, uint64_t seed) { return run_spmv(d, n, seed, percent / 100.0); }};
}

const WorkloadRegistrar spmv_s25{sparse_spmv(25)};
const WorkloadRegistrar spmv_s50{sparse_spmv(50)};
const WorkloadRegistrar spmv_s75{sparse_spmv(75)};

}  // namespace
}  // namespace tessera::workloads
