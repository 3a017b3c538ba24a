/* C = A * B on the matrix cores: one wave (64 work-items) computes one 32 x 32
 * tile of C with v_mfma_f32_32x32x2f32 (f32 inputs, K step 2) or
 * v_mfma_f32_32x32x8f16 (f16 inputs, K step 8), accumulating in 16 f32
 * registers per lane.
 *
 * Operand layout (lane l, i = l % 32, h = l / 32):
 *   A: lane l holds A[i][K-step base + h * KPL + j] for j < KPL (KPL = 1 f32, 4 f16)
 *   B: lane l holds B[K-step base + h * KPL + j][i]
 *   C: register r of lane l holds C[8 * (r / 4) + 4 * h + r % 4][i]
 *
 * On a CPU (PoCL) the builtins do not exist; the twin branch computes each
 * lane's 16 outputs with plain loops and stores them through the same layout,
 * so both branches write the same elements of C. */
#include "tessera_device.h"

#if TESSERA_GPU
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define MFMA_WAVE 64

inline uint mfma_row(uint r, uint h) { return 8u * (r / 4u) + 4u * h + (r % 4u); }

#if TESSERA_GPU
inline void mfma_store(__global float* c, float16 acc, uint row0, uint col, uint h, uint m, uint n) {
  float out[16];
  vstore16(acc, 0, out);
  for (uint r = 0; r < 16; ++r) {
    const uint row = row0 + mfma_row(r, h);
    if (row < m && col < n) c[TESSERA_AT(row, col, n)] = out[r];
  }
}
#endif

__kernel __attribute__((reqd_work_group_size(MFMA_WAVE, 1, 1)))
void mfma_gemm_f32(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  const uint lane = (uint)get_local_id(0), i = lane % 32u, h = lane / 32u;
  const uint row0 = (uint)get_group_id(1) * 32u, col0 = (uint)get_group_id(0) * 32u;
#if TESSERA_GPU
  float16 acc = (float16)(0.0f);
  for (uint t = 0; t < k; t += 2) {
    const uint kk = t + h;
    const float av = (row0 + i < m && kk < k) ? a[TESSERA_AT(row0 + i, kk, k)] : 0.0f;
    const float bv = (kk < k && col0 + i < n) ? b[TESSERA_AT(kk, col0 + i, n)] : 0.0f;
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, acc, 0, 0, 0);
  }
  mfma_store(c, acc, row0, col0 + i, h, m, n);
#else
  for (uint r = 0; r < 16; ++r) {
    const uint row = row0 + mfma_row(r, h), col = col0 + i;
    if (row >= m || col >= n) continue;
    float acc = 0.0f;
    for (uint kk = 0; kk < k; ++kk) acc += a[TESSERA_AT(row, kk, k)] * b[TESSERA_AT(kk, col, n)];
    c[TESSERA_AT(row, col, n)] = acc;
  }
#endif
}

__kernel __attribute__((reqd_work_group_size(MFMA_WAVE, 1, 1)))
void mfma_gemm_f16(__global const half* a, __global const half* b, __global float* c, uint m, uint n, uint k) {
  const uint lane = (uint)get_local_id(0), i = lane % 32u, h = lane / 32u;
  const uint row0 = (uint)get_group_id(1) * 32u, col0 = (uint)get_group_id(0) * 32u;
#if TESSERA_GPU
  float16 acc = (float16)(0.0f);
  for (uint t = 0; t < k; t += 8) {
    half4 av, bv;
    for (uint j = 0; j < 4; ++j) {
      const uint kk = t + 4u * h + j;
      av[j] = (row0 + i < m && kk < k) ? a[TESSERA_AT(row0 + i, kk, k)] : (half)0.0f;
      bv[j] = (kk < k && col0 + i < n) ? b[TESSERA_AT(kk, col0 + i, n)] : (half)0.0f;
    }
    acc = __builtin_amdgcn_mfma_f32_32x32x8f16(av, bv, acc, 0, 0, 0);
  }
  mfma_store(c, acc, row0, col0 + i, h, m, n);
#else
  for (uint r = 0; r < 16; ++r) {
    const uint row = row0 + mfma_row(r, h), col = col0 + i;
    if (row >= m || col >= n) continue;
    float acc = 0.0f;
    for (uint kk = 0; kk < k; ++kk)
      acc += vload_half(TESSERA_AT(row, kk, k), a) * vload_half(TESSERA_AT(kk, col, n), b);
    c[TESSERA_AT(row, col, n)] = acc;
  }
#endif
}
