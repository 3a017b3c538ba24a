/* c = a + b, one work-item per element. */
#include "tessera_device.h"

__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, uint n) {
  TESSERA_GUARD_1D(i, n);
  c[i] = a[i] + b[i];
}
