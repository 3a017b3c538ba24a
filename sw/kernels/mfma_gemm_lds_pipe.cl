/* C = A * B on the matrix cores with LDS tiles shared by a grid of WR x WC
 * waves, as in mfma_gemm_lds.cl (the same blocks, fragments and reads that an
 * LDS multicast unit can merge), but software-pipelined as CUTLASS-style GEMMs
 * are written: two LDS buffers per operand. In each K-step the waves first
 * issue the global loads of the next step's A and B blocks into registers,
 * then run the MFMAs on the current buffer while those loads are in flight,
 * then store the registers into the other buffer; one barrier per step makes
 * the stores visible and keeps the buffer a wave reads from being
 * overwritten before every wave is done with it (a wave writes buffer b ^ 1
 * only after the barrier that ended every wave's reads of it). The memory
 * round trip of step t + 1 so overlaps the matrix work of step t instead of
 * being exposed between two barriers.
 *
 * ta holds 2 x 32 WR x LDS_A_STRIDE floats, tb 2 x LDS_KT x 32 WC; each
 * work-item carries 8 / WC elements of A and 8 / WR of B per step (at most
 * LDS_PIPE_MAX). */
#include "mfma_gemm_lds.h"

#define LDS_PIPE_MAX 4

#if TESSERA_GPU
/* Global loads of the K-step at t into registers (zero-padded at the edges). */
inline void lds_pipe_fetch(__global const float* a, __global const float* b, float* ra, float* rb, uint t, uint lid,
                           uint threads, uint a_per, uint b_per, uint row0, uint col0, uint block_cols, uint m,
                           uint n, uint k) {
#pragma unroll
  for (uint u = 0; u < LDS_PIPE_MAX; ++u) {
    const uint e = lid + u * threads;
    if (u < a_per) ra[u] = lds_load(a, row0 + e / LDS_KT, t + e % LDS_KT, m, k);
    if (u < b_per) rb[u] = lds_load(b, t + e / block_cols, col0 + e % block_cols, k, n);
  }
}

/* The registers of lds_pipe_fetch into one LDS buffer. */
inline void lds_pipe_stage(__local float* ta, __local float* tb, const float* ra, const float* rb, uint lid,
                           uint threads, uint a_per, uint b_per) {
#pragma unroll
  for (uint u = 0; u < LDS_PIPE_MAX; ++u) {
    const uint e = lid + u * threads;
    if (u < a_per) ta[(e / LDS_KT) * LDS_A_STRIDE + e % LDS_KT] = ra[u];
    if (u < b_per) tb[e] = rb[u];
  }
}
#endif

inline void gemm_lds_pipelined(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                               uint k, __local float* ta, __local float* tb, const uint wr_count,
                               const uint wc_count) {
  const uint lid = (uint)get_local_id(0), wave = lid / LDS_WAVE, lane = lid % LDS_WAVE;
  const uint i = lane % 32u, h = lane / 32u, wr = wave / wc_count, wc = wave % wc_count;
  const uint block_rows = 32u * wr_count, block_cols = 32u * wc_count;
  const uint row0 = (uint)get_group_id(1) * block_rows, col0 = (uint)get_group_id(0) * block_cols;
#if TESSERA_GPU
  const uint threads = LDS_WAVE * wr_count * wc_count;
  const uint a_per = block_rows * LDS_KT / threads, b_per = LDS_KT * block_cols / threads;
  const uint a_buf = block_rows * LDS_A_STRIDE, b_buf = LDS_KT * block_cols;
  float ra[LDS_PIPE_MAX], rb[LDS_PIPE_MAX];
  float16 acc = (float16)(0.0f);
  lds_pipe_fetch(a, b, ra, rb, 0, lid, threads, a_per, b_per, row0, col0, block_cols, m, n, k);
  lds_pipe_stage(ta, tb, ra, rb, lid, threads, a_per, b_per);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint buf = 0;
  for (uint t = 0; t < k; t += LDS_KT) {
    const bool more = t + LDS_KT < k;
    if (more) lds_pipe_fetch(a, b, ra, rb, t + LDS_KT, lid, threads, a_per, b_per, row0, col0, block_cols, m, n, k);
    __local const float* ca = ta + buf * a_buf;
    __local const float* cb = tb + buf * b_buf;
    for (uint kk = 0; kk < LDS_KT; kk += 2) {
      const float av = ca[(32u * wr + i) * LDS_A_STRIDE + kk + h];
      const float bv = cb[(kk + h) * block_cols + 32u * wc + i];
      acc = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, acc, 0, 0, 0);
    }
    if (more) {
      buf ^= 1u;
      lds_pipe_stage(ta + buf * a_buf, tb + buf * b_buf, ra, rb, lid, threads, a_per, b_per);
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  lds_store_tile(c, acc, row0 + 32u * wr, col0 + 32u * wc + i, h, m, n);
#else
  lds_twin_tile(a, b, c, row0 + 32u * wr, col0 + 32u * wc + i, h, m, n, k);
#endif
}

__kernel __attribute__((reqd_work_group_size(4 * LDS_WAVE, 1, 1)))
void mfma_gemm_lds_pipe_2x2(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                            uint k) {
  __local float ta[2 * 64 * LDS_A_STRIDE], tb[2 * LDS_KT * 64];
  gemm_lds_pipelined(a, b, c, m, n, k, ta, tb, 2, 2);
}

__kernel __attribute__((reqd_work_group_size(8 * LDS_WAVE, 1, 1)))
void mfma_gemm_lds_pipe_4x2(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                            uint k) {
  __local float ta[2 * 128 * LDS_A_STRIDE], tb[2 * LDS_KT * 64];
  gemm_lds_pipelined(a, b, c, m, n, k, ta, tb, 4, 2);
}
