// Every workload of the suite gives the same bytes on the timing device
// (json/platforms/small_gpu.json: cycle-level CUs, caches holding real data,
// crossbar, DRAM) as on the functional executor, at the suite's test sizes,
// which include partial workgroups. Timing changes when things happen, never
// what is computed: the kernel-boundary cache policy must make every launch
// see the previous launches' results, and atomics must apply in the same
// order per address as far as the result depends on it (the suite's kernels
// are written so that it does not).
//
// One test case per workload (SystemC elaborates once per process, and CTest
// runs each case in its own process), plus the same netlist in functional mode.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/mem/mem_test_support.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::workloads;

using namespace tessera::test;

namespace {

const std::string kSmallGpu = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";

TimingDeviceOptions small_gpu(bool functional_netlist) {
  TimingDeviceOptions o;
  o.netlist_file = kSmallGpu;
  o.kernel_dir = kKernelDir;
  o.functional = functional_netlist;
  return o;
}

void check_identical(const std::vector<std::string>& names, const TimingDeviceOptions& o) {
  FunctionalDevice reference(kKernelDir);
  TimingDevice timing(o);
  for (const std::string& name : names) {
    const Workload* w = find_workload(name);
    REQUIRE(w);
    for (size_t size : w->test_sizes) compare_run(*w, reference, timing, size, o.functional);
  }
}

// A write-back vector L1 keeps written lines dirty until they are evicted or
// written back: the kernel-end release must write the L1s back before the L2s,
// and device-wide atomics must not be applied in one CU's L1. These workloads
// have atomics (histogram, bfs), partial-line stores and launches that read
// the previous launch's results (scan, producer_consumer, stencil_iter).
void check_write_back_l1(bool direct_dispatch, bool write_allocate) {
  TimingDeviceOptions o = small_gpu(false);
  o.direct_dispatch = direct_dispatch;
  o.overrides.push_back(Override{"l1v[*]", "write_policy", "write_back", "--set l1v[*].write_policy"});
  o.overrides.push_back(Override{"l1v[*]", "write_allocate", write_allocate, "--set l1v[*].write_allocate"});
  check_identical({"histogram", "bfs", "scan", "producer_consumer", "stencil_iter", "transpose"}, o);
}

}  // namespace

// Each at every size of the suite's differential tests (docs/WORKLOADS.md).
#define TESSERA_TIMING_WORKLOAD(name)                                                           \
  TEST_CASE("timing and functional results are bit-identical: " #name, "[timing][workload]") { \
    check_identical({#name}, small_gpu(false));                                                 \
  }

TESSERA_TIMING_WORKLOAD(vector_add)
TESSERA_TIMING_WORKLOAD(saxpy)
TESSERA_TIMING_WORKLOAD(reduction)
TESSERA_TIMING_WORKLOAD(relu)
TESSERA_TIMING_WORKLOAD(scan)
TESSERA_TIMING_WORKLOAD(sgemm16)
TESSERA_TIMING_WORKLOAD(sgemm32)
TESSERA_TIMING_WORKLOAD(mfma_gemm_f32)
TESSERA_TIMING_WORKLOAD(mfma_gemm_f16)
TESSERA_TIMING_WORKLOAD(conv2d)
TESSERA_TIMING_WORKLOAD(stencil2d)
TESSERA_TIMING_WORKLOAD(transpose)
TESSERA_TIMING_WORKLOAD(spmv)
TESSERA_TIMING_WORKLOAD(pruned_gemv_0)
TESSERA_TIMING_WORKLOAD(pruned_gemv_50)
TESSERA_TIMING_WORKLOAD(pruned_gemv_90)
TESSERA_TIMING_WORKLOAD(fir)
TESSERA_TIMING_WORKLOAD(histogram)
TESSERA_TIMING_WORKLOAD(bfs)
TESSERA_TIMING_WORKLOAD(babelstream)
TESSERA_TIMING_WORKLOAD(nbody)
TESSERA_TIMING_WORKLOAD(kmeans)
TESSERA_TIMING_WORKLOAD(babelstream_iter)
TESSERA_TIMING_WORKLOAD(stencil_iter)
TESSERA_TIMING_WORKLOAD(producer_consumer)
TESSERA_TIMING_WORKLOAD(permuted_consumer)
TESSERA_TIMING_WORKLOAD(no_reuse)
TESSERA_TIMING_WORKLOAD(const_table)
TESSERA_TIMING_WORKLOAD(libm)
TESSERA_TIMING_WORKLOAD(private_index)
TESSERA_TIMING_WORKLOAD(calib_chase)
TESSERA_TIMING_WORKLOAD(calib_stream)
TESSERA_TIMING_WORKLOAD(calib_valu)
TESSERA_TIMING_WORKLOAD(calib_salu)
TESSERA_TIMING_WORKLOAD(calib_mfma)
TESSERA_TIMING_WORKLOAD(calib_lds)
TESSERA_TIMING_WORKLOAD(square)
TESSERA_TIMING_WORKLOAD(hotspot3d)
TESSERA_TIMING_WORKLOAD(lud)
TESSERA_TIMING_WORKLOAD(rnn)
TESSERA_TIMING_WORKLOAD(pruned_gemv_20)
TESSERA_TIMING_WORKLOAD(pruned_gemv_40)
TESSERA_TIMING_WORKLOAD(pruned_gemv_60)
TESSERA_TIMING_WORKLOAD(conv_relu50)
TESSERA_TIMING_WORKLOAD(relu_s25)
TESSERA_TIMING_WORKLOAD(relu_s50)
TESSERA_TIMING_WORKLOAD(relu_s75)
TESSERA_TIMING_WORKLOAD(fir_s25)
TESSERA_TIMING_WORKLOAD(fir_s50)
TESSERA_TIMING_WORKLOAD(fir_s75)
TESSERA_TIMING_WORKLOAD(spmv_s25)
TESSERA_TIMING_WORKLOAD(spmv_s50)
TESSERA_TIMING_WORKLOAD(spmv_s75)
TESSERA_TIMING_WORKLOAD(matmul_waves)
TESSERA_TIMING_WORKLOAD(nw)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_2x2)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_2x2_res3)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_2x2_res4)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_2x2_bert_proj)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_2x2_bert_attn)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_4x2)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_4x2_res3)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_4x2_res4)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_4x2_bert_proj)
TESSERA_TIMING_WORKLOAD(mfma_gemm_lds_4x2_bert_attn)
TESSERA_TIMING_WORKLOAD(lds_distinct)

