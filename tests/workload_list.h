// Every workload of the suite, as an X-macro: the differential suite
// (tests/workloads/suite_test.cpp), the timing tests and the RTL-memory tests
// each make their test cases from it, and the suite checks it against the
// workload registry, so that a new workload cannot go untested anywhere.
#pragma once

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
