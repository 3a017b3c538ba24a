// mfma_gemm_lds_<grid>[_<layer>]: C = A * B on the matrix cores with LDS
// tiles shared by a grid of waves per workgroup (2x2: 4 waves, a 64 x 64 block
// of C; 4x2: 8 waves, 128 x 64), the waves of one grid row reading the same A
// fragments and those of one grid column the same B fragments from LDS (see
// mfma_gemm_lds.cl). lds_distinct is the control: a 2x2 grid whose waves each
// stage and read their own copy of their fragments, so no two waves read the
// same LDS address.
//
// mfma_gemm_lds_pipe_<grid>[_<layer>] are the same GEMMs software-pipelined
// (mfma_gemm_lds_pipe.cl): two LDS buffers, the next K-step's global loads in
// flight during the current step's MFMAs, one barrier per step.
//
// Shapes: without a layer suffix, M = size, N = size + 5, K = size + 3 (no
// dimension a multiple of a tile by accident). With one, M = size (output
// pixels or tokens) and N, K are the layer's: res3 and res4 are the 3x3
// convolutions of a ResNet-50 stage 3 and 4 as implicit GEMMs (N = 128, K =
// 1152; N = 256, K = 2304), bert_proj a BERT-base layer's projections (each
// of Q, K, V and the attention output: N = 768, K = 768) and bert_attn one
// head's attention scores Q K^T (N = M = tokens, K = 64).
//
// Exact by construction: inputs are multiples of 1/64 in [-1, 1], so every
// product is a multiple of 2^-12 of magnitude at most 1, and every partial sum
// of K < 4096 of them stays below 2^12 on that grid, within 24 significant
// bits: every order of accumulation gives the exact product, compared bit for
// bit.
#include <cstdint>
#include <string>

#include "sw/workloads/matrix_util.h"
#include "sw/workloads/rng.h"

namespace tessera::workloads {
namespace {

constexpr uint32_t kWave = 64;
constexpr size_t kMaxExactK = 4095;

struct WaveGrid {
  const char* name;     // in the workload's name
  const char* program;  // the kernel source: mfma_gemm_lds or mfma_gemm_lds_pipe
  const char* kernel;   // in it
  uint32_t rows, cols;  // waves per workgroup, each a 32 x 32 tile of C
};

struct Layer {
  const char* suffix;  // "" for the generic shape
  size_t (*n)(size_t m);
  size_t (*k)(size_t m);
  const char* shape;  // N and K in words, for the doc line
  size_t default_m;
  std::vector<size_t> test_sizes;
};

Result run_gemm_lds(Device& device, size_t m, size_t n, size_t k, uint64_t seed, const WaveGrid& grid) {
  Result result;
  if (k > kMaxExactK) {
    result.message = "K=" + std::to_string(k) + " exceeds " + std::to_string(kMaxExactK) +
                     ", beyond which the exact-result argument for this workload does not hold";
    return result;
  }
  Rng rng(seed);
  std::vector<float> a(m * k), b(k * n);
  for (auto& v : a) v = rng.dyadic(64, 64);
  for (auto& v : b) v = rng.dyadic(64, 64);
  result.shape = "M=" + std::to_string(m) + " N=" + std::to_string(n) + " K=" + std::to_string(k) + ", " +
                 std::to_string(grid.rows) + "x" + std::to_string(grid.cols) + " waves per workgroup";
  std::vector<float> c;
  {
    Session s(device, result);
    DevicePtr da = s.upload(a), db = s.upload(b), dc = s.alloc(m * n * sizeof(float));
    const uint32_t block_rows = 32 * grid.rows, block_cols = 32 * grid.cols;
    const uint32_t groups_x = uint32_t((n + block_cols - 1) / block_cols);
    const uint32_t groups_y = uint32_t((m + block_rows - 1) / block_rows);
    const uint32_t threads = kWave * grid.rows * grid.cols;
    s.launch(grid.program, grid.kernel, Dim3{groups_x * threads, groups_y}, Dim3{threads, 1},
             KernelArgs().pointer(da).pointer(db).pointer(dc).value(uint32_t(m)).value(uint32_t(n)).value(
                 uint32_t(k)));
    c = s.download<float>(dc, m * n);
  }
  conclude(result, {make_output("c", c)},
           {make_output("c", reference_gemm(a, b, m, n, k), Tolerance{0, {}, "exact (dyadic inputs, see source)"})});
  return result;
}

Workload gemm_lds_workload(const std::string& name, const WaveGrid& grid, const Layer& layer) {
  const bool pipelined = std::string(grid.program) == "mfma_gemm_lds_pipe";
  std::string doc = std::string(pipelined ? "software-pipelined (double-buffered) " : "") + "LDS-tiled MFMA GEMM, " +
                    std::to_string(grid.rows) + "x" + std::to_string(grid.cols) +
                    " waves per workgroup sharing LDS fragments";
  if (std::string(grid.name) == "distinct") doc = "control: LDS-tiled MFMA GEMM, 2x2 waves each reading its own LDS copy";
  doc += std::string(", M=size, ") + layer.shape;
  return Workload{name, doc, layer.default_m, layer.test_sizes, [grid, layer](Device& d, size_t size, uint64_t seed) {
                    return run_gemm_lds(d, size, layer.n(size), layer.k(size), seed, grid);
                  }};
}

const std::vector<Layer>& layers() {
  static const std::vector<Layer> all = {
      {"", [](size_t m) { return m + 5; }, [](size_t m) { return m + 3; }, "N=size+5, K=size+3", 512, {1, 40, 100}},
      {"_res3", [](size_t) { return size_t(128); }, [](size_t) { return size_t(1152); }, "N=128, K=1152", 784,
       {1, 33}},
      {"_res4", [](size_t) { return size_t(256); }, [](size_t) { return size_t(2304); }, "N=256, K=2304", 196,
       {1, 33}},
      {"_bert_proj", [](size_t) { return size_t(768); }, [](size_t) { return size_t(768); }, "N=768, K=768", 128,
       {1, 33}},
      {"_bert_attn", [](size_t m) { return m; }, [](size_t) { return size_t(64); }, "N=size, K=64", 512,
       {1, 40, 130}},
  };
  return all;
}

bool register_all() {
  const WaveGrid grids[] = {{"2x2", "mfma_gemm_lds", "mfma_gemm_lds_2x2", 2, 2},
                            {"4x2", "mfma_gemm_lds", "mfma_gemm_lds_4x2", 4, 2},
                            {"pipe_2x2", "mfma_gemm_lds_pipe", "mfma_gemm_lds_pipe_2x2", 2, 2},
                            {"pipe_4x2", "mfma_gemm_lds_pipe", "mfma_gemm_lds_pipe_4x2", 4, 2}};
  for (const WaveGrid& g : grids)
    for (const Layer& l : layers()) register_workload(gemm_lds_workload(std::string("mfma_gemm_lds_") + g.name + l.suffix, g, l));
  register_workload(gemm_lds_workload("lds_distinct", {"distinct", "mfma_gemm_lds", "mfma_gemm_lds_distinct", 2, 2}, layers()[0]));
  return true;
}

const bool registered = register_all();

}  // namespace
}  // namespace tessera::workloads
