/* C = A B with one 64-wide workgroup (one wave) per row of C: C has 64
 * columns, so work-item x of group r computes C[r][x] over the whole K. The
 * number of rows is the number of waves, which sets how many loads are in
 * flight at once: the knob of a memory-contention sweep. */
#include "tessera_device.h"

#define MATMUL_COLS 64

__kernel __attribute__((reqd_work_group_size(MATMUL_COLS, 1, 1)))
void matmul_waves(__global const float* a, __global const float* b, __global float* c, uint k) {
  const uint row = (uint)get_group_id(0), col = (uint)get_local_id(0);
  float acc = 0.0f;
  for (uint p = 0; p < k; ++p) acc += a[TESSERA_AT(row, p, k)] * b[TESSERA_AT(p, col, MATMUL_COLS)];
  c[TESSERA_AT(row, col, MATMUL_COLS)] = acc;
}
