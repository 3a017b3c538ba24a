/* y = W x for a dense-stored weight matrix W (rows x cols) from which a
 * fraction of the weights has been pruned to zero, computed as a GEMV library
 * kernel computes it: dense code (every weight multiplied, no branch on the
 * weight) whose inner loop is unrolled by 8, so that each lane issues its 8
 * weight loads and 8 x loads before the first FMA uses one of them. One
 * 64-wide workgroup per row; lane l reads the row's words l, l + 64, ...,
 * so each of the 16 loads of an unrolled step is one coalesced 256 B access
 * per wave (two 128 B lines). The loads are single words rather than float4:
 * with cols = 4 rows + 3 a row does not start on a 16 B boundary, so a
 * float4 load would need a per-row alignment prologue, and the strided word
 * layout already gives full-line requests with 16 of them in flight per wave.
 * The 8 products are accumulated into one FMA chain in column order, so each
 * lane's sum (and y) has the same rounding as pruned_gemv_dense's. The weight
 * is each FMA's first factor, as there. */
#include "tessera_device.h"

#define GEMV_GROUP 64
#define GEMV_UNROLL 8

__kernel __attribute__((reqd_work_group_size(GEMV_GROUP, 1, 1)))
void pruned_gemv_unrolled(__global const float* w, __global const float* x, __global float* y, uint rows,
                          uint cols) {
  __local float scratch[GEMV_GROUP];
  const uint row = (uint)get_group_id(0), lid = (uint)get_local_id(0);
  float acc = 0.0f;
  if (row < rows) {
    __global const float* wr = w + TESSERA_AT(row, 0, cols);
    uint c = lid;
    for (; c + (GEMV_UNROLL - 1) * GEMV_GROUP < cols; c += GEMV_UNROLL * GEMV_GROUP) {
      float wv[GEMV_UNROLL], xv[GEMV_UNROLL];
#pragma unroll
      for (uint k = 0; k < GEMV_UNROLL; ++k) {
        wv[k] = wr[c + k * GEMV_GROUP];
        xv[k] = x[c + k * GEMV_GROUP];
      }
#pragma unroll
      for (uint k = 0; k < GEMV_UNROLL; ++k) acc = fma(wv[k], xv[k], acc);
    }
    for (; c < cols; c += GEMV_GROUP) acc = fma(wr[c], x[c], acc);
  }
  scratch[lid] = acc;
  tessera_lds_sum(scratch, lid, GEMV_GROUP);
  if (lid == 0 && row < rows) y[row] = scratch[0];
}
