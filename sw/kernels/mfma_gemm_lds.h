/* What the LDS-tiled MFMA GEMMs share (mfma_gemm_lds.cl, the tiles staged
 * between two barriers; mfma_gemm_lds_pipe.cl, the software-pipelined form):
 * the tile sizes, the operand layout of v_mfma_f32_32x32x2f32 and the loads
 * and stores at the matrix edges. Operand layout as in mfma_gemm.cl (lane l,
 * i = l % 32, h = l / 32): A holds A[i][kk + h], B holds B[kk + h][i],
 * register r of C holds C[8 (r / 4) + 4 h + r % 4][i]. On a CPU (PoCL) the
 * twin computes the same elements with loops. */
#ifndef TESSERA_MFMA_GEMM_LDS_H
#define TESSERA_MFMA_GEMM_LDS_H

#include "tessera_device.h"

#define LDS_WAVE 64
#define LDS_KT 16             /* K per LDS stage: 8 MFMA steps */
#define LDS_A_STRIDE (LDS_KT + 1) /* a padding column: lanes of a fragment read different banks */

inline uint lds_mfma_row(uint r, uint h) { return 8u * (r / 4u) + 4u * h + (r % 4u); }

inline float lds_load(__global const float* m, uint row, uint col, uint rows, uint cols) {
  return (row < rows && col < cols) ? m[TESSERA_AT(row, col, cols)] : 0.0f;
}

#if TESSERA_GPU
inline void lds_store_tile(__global float* c, float16 acc, uint row0, uint col, uint h, uint m, uint n) {
  float out[16];
  vstore16(acc, 0, out);
  for (uint r = 0; r < 16; ++r) {
    const uint row = row0 + lds_mfma_row(r, h);
    if (row < m && col < n) c[TESSERA_AT(row, col, n)] = out[r];
  }
}
#else
inline void lds_twin_tile(__global const float* a, __global const float* b, __global float* c, uint row0, uint col,
                          uint h, uint m, uint n, uint k) {
  for (uint r = 0; r < 16; ++r) {
    const uint row = row0 + lds_mfma_row(r, h);
    if (row >= m || col >= n) continue;
    float acc = 0.0f;
    for (uint p = 0; p < k; ++p) acc += a[TESSERA_AT(row, p, k)] * b[TESSERA_AT(p, col, n)];
    c[TESSERA_AT(row, col, n)] = acc;
  }
}
#endif

#endif
