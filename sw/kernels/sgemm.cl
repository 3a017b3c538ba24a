/* C = A * B (row-major, M x K times K x N) with square LDS tiles: each
 * workgroup stages a TILE x TILE block of A and of B per step of K, one element
 * per work-item, then every work-item accumulates one element of C. Edges are
 * padded with zeros so any M, N, K works. */
#include "tessera_device.h"

inline void sgemm_tiled(__global const float* a, __global const float* b, __global float* c, uint m, uint n,
                        uint k, __local float* ta, __local float* tb, const uint tile) {
  const uint col = (uint)get_global_id(0), row = (uint)get_global_id(1);
  const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  float acc = 0.0f;
  for (uint t = 0; t < k; t += tile) {
    ta[ly * tile + lx] = (row < m && t + lx < k) ? a[TESSERA_AT(row, t + lx, k)] : 0.0f;
    tb[ly * tile + lx] = (t + ly < k && col < n) ? b[TESSERA_AT(t + ly, col, n)] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < tile; ++j) acc += ta[ly * tile + j] * tb[j * tile + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < m && col < n) c[TESSERA_AT(row, col, n)] = acc;
}

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm_tile16(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[16 * 16], tb[16 * 16];
  sgemm_tiled(a, b, c, m, n, k, ta, tb, 16);
}

__kernel __attribute__((reqd_work_group_size(32, 32, 1)))
void sgemm_tile32(__global const float* a, __global const float* b, __global float* c, uint m, uint n, uint k) {
  __local float ta[32 * 32], tb[32 * 32];
  sgemm_tiled(a, b, c, m, n, k, ta, tb, 32);
}
