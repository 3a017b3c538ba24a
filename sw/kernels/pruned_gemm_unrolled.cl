/* The pruned layer's prefill as pruned_gemm.cl computes it (Y = W X, X and Y
 * feature-major, work-item (t, o) computes Y[o][t], a workgroup is 64 tokens
 * of one output feature), unrolled by 8 as a library kernel is: each step
 * reads 8 weights with one scalar load and issues the wave's 8 activation
 * loads before the first FMA, so the loop's branch, counters and instruction
 * fetches are paid once per 8 weights instead of once per weight. `ins` must
 * be a multiple of 8. */
#include "tessera_device.h"

#define GEMM_STEP 8

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void pruned_gemm_unrolled(__global const float* w, __global const float* xt, __global float* yt, uint tokens,
                          uint ins) {
  const uint t = (uint)get_global_id(0), o = (uint)get_group_id(1);
  if (t >= tokens) return;
  __global const float* wo = w + TESSERA_AT(o, 0, ins);
  float acc = 0.0f;
  uint at = t;  // X[i][t]
  for (uint i = 0; i < ins; i += GEMM_STEP) {
    float wv[GEMM_STEP], xv[GEMM_STEP];
    for (uint k = 0; k < GEMM_STEP; ++k) {
      wv[k] = wo[i + k];
      xv[k] = xt[at + k * tokens];
    }
    for (uint k = 0; k < GEMM_STEP; ++k) acc = fma(wv[k], xv[k], acc);
    at += GEMM_STEP * tokens;
  }
  yt[TESSERA_AT(o, t, tokens)] = acc;
}
