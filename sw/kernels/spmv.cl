/* y = A x for a sparse A in CSR form, one work-item per row: loops of
 * different lengths per lane (divergence) and gathers from x. */
#include "tessera_device.h"

__kernel void spmv_csr(__global const uint* row_ptr, __global const uint* col_idx, __global const float* values,
                       __global const float* x, __global float* y, uint rows) {
  TESSERA_GUARD_1D(row, rows);
  float acc = 0.0f;
  for (uint j = row_ptr[row]; j < row_ptr[row + 1]; ++j) acc += values[j] * x[col_idx[j]];
  y[row] = acc;
}
