/* c[i] = a[i] * a[i] + c[i]: the element-wise kernel that the host launches
 * again and again over the same two buffers (a read-only, c updated in place),
 * so every launch reuses what the previous one read and wrote at its index. */
#include "tessera_device.h"

__kernel void square(__global const float* a, __global float* c, uint n) {
  TESSERA_GUARD_1D(i, n);
  const float v = a[i];
  c[i] = v * v + c[i];
}