TEST_CASE("the timing netlist in functional mode gives the results of the functional executor", "[timing][workload]") {
  // One process, one platform: several workloads in sequence on it.
  check_identical({"vector_add", "sgemm16", "histogram", "bfs"}, small_gpu(true));
}

TEST_CASE("a write-back vector L1 gives the functional executor's results (command processor)", "[timing][workload]") {
  check_write_back_l1(false, false);
}

TEST_CASE("a write-back, write-allocate vector L1 gives the functional executor's results (direct dispatch)",
          "[timing][workload]") {
  check_write_back_l1(true, true);
}

TEST_CASE("a workload's access modes reach the firmware ahead of each launch (Device::set_access_modes)",
          "[timing][workload]") {
  // debug_flags 4: the firmware traces every packet on its console. square
  // declares a read-only and a read-write buffer before each of its 8 launches.
  TimingDeviceOptions o = small_gpu(false);
  o.overrides.push_back(parse_override("cp.debug_flags=4"));
  TimingDevice timing(o);
  const Workload* w = find_workload("square");
  REQUIRE(w);
  CaptureStdout out;
  const Result r = w->run(timing, 1000, 1);
  REQUIRE(r.passed);
  const std::string text = out.text();
  size_t packets = 0, dispatches = 0;
  for (size_t at = 0; (at = text.find(": 2 access modes\n", at)) != std::string::npos; ++at) ++packets;
  for (size_t at = 0; (at = text.find("2 access modes (1 read-only)", at)) != std::string::npos; ++at) ++dispatches;
  CHECK(packets == 8);
  CHECK(dispatches == 8);
}

TEST_CASE("every workload of the suite has a timing test case", "[timing][workload]") {
  // Keeps the list above complete: a new workload must be added there.
  const std::vector<std::string> listed = {
      "vector_add",    "saxpy",         "reduction",     "relu",           "scan",           "sgemm16",
      "sgemm32",       "mfma_gemm_f32", "mfma_gemm_f16", "conv2d",         "stencil2d",      "transpose",
      "spmv",          "pruned_gemv_0", "pruned_gemv_50", "pruned_gemv_90", "fir",           "histogram",
      "bfs",           "babelstream",   "nbody",         "kmeans",
      "babelstream_iter", "stencil_iter", "producer_consumer", "permuted_consumer", "no_reuse",
      "const_table",   "libm",          "private_index",
      "calib_chase",   "calib_stream",  "calib_valu",    "calib_salu",     "calib_mfma",     "calib_lds",
      "square",
      "hotspot3d",
      "lud",
      "rnn",
      "pruned_gemv_20",
      "pruned_gemv_40",
      "pruned_gemv_60",
      "conv_relu50",
      "relu_s25",
      "relu_s50",
      "relu_s75",
      "fir_s25",
      "fir_s50",
      "fir_s75",
      "spmv_s25",
      "spmv_s50",
      "spmv_s75",
      "matmul_waves",
      "nw",
      "mfma_gemm_lds_2x2",
      "mfma_gemm_lds_2x2_res3",
      "mfma_gemm_lds_2x2_res4",
      "mfma_gemm_lds_2x2_bert_proj",
      "mfma_gemm_lds_2x2_bert_attn",
      "mfma_gemm_lds_4x2",
      "mfma_gemm_lds_4x2_res3",
      "mfma_gemm_lds_4x2_res4",
      "mfma_gemm_lds_4x2_bert_proj",
      "mfma_gemm_lds_4x2_bert_attn",
      "lds_distinct"};
  std::vector<std::string> registered;
  for (const auto& w : tessera::workloads::workloads()) registered.push_back(w.name);
  std::vector<std::string> sorted = listed;
  std::sort(sorted.begin(), sorted.end());
  std::sort(registered.begin(), registered.end());
  CHECK(sorted == registered);
}
