/* Memory-bound kernels over data that BDI compresses (CABA, docs/CABA.md),
 * and a compute-bound one: the data decide the compression, the kernels only
 * stream it. */
#include "tessera_device.h"

/* c = a + b over 32-bit integers (narrow values, zero-heavy buffers, or
 * random ones for the control). */
__kernel void caba_add_u32(__global const uint* a, __global const uint* b, __global uint* c, uint n) {
  TESSERA_GUARD_1D(i, n);
  c[i] = a[i] + b[i];
}

/* out = x[idx]: a gather through an index array (a CSR column array's
 * pattern: sorted, close-together indices). */
__kernel void caba_gather(__global const uint* idx, __global const float* x, __global float* out, uint n) {
  TESSERA_GUARD_1D(i, n);
  out[i] = x[idx[i]];
}

/* out = a * s + b over slowly varying floats. */
__kernel void caba_axpy(__global const float* a, __global const float* b, __global float* out, float s, uint n) {
  TESSERA_GUARD_1D(i, n);
  out[i] = a[i] * s + b[i];
}

/* Compute-bound control: `iters` dependent integer multiply-adds per element
 * of a narrow-integer input (hash-like mixing, exact on every device). */
__kernel void caba_compute(__global const uint* a, __global uint* out, uint iters, uint n) {
  TESSERA_GUARD_1D(i, n);
  uint v = a[i];
  for (uint k = 0; k < iters; ++k) v = v * 1664525u + 1013904223u + k;
  out[i] = v;
}
