/* C = A * B (row-major, M x K times K x N) on the matrix cores with LDS tiles
 * shared by the waves of a workgroup: a grid of WR x WC waves (64 work-items
 * each, a 1D workgroup of 64 WR WC) computes a (32 WR) x (32 WC) block of C,
 * each wave one 32 x 32 tile with v_mfma_f32_32x32x2f32. Per step of K the
 * workgroup stages a (32 WR) x KT block of A and a KT x (32 WC) block of B in
 * LDS (zero-padded at the edges); then wave (wr, wc) reads its A fragment from
 * rows 32 wr.. and its B fragment from columns 32 wc.. with ds_read. Waves in
 * one row of the grid read the same A addresses, waves in one column the same
 * B addresses: the reads an LDS multicast unit can merge.
 *
 * mfma_gemm_lds_distinct is the control: the same 2 x 2 grid and arithmetic,
 * but each wave stages its own copy of its fragments in its own LDS area, so
 * no two waves ever read the same LDS address.
 *
 * The operand layout and the helpers are in mfma_gemm_lds.h;
 * mfma_gemm_lds_pipe.cl is the software-pipelined form of the same GEMM. */
#include "mfma_gemm_lds.h"

/* The shared-tile GEMM for a WR x WC wave grid; ta holds 32 WR x LDS_A_STRIDE
 * floats, tb LDS_KT x 32 WC. */
inline void gemm_lds_shared(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                            uint k, __local float* ta, __local float* tb, const uint wr_count, const uint wc_count) {
  const uint lid = (uint)get_local_id(0), wave = lid / LDS_WAVE, lane = lid % LDS_WAVE;
  const uint i = lane % 32u, h = lane / 32u, wr = wave / wc_count, wc = wave % wc_count;
  const uint block_rows = 32u * wr_count, block_cols = 32u * wc_count;
  const uint row0 = (uint)get_group_id(1) * block_rows, col0 = (uint)get_group_id(0) * block_cols;
#if TESSERA_GPU
  const uint threads = LDS_WAVE * wr_count * wc_count;
  float16 acc = (float16)(0.0f);
  for (uint t = 0; t < k; t += LDS_KT) {
    for (uint e = lid; e < block_rows * LDS_KT; e += threads)
      ta[(e / LDS_KT) * LDS_A_STRIDE + e % LDS_KT] = lds_load(a, row0 + e / LDS_KT, t + e % LDS_KT, m, k);
    for (uint e = lid; e < LDS_KT * block_cols; e += threads)
      tb[e] = lds_load(b, t + e / block_cols, col0 + e % block_cols, k, n);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint kk = 0; kk < LDS_KT; kk += 2) {
      const float av = ta[(32u * wr + i) * LDS_A_STRIDE + kk + h];
      const float bv = tb[(kk + h) * block_cols + 32u * wc + i];
      acc = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, acc, 0, 0, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  lds_store_tile(c, acc, row0 + 32u * wr, col0 + 32u * wc + i, h, m, n);
#else
  lds_twin_tile(a, b, c, row0 + 32u * wr, col0 + 32u * wc + i, h, m, n, k);
#endif
}

__kernel __attribute__((reqd_work_group_size(4 * LDS_WAVE, 1, 1)))
void mfma_gemm_lds_2x2(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[64 * LDS_A_STRIDE], tb[LDS_KT * 64];
  gemm_lds_shared(a, b, c, m, n, k, ta, tb, 2, 2);
}

__kernel __attribute__((reqd_work_group_size(8 * LDS_WAVE, 1, 1)))
void mfma_gemm_lds_4x2(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[128 * LDS_A_STRIDE], tb[LDS_KT * 64];
  gemm_lds_shared(a, b, c, m, n, k, ta, tb, 4, 2);
}

/* The control: a 2 x 2 grid where wave w stages its own 32 x KT A fragment
 * and KT x 32 B fragment in LDS area w and reads only those. */
__kernel __attribute__((reqd_work_group_size(4 * LDS_WAVE, 1, 1)))
void mfma_gemm_lds_distinct(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                            uint k) {
  __local float ta[4 * 32 * LDS_A_STRIDE], tb[4 * LDS_KT * 32];
  const uint lid = (uint)get_local_id(0), wave = lid / LDS_WAVE, lane = lid % LDS_WAVE;
  const uint i = lane % 32u, h = lane / 32u, wr = wave / 2u, wc = wave % 2u;
  const uint row0 = (uint)get_group_id(1) * 64u + 32u * wr, col0 = (uint)get_group_id(0) * 64u + 32u * wc;
#if TESSERA_GPU
  __local float* my_a = ta + wave * 32u * LDS_A_STRIDE;
  __local float* my_b = tb + wave * LDS_KT * 32u;
  float16 acc = (float16)(0.0f);
  for (uint t = 0; t < k; t += LDS_KT) {
    for (uint e = lane; e < 32u * LDS_KT; e += LDS_WAVE) {
      my_a[(e / LDS_KT) * LDS_A_STRIDE + e % LDS_KT] = lds_load(a, row0 + e / LDS_KT, t + e % LDS_KT, m, k);
      my_b[e] = lds_load(b, t + e / 32u, col0 + e % 32u, k, n);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint kk = 0; kk < LDS_KT; kk += 2) {
      const float av = my_a[i * LDS_A_STRIDE + kk + h];
      const float bv = my_b[(kk + h) * 32u + i];
      acc = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, acc, 0, 0, 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  lds_store_tile(c, acc, row0, col0 + i, h, m, n);
#else
  lds_twin_tile(a, b, c, row0, col0 + i, h, m, n, k);
#endif
}
