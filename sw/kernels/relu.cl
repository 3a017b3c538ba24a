/* out = max(in, 0), one work-item per element: a select on a compare. */
#include "tessera_device.h"

__kernel void relu(__global const float* in, __global float* out, uint n) {
  TESSERA_GUARD_1D(i, n);
  const float v = in[i];
  out[i] = v > 0.0f ? v : 0.0f;
}
