/* y = W x for a dense-stored weight matrix W (rows x cols) from which a
 * fraction of the weights has been pruned to zero, computed as dense code: every
 * weight is multiplied, zero or not (no branch on the weight), as a dense GEMV
 * library kernel runs a pruned layer. One 64-wide workgroup per row strides
 * along the row and reduces the lane sums in LDS. The weight is the product's
 * first factor, so a lazy unit that learns a weight is zero need not fetch the
 * x it multiplies. */
#include "tessera_device.h"

#define GEMV_GROUP 64

__kernel __attribute__((reqd_work_group_size(GEMV_GROUP, 1, 1)))
void pruned_gemv_dense(__global const float* w, __global const float* x, __global float* y, uint rows, uint cols) {
  __local float scratch[GEMV_GROUP];
  const uint row = (uint)get_group_id(0), lid = (uint)get_local_id(0);
  float acc = 0.0f;
  if (row < rows) {
    for (uint c = lid; c < cols; c += GEMV_GROUP) acc = fma(w[TESSERA_AT(row, c, cols)], x[c], acc);
  }
  scratch[lid] = acc;
  tessera_lds_sum(scratch, lid, GEMV_GROUP);
  if (lid == 0 && row < rows) y[row] = scratch[0];
}
