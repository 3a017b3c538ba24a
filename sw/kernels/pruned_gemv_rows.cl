/* y = W x for a dense-stored weight matrix W (rows x cols, row-major) from
 * which a fraction of the weights has been pruned to zero, computed thread per
 * row: work-item r computes y[r] alone, one FMA per weight in column order (no
 * branch on the weight), the naive GEMV of simple GPU codes. Lane l of a wave
 * handles row r0 + l, so a wave's load of W touches 64 rows, one word of each:
 * 64 different lines, each reused by the next 15 columns if it stays in the
 * L1. x[c] is the same for every lane. The weight is the FMA's first factor,
 * so a lazy unit that learns a weight is zero need not fetch its x. The loop
 * is left as written (clang's own unrolling decides the schedule). */
#include "tessera_device.h"

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void pruned_gemv_rows(__global const float* w, __global const float* x, __global float* y, uint rows, uint cols) {
  const uint row = (uint)get_global_id(0);
  if (row >= rows) return;
  __global const float* wr = w + TESSERA_AT(row, 0, cols);
  float acc = 0.0f;
  for (uint c = 0; c < cols; ++c) acc = fma(wr[c], x[c], acc);
  y[row] = acc;
}
