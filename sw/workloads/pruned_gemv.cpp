// pruned_gemv_<percent> (0, 20, 40, 50, 60, 90): y = W x for one layer of a pruned language model:
// W has `size` rows and 4 size + 3 columns (an MLP up-projection shape), and in
// every row the given fraction of the smallest-magnitude weights is set to
// zero (per-row magnitude pruning, as one-shot LLM pruning does). The kernel
// skips zero weights, so sparsity changes the branch pattern and the work.
// pruned_gemv_dense_<percent> (0, 20, 40, 60): the same layer computed by dense
// code (pruned_gemv_dense.cl) that multiplies every weight, zero or not.
// pruned_gemv_unrolled_<percent> (0, 20, 40, 60): the same layer by dense code
// unrolled as a GEMV library kernel is (pruned_gemv_unrolled.cl): each lane's 8
// weight loads and 8 x loads of a step are issued before the first FMA.
// pruned_gemv_rows_<percent> (0, 20, 40, 60): the same generator and pruning,
// computed thread per row (pruned_gemv_rows.cl): work-item r computes y[r], so
// lane l of a wave reads row r0 + l and a wave's load touches 64 lines, one
// word each. W has `size` rows and kRowsCols columns.
// pruned_gemv_blocks_<percent> (0, 20, 40, 60): the same layer by the dense
// code, pruned in blocks (structured pruning): in every row the given fraction
// of its 16-weight blocks (one 64 B line each) with the least energy is zero.
// Rows are padded to whole blocks (4 size + 3 columns rounded up to 16), so
// a zero block is a whole zero line, which zero caches can answer without the
// data; unstructured pruning leaves almost no line all zero.
#include <algorithm>
#include <cmath>
#include <string>

#include "sw/workloads/compare.h"
#include "sw/workloads/rng.h"
#include "sw/workloads/sparsity.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kGroup = 64;  // matches GEMV_GROUP in pruned_gemv*.cl
// pruned_gemv_rows's columns: 1024 (a quarter of LLaMA-7B's hidden size 4096,
// for simulation time) plus one 64 B line, so that consecutive rows start one
// L1 set and half a 128 B partition chunk apart instead of all aliasing to
// one set and one channel (a 4 KiB row stride), as a padded leading dimension.
constexpr size_t kRowsCols = 1024 + 16;

constexpr size_t kBlock = 16;  // pruned_gemv_blocks: weights per pruned block (a 64 B line)

// One work-item per row (pruned_gemv_rows) or one 64-wide workgroup per row (the others).
bool thread_per_row(const std::string& kernel) { return kernel == "pruned_gemv_rows"; }
bool block_pruned(const std::string& kernel) { return kernel == "pruned_gemv_blocks"; }

size_t columns(const std::string& kernel, size_t rows) {
  if (thread_per_row(kernel)) return kRowsCols;
  if (block_pruned(kernel)) return (4 * rows + 3 + kBlock - 1) / kBlock * kBlock;
  return 4 * rows + 3;
}

Result run_pruned_gemv(Device& device, const std::string& kernel, size_t rows, uint64_t seed, double sparsity) {
  const bool per_thread = thread_per_row(kernel);
  const size_t cols = columns(kernel, rows);
  const std::string program = block_pruned(kernel) ? "pruned_gemv_dense" : kernel;
  Rng rng(seed);
  std::vector<float> w(rows * cols), x(cols);
  for (auto& v : w) v = rng.uniform(-0.1f, 0.1f);
  for (auto& v : x) v = rng.uniform(-1.0f, 1.0f);
  if (block_pruned(kernel)) prune_row_blocks(w, rows, cols, kBlock, sparsity);
  else prune_rows(w, rows, cols, sparsity);
  const size_t zeros = size_t(std::count(w.begin(), w.end(), 0.0f));
  Result result;
  result.shape = std::to_string(rows) + "x" + std::to_string(cols) + ", " +
                 std::to_string(int(100.0 * double(zeros) / double(w.size()) + 0.5)) + "% zero weights";
  std::vector<float> y;
  {
    Session s(device, result);
    DevicePtr dw = s.upload(w), dx = s.upload(x), dy = s.alloc(rows * sizeof(float));
    const uint32_t items = per_thread ? uint32_t((rows + kGroup - 1) / kGroup * kGroup) : uint32_t(rows) * kGroup;
    s.launch(program, program, Dim3{items}, Dim3{kGroup},
             KernelArgs().pointer(dw).pointer(dx).pointer(dy).value(uint32_t(rows)).value(uint32_t(cols)));
    y = s.download<float>(dy, rows);
  }
  std::vector<float> want(rows);
  Tolerance tol{0, std::vector<double>(rows), "gamma(cols) * sum|w x| per row (order, fma)"};
  for (size_t r = 0; r < rows; ++r) {
    float acc = 0.0f;
    double magnitude = 0.0;
    for (size_t c = 0; c < cols; ++c) {
      acc += w[r * cols + c] * x[c];
      magnitude += std::fabs(double(w[r * cols + c]) * x[c]);
    }
    want[r] = acc;
    tol.abs_bound[r] = sum_error_bound(cols, magnitude);
  }
  conclude(result, {make_output("y", y)}, {make_output("y", want, tol)});
  return result;
}

