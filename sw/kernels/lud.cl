/* Right-looking LU decomposition without pivoting, in place on an n x n
 * row-major matrix, one step k per pair of launches: lud_column divides
 * column k below the diagonal by the pivot (giving L's column), then
 * lud_update subtracts the outer product from the trailing (n-k-1)^2 matrix,
 * which shrinks by one row and column per step. */
#include "tessera_device.h"

__kernel void lud_column(__global float* a, uint n, uint k) {
  const uint i = k + 1 + (uint)get_global_id(0);
  if (i >= n) return;
  a[TESSERA_AT(i, k, n)] = a[TESSERA_AT(i, k, n)] / a[TESSERA_AT(k, k, n)];
}

__kernel void lud_update(__global float* a, uint n, uint k) {
  const uint j = k + 1 + (uint)get_global_id(0), i = k + 1 + (uint)get_global_id(1);
  if (i >= n || j >= n) return;
  a[TESSERA_AT(i, j, n)] = a[TESSERA_AT(i, j, n)] - a[TESSERA_AT(i, k, n)] * a[TESSERA_AT(k, j, n)];
}
