/* A 2D gather whose addressing is computed from the column alone: tap k of
 * column x reads row y at column (x * stride + k * spacing) mod width, with a
 * weight 1 + (that column xor x) mod 8. The column indices (a division by the
 * run-time width per tap) and the weights depend on work-item x only: the
 * x-only address arithmetic that DARSIE's conditional redundancy covers. The
 * loads and sums depend on y. Integer arithmetic modulo 2^32: bit-exact.
 *
 * No bounds branch: every work-item of the rounded-up grid uses clamped
 * coordinates and writes its own cell of the pitched output (rows of `pitch`
 * cells). */
#include "tessera_device.h"

#define XA_TAPS 4

__kernel void xaddr2d(__global const uint* in, __global uint* out, uint width, uint height, uint pitch, uint stride,
                      uint spacing) {
  const uint x = (uint)get_global_id(0), y = (uint)get_global_id(1);
  const uint xc = min(x, width - 1);
  const uint row = min(y, height - 1) * width;
  uint acc = 0;
#pragma unroll
  for (uint k = 0; k < XA_TAPS; ++k) {
    const uint col = (xc * stride + k * spacing) % width;
    const uint weight = 1u + ((col ^ xc) & 7u);
    acc += weight * in[row + col];
  }
  out[TESSERA_AT(y, x, pitch)] = acc;
}