// `kernel` is pruned_gemv (skips zero weights), pruned_gemv_dense (multiplies
// them), pruned_gemv_unrolled (multiplies them, 16 loads per lane ahead of the
// FMAs), pruned_gemv_rows (multiplies them, one work-item per row) or
// pruned_gemv_blocks (pruned_gemv_dense on block-pruned weights).
Workload pruned_gemv_workload(const std::string& kernel, int percent) {
  const std::string what = kernel == "pruned_gemv_dense" ? "pruned LLM-layer GEMV by dense code (every weight multiplied), "
                           : kernel == "pruned_gemv_unrolled"
                               ? "pruned LLM-layer GEMV by dense code unrolled by 8 (16 loads per lane before the first FMA), "
                           : kernel == "pruned_gemv_rows"
                               ? "pruned LLM-layer GEMV by dense code, one work-item per row (a wave's load touches 64 rows), "
                           : block_pruned(kernel) ? "block-pruned LLM-layer GEMV by dense code, "
                                                  : "pruned LLM-layer GEMV, ";
  const std::string pruning = block_pruned(kernel) ? "% of each row's 16-weight blocks (64 B lines) zeroed by energy"
                                                   : "% of each row's weights zeroed by magnitude";
  const std::string shape = thread_per_row(kernel) ? "; size is rows, cols = " + std::to_string(kRowsCols)
                            : block_pruned(kernel) ? "; size is rows, cols = 4 rows + 3 rounded up to 16"
                                                   : "; size is rows, cols = 4 rows + 3";
  return Workload{kernel + "_" + std::to_string(percent), what + std::to_string(percent) + pruning + shape,
                  1024,
                  {1, 33, 200},
                  [kernel, percent](Device& d, size_t size, uint64_t seed) {
                    return run_pruned_gemv(d, kernel, size, seed, percent / 100.0);
                  }};
}

const WorkloadRegistrar dense{pruned_gemv_workload("pruned_gemv", 0)};
const WorkloadRegistrar pruned_20{pruned_gemv_workload("pruned_gemv", 20)};
const WorkloadRegistrar pruned_40{pruned_gemv_workload("pruned_gemv", 40)};
const WorkloadRegistrar pruned_60{pruned_gemv_workload("pruned_gemv", 60)};
const WorkloadRegistrar half_pruned{pruned_gemv_workload("pruned_gemv", 50)};
const WorkloadRegistrar mostly_pruned{pruned_gemv_workload("pruned_gemv", 90)};
const WorkloadRegistrar dense_code_0{pruned_gemv_workload("pruned_gemv_dense", 0)};
const WorkloadRegistrar dense_code_20{pruned_gemv_workload("pruned_gemv_dense", 20)};
const WorkloadRegistrar dense_code_40{pruned_gemv_workload("pruned_gemv_dense", 40)};
const WorkloadRegistrar dense_code_60{pruned_gemv_workload("pruned_gemv_dense", 60)};
const WorkloadRegistrar unrolled_0{pruned_gemv_workload("pruned_gemv_unrolled", 0)};
const WorkloadRegistrar unrolled_20{pruned_gemv_workload("pruned_gemv_unrolled", 20)};
const WorkloadRegistrar unrolled_40{pruned_gemv_workload("pruned_gemv_unrolled", 40)};
const WorkloadRegistrar unrolled_60{pruned_gemv_workload("pruned_gemv_unrolled", 60)};
const WorkloadRegistrar rows_0{pruned_gemv_workload("pruned_gemv_rows", 0)};
const WorkloadRegistrar rows_20{pruned_gemv_workload("pruned_gemv_rows", 20)};
const WorkloadRegistrar rows_40{pruned_gemv_workload("pruned_gemv_rows", 40)};
const WorkloadRegistrar rows_60{pruned_gemv_workload("pruned_gemv_rows", 60)};
const WorkloadRegistrar blocks_0{pruned_gemv_workload("pruned_gemv_blocks", 0)};
const WorkloadRegistrar blocks_20{pruned_gemv_workload("pruned_gemv_blocks", 20)};
const WorkloadRegistrar blocks_40{pruned_gemv_workload("pruned_gemv_blocks", 40)};
const WorkloadRegistrar blocks_60{pruned_gemv_workload("pruned_gemv_blocks", 60)};

}  // namespace
}  // namespace tessera::workloads
