/* y = alpha * x + y (in place), one work-item per element. */
#include "tessera_device.h"

__kernel void saxpy(float alpha, __global const float* x, __global float* y, uint n) {
  TESSERA_GUARD_1D(i, n);
  y[i] = alpha * x[i] + y[i];
}
