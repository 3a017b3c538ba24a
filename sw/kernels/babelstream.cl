/* The BabelStream kernels: copy, mul, add, triad and dot over n floats. dot
 * writes one partial sum per 256-wide workgroup (grid-strided, LDS tree). */
#include "tessera_device.h"

#define STREAM_DOT_GROUP 256

__kernel void stream_copy(__global const float* a, __global float* c, uint n) {
  TESSERA_GUARD_1D(i, n);
  c[i] = a[i];
}

__kernel void stream_mul(__global float* b, __global const float* c, float scalar, uint n) {
  TESSERA_GUARD_1D(i, n);
  b[i] = scalar * c[i];
}

__kernel void stream_add(__global const float* a, __global const float* b, __global float* c, uint n) {
  TESSERA_GUARD_1D(i, n);
  c[i] = a[i] + b[i];
}

__kernel void stream_triad(__global float* a, __global const float* b, __global const float* c, float scalar,
                           uint n) {
  TESSERA_GUARD_1D(i, n);
  a[i] = b[i] + scalar * c[i];
}

__kernel __attribute__((reqd_work_group_size(STREAM_DOT_GROUP, 1, 1)))
void stream_dot(__global const float* a, __global const float* b, __global float* partial, uint n) {
  __local float scratch[STREAM_DOT_GROUP];
  const uint lid = (uint)get_local_id(0);
  float acc = 0.0f;
  for (uint i = (uint)get_global_id(0); i < n; i += (uint)get_global_size(0)) acc += a[i] * b[i];
  scratch[lid] = acc;
  tessera_lds_sum(scratch, lid, STREAM_DOT_GROUP);
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
