/* Four elementwise integer stages y[i] = stage(x[i]) (uint, wrapping), one
 * kernel each. producer_consumer chains them (each stage reads the buffer the
 * previous launch wrote, at the same index, hence on the same chiplet);
 * no_reuse runs the same stages on fresh, disjoint buffers. */
#include "tessera_device.h"

/* Multiplicative hash plus the index. */
__kernel void pc_scale(__global const uint* x, __global uint* y, uint n) {
  TESSERA_GUARD_1D(i, n);
  y[i] = x[i] * 2654435761u + i;
}

/* xorshift mixing. */
__kernel void pc_mix(__global const uint* x, __global uint* y, uint n) {
  TESSERA_GUARD_1D(i, n);
  const uint v = x[i];
  y[i] = v ^ (v >> 15) ^ (v << 7);
}

/* Rotate left by 11, add a constant. */
__kernel void pc_rotate(__global const uint* x, __global uint* y, uint n) {
  TESSERA_GUARD_1D(i, n);
  const uint v = x[i];
  y[i] = ((v << 11) | (v >> 21)) + 0x9e3779b9u;
}

/* Square and fold the high half in. */
__kernel void pc_fold(__global const uint* x, __global uint* y, uint n) {
  TESSERA_GUARD_1D(i, n);
  const uint v = x[i];
  const uint sq = v * v;
  y[i] = sq ^ (v >> 16) ^ mul_hi(v, 0x85ebca6bu);
}
