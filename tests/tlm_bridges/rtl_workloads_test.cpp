// Every workload of the suite gives the functional executor's bytes on
// json/platforms/small_gpu_rtl_memory.json: small_gpu with the SystemVerilog
// AXI4 memory (Verilated, behind the TLM -> AXI4 bridge, checked by the AXI4
// protocol checker) in place of its DRAM controllers, by a netlist change
// alone. At each workload's smallest test size, to keep the test time
// reasonable (the RTL is evaluated every cycle of every memory access).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "platform/functional_device.h"
#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/timing/workload_compare.h"

using namespace tessera;
using namespace tessera::test;

namespace {

void check_on_rtl_memory(const std::string& name) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu_rtl_memory.json";
  o.kernel_dir = kKernelDir;
  FunctionalDevice reference(kKernelDir);
  TimingDevice timing(o);
  const workloads::Workload* w = workloads::find_workload(name);
  REQUIRE(w);
  compare_run(*w, reference, timing, *std::min_element(w->test_sizes.begin(), w->test_sizes.end()), false);
}

}  // namespace

#define TESSERA_RTL_WORKLOAD(name)                                                                   \
  TEST_CASE("rtl memory: small_gpu with the RTL AXI4 memory gives the executor's bytes: " #name,     \
            "[rtl][workload]") {                                                                     \
    check_on_rtl_memory(#name);                                                                      \
  }

TESSERA_RTL_WORKLOAD(vector_add)
TESSERA_RTL_WORKLOAD(saxpy)
TESSERA_RTL_WORKLOAD(reduction)
TESSERA_RTL_WORKLOAD(relu)
TESSERA_RTL_WORKLOAD(scan)
TESSERA_RTL_WORKLOAD(sgemm16)
TESSERA_RTL_WORKLOAD(sgemm32)
TESSERA_RTL_WORKLOAD(mfma_gemm_f32)
TESSERA_RTL_WORKLOAD(mfma_gemm_f16)
TESSERA_RTL_WORKLOAD(conv2d)
TESSERA_RTL_WORKLOAD(stencil2d)
TESSERA_RTL_WORKLOAD(transpose)
TESSERA_RTL_WORKLOAD(spmv)
TESSERA_RTL_WORKLOAD(pruned_gemv_0)
TESSERA_RTL_WORKLOAD(pruned_gemv_50)
TESSERA_RTL_WORKLOAD(pruned_gemv_90)
TESSERA_RTL_WORKLOAD(fir)
TESSERA_RTL_WORKLOAD(histogram)
TESSERA_RTL_WORKLOAD(bfs)
TESSERA_RTL_WORKLOAD(babelstream)
TESSERA_RTL_WORKLOAD(nbody)
TESSERA_RTL_WORKLOAD(kmeans)
TESSERA_RTL_WORKLOAD(babelstream_iter)
TESSERA_RTL_WORKLOAD(stencil_iter)
TESSERA_RTL_WORKLOAD(producer_consumer)
TESSERA_RTL_WORKLOAD(permuted_consumer)
TESSERA_RTL_WORKLOAD(no_reuse)
TESSERA_RTL_WORKLOAD(const_table)
TESSERA_RTL_WORKLOAD(libm)
TESSERA_RTL_WORKLOAD(private_index)
TESSERA_RTL_WORKLOAD(calib_chase)
TESSERA_RTL_WORKLOAD(calib_stream)
TESSERA_RTL_WORKLOAD(calib_valu)
TESSERA_RTL_WORKLOAD(calib_salu)
TESSERA_RTL_WORKLOAD(calib_mfma)
TESSERA_RTL_WORKLOAD(calib_lds)
TESSERA_RTL_WORKLOAD(square)
TESSERA_RTL_WORKLOAD(hotspot3d)
TESSERA_RTL_WORKLOAD(lud)
TESSERA_RTL_WORKLOAD(rnn)
TESSERA_RTL_WORKLOAD(pruned_gemv_20)
TESSERA_RTL_WORKLOAD(pruned_gemv_40)
TESSERA_RTL_WORKLOAD(pruned_gemv_60)
TESSERA_RTL_WORKLOAD(conv_relu50)
TESSERA_RTL_WORKLOAD(relu_s25)
TESSERA_RTL_WORKLOAD(relu_s50)
TESSERA_RTL_WORKLOAD(relu_s75)
TESSERA_RTL_WORKLOAD(fir_s25)
TESSERA_RTL_WORKLOAD(fir_s50)
TESSERA_RTL_WORKLOAD(fir_s75)
TESSERA_RTL_WORKLOAD(spmv_s25)
TESSERA_RTL_WORKLOAD(spmv_s50)
TESSERA_RTL_WORKLOAD(spmv_s75)
TESSERA_RTL_WORKLOAD(matmul_waves)
TESSERA_RTL_WORKLOAD(nw)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_2x2)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_2x2_res3)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_2x2_res4)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_2x2_bert_proj)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_2x2_bert_attn)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_4x2)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_4x2_res3)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_4x2_res4)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_4x2_bert_proj)
TESSERA_RTL_WORKLOAD(mfma_gemm_lds_4x2_bert_attn)
TESSERA_RTL_WORKLOAD(lds_distinct)

TEST_CASE("rtl memory: every workload of the suite has a test case on the RTL memory", "[rtl][workload]") {
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
  for (const auto& w : workloads::workloads()) registered.push_back(w.name);
  std::vector<std::string> sorted = listed;
  std::sort(sorted.begin(), sorted.end());
  std::sort(registered.begin(), registered.end());
  CHECK(sorted == registered);
}
