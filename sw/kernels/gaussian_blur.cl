/* 5x5 Gaussian blur of an 8-bit image (one pixel per uint) with the binomial
 * weights 1 4 6 4 1 in each direction (their products sum to 256), rounded to
 * the nearest integer, clamp-to-edge. Integer arithmetic: bit-exact.
 *
 * No bounds branch: every work-item of the rounded-up grid reads clamped
 * coordinates and writes its own cell of the pitched output (rows of `pitch`
 * cells), so the per-column index work depends on work-item x only and is
 * not under a branch on y (see docs/DARSIE.md). */
#include "tessera_device.h"

#define GB_RADIUS 2

inline uint gb_weight(int d) { return d == 0 ? 6u : (d == 1 || d == -1) ? 4u : 1u; }

__kernel void gaussian_blur(__global const uint* in, __global uint* out, uint width, uint height, uint pitch) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  uint acc = 0;
#pragma unroll
  for (int dy = -GB_RADIUS; dy <= GB_RADIUS; ++dy) {
    const uint row = (uint)clamp(y + dy, 0, (int)height - 1) * width;
    uint row_sum = 0;
#pragma unroll
    for (int dx = -GB_RADIUS; dx <= GB_RADIUS; ++dx)
      row_sum += gb_weight(dx) * in[row + (uint)clamp(x + dx, 0, (int)width - 1)];
    acc += gb_weight(dy) * row_sum;
  }
  out[TESSERA_AT((uint)y, (uint)x, pitch)] = (acc + 128u) >> 8;
}
