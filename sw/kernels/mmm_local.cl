/* C = A B in the shape of the AMD APP SDK's MatrixMultiplication kernel with
 * A in local memory (`mmmKernel_local`), the matrix multiply of the LazyGPU
 * paper's wavefront sweep. Matrices are row-major float4 arrays: A is M x K,
 * B is K x N, C is M x N, so a row of B or C holds N/4 float4. Each work-item
 * computes a 4 x 4 block of C (four float4 of four consecutive rows). Per
 * block of 64 values of K, the workgroup stages the 64 x 64 tile of A that its
 * rows need in local memory; then each step of K loads four float4 of B rows
 * (j .. j+3) from global memory before the first multiply uses them, so
 * several wide loads per wave are in flight ahead of their use. The
 * workgroup is 16 x 16 (four waves of 16 x 4 work-items); the four rows of
 * work-items in a wave read the same B addresses, so a wave's float4 load of
 * B is 256 B distinct per row. M and N are multiples of 64, K of 64. */
#include "tessera_device.h"

#define MMM_BLOCK 16 /* workgroup side */
#define MMM_TILE 4   /* rows (and columns) of C per work-item */

__kernel __attribute__((reqd_work_group_size(MMM_BLOCK, MMM_BLOCK, 1)))
void mmm_local(__global const float4* a, __global const float4* b, __global float4* c, uint k) {
  __local float4 tile_a[MMM_BLOCK * MMM_BLOCK * MMM_TILE];
  const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  const uint width_b = (uint)get_global_size(0); /* N/4: float4 per row of B and C */
  const uint row0 = (uint)get_global_id(1) * MMM_TILE;
  const uint k4 = k / 4; /* float4 per row of A */
  float4 sum0 = (float4)(0.0f), sum1 = (float4)(0.0f), sum2 = (float4)(0.0f), sum3 = (float4)(0.0f);
  for (uint i = 0; i < k4 / MMM_BLOCK; ++i) {
    /* Each work-item stages one float4 of each of its four rows of A. */
    const uint at = i * MMM_BLOCK + lx + row0 * k4;
    const uint slot = lx + MMM_BLOCK * (ly * MMM_TILE);
    tile_a[slot] = a[at];
    tile_a[slot + MMM_BLOCK] = a[at + k4];
    tile_a[slot + 2 * MMM_BLOCK] = a[at + 2 * k4];
    tile_a[slot + 3 * MMM_BLOCK] = a[at + 3 * k4];
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint bt = (uint)get_global_id(0) + i * MMM_BLOCK * 4 * width_b;
    for (uint j = 0; j < MMM_BLOCK * 4; j += 4) {
      const float4 a0 = tile_a[j / 4 + (ly * MMM_TILE) * MMM_BLOCK];
      const float4 a1 = tile_a[j / 4 + (ly * MMM_TILE + 1) * MMM_BLOCK];
      const float4 a2 = tile_a[j / 4 + (ly * MMM_TILE + 2) * MMM_BLOCK];
      const float4 a3 = tile_a[j / 4 + (ly * MMM_TILE + 3) * MMM_BLOCK];
      const float4 b0 = b[bt + j * width_b];
      const float4 b1 = b[bt + (j + 1) * width_b];
      const float4 b2 = b[bt + (j + 2) * width_b];
      const float4 b3 = b[bt + (j + 3) * width_b];
      sum0 += a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
      sum1 += a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
      sum2 += a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
      sum3 += a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint at_c = (uint)get_global_id(0) + row0 * width_b;
  c[at_c] = sum0;
  c[at_c + width_b] = sum1;
  c[at_c + 2 * width_b] = sum2;
  c[at_c + 3 * width_b] = sum3;
}
