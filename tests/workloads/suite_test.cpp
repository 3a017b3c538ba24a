// The differential suite: every workload at each of its test sizes must match
// its CPU reference on PoCL; on every other registered device it must match
// both its CPU reference and PoCL's outputs. One test case per workload and
// check, so that CTest lists them separately.
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <set>
#include <string>

#include "sw/runtime/device_registry.h"
#include "sw/workloads/compare.h"

using namespace tessera::workloads;
using tessera::runtime::create_device;
using tessera::runtime::device_names;

namespace {

// Every workload the suite knows about; a test below checks this list against
// the registry so that a new workload cannot go untested.
#define TESSERA_WORKLOAD_LIST(X) \
  X(vector_add)                  \
  X(saxpy)                       \
  X(reduction)                   \
  X(relu)                        \
  X(scan)                        \
  X(sgemm16)                     \
  X(sgemm32)                     \
  X(mfma_gemm_f32)               \
  X(mfma_gemm_f16)               \
  X(conv2d)                      \
  X(stencil2d)                   \
  X(transpose)                   \
  X(spmv)                        \
  X(pruned_gemv_0)               \
  X(pruned_gemv_50)              \
  X(pruned_gemv_90)              \
  X(fir)                         \
  X(histogram)                   \
  X(bfs)                         \
  X(babelstream)                 \
  X(nbody)                       \
  X(kmeans)                      \
  X(babelstream_iter)            \
  X(stencil_iter)                \
  X(producer_consumer)           \
  X(permuted_consumer)           \
  X(no_reuse)                    \
  X(const_table)                 \
  X(libm)                        \
  X(private_index)               \
  X(calib_chase)                 \
  X(calib_stream)                \
  X(calib_valu)                  \
  X(calib_salu)                  \
  X(calib_mfma)                  \
  X(calib_lds)                 \
  X(square)                      \
  X(hotspot3d)                   \
  X(lud)                         \
  X(rnn)                         \
  X(pruned_gemv_20)              \
  X(pruned_gemv_40)              \
  X(pruned_gemv_60)              \
  X(conv_relu50)                 \
  X(relu_s25)                    \
  X(relu_s50)                    \
  X(relu_s75)                    \
  X(fir_s25)                     \
  X(fir_s50)                     \
  X(fir_s75)                     \
  X(spmv_s25)                    \
  X(spmv_s50)                    \
  X(spmv_s75)                    \
  X(matmul_waves)                \
  X(nw)                          \
  X(mfma_gemm_lds_2x2)           \
  X(mfma_gemm_lds_2x2_res3)      \
  X(mfma_gemm_lds_2x2_res4)      \
  X(mfma_gemm_lds_2x2_bert_proj)  \
  X(mfma_gemm_lds_2x2_bert_attn)  \
  X(mfma_gemm_lds_4x2)           \
  X(mfma_gemm_lds_4x2_res3)      \
  X(mfma_gemm_lds_4x2_res4)      \
  X(mfma_gemm_lds_4x2_bert_proj)  \
  X(mfma_gemm_lds_4x2_bert_attn)  \
  X(lds_distinct)

uint64_t seed_for(size_t size) { return 0x7e55e7a0ull ^ (uint64_t(size) * 0x9e3779b97f4a7c15ull); }

const Workload& workload(const std::string& name) {
  const Workload* w = find_workload(name);
  if (!w) FAIL("workload '" << name << "' is not registered");
  return *w;
}

void check_on_pocl(const std::string& name) {
  const Workload& w = workload(name);
  auto pocl = create_device("pocl");
  auto start = std::chrono::steady_clock::now();
  for (size_t size : w.test_sizes) {
    Result r = w.run(*pocl, size, seed_for(size));
    INFO(name << " " << r.shape << " on pocl: " << r.message);
    CHECK(r.passed);
    CHECK(r.launches > 0);
    CHECK(!r.outputs.empty());
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  WARN(name << ": " << w.test_sizes.size() << " sizes on pocl in " << seconds << " s");
}

void check_other_devices(const std::string& name) {
  const Workload& w = workload(name);
  std::string found;
  std::vector<std::string> others;
  for (const auto& d : device_names()) {
    found += (found.empty() ? "" : ", ") + d;
    if (d != "pocl") others.push_back(d);
  }
  if (others.empty()) {
    WARN("devices found: " << found << "; no device besides pocl, nothing to compare for " << name);
    return;
  }
  auto pocl = create_device("pocl");
  for (const auto& device_name : others) {
    auto device = create_device(device_name);
    for (size_t size : w.test_sizes) {
      Result oracle = w.run(*pocl, size, seed_for(size));
      REQUIRE(oracle.passed);
      Result r;
      // A device fault fails this size with its report; the other sizes still run.
      try {
        r = w.run(*device, size, seed_for(size));
      } catch (const std::exception& e) {
        FAIL_CHECK(name << " size " << size << " on " << device_name << ": " << e.what());
        continue;
      }
      INFO(name << " " << r.shape << " on " << device_name << ": " << r.message);
      CHECK(r.passed);
      REQUIRE(r.outputs.size() == oracle.outputs.size());
      for (size_t i = 0; i < r.outputs.size(); ++i) {
        std::string diff = compare_outputs(r.outputs[i], oracle.outputs[i]);
        INFO(device_name << " vs pocl: " << diff);
        CHECK(diff.empty());
      }
    }
  }
}

}  // namespace

#define TESSERA_WORKLOAD_CASES(name)                                                          \
  TEST_CASE("pocl matches the CPU reference: " #name, "[workload][pocl]") { check_on_pocl(#name); } \
  TEST_CASE("devices match the CPU reference and pocl: " #name, "[workload][devices]") {     \
    check_other_devices(#name);                                                               \
  }
TESSERA_WORKLOAD_LIST(TESSERA_WORKLOAD_CASES)

TEST_CASE("every registered workload has differential test cases", "[workload]") {
  std::set<std::string> listed;
#define TESSERA_WORKLOAD_NAME(name) listed.insert(#name);
  TESSERA_WORKLOAD_LIST(TESSERA_WORKLOAD_NAME)
  std::set<std::string> registered;
  for (const auto& w : workloads()) registered.insert(w.name);
  CHECK(listed == registered);
}

TEST_CASE("every workload has a doc line and test sizes with a partial workgroup", "[workload]") {
  for (const auto& w : workloads()) {
    INFO(w.name);
    CHECK(!w.doc.empty());
    CHECK(w.test_sizes.size() >= 2);
    bool partial = false;
    for (size_t s : w.test_sizes) partial |= (s % 16 != 0);
    CHECK(partial);
  }
}
