/* Histogram of n values into num_bins bins with global atomic increments; the
 * input is skewed so that many work-items hit the same bins at once. */
#include "tessera_device.h"

__kernel void histogram(__global const uint* data, __global uint* bins, uint n, uint num_bins) {
  TESSERA_GUARD_1D(i, n);
  atomic_inc(&bins[data[i] % num_bins]);
}
