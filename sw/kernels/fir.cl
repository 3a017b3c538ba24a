/* FIR filter y[i] = sum_t taps[t] * x[i + t] over n outputs (x holds
 * n + num_taps - 1 samples); taps in constant memory. */
#include "tessera_device.h"

__kernel void fir(__global const float* x, __constant float* taps, __global float* y, uint n, uint num_taps) {
  TESSERA_GUARD_1D(i, n);
  float acc = 0.0f;
  for (uint t = 0; t < num_taps; ++t) acc += taps[t] * x[i + t];
  y[i] = acc;
}
