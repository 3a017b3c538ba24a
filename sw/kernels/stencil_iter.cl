/* One Jacobi step of the 5-point stencil out = in/2 + (N + S + W + E)/8 on a
 * width x height grid with fixed boundary values, one work-item per cell over
 * a 1D grid of the row-major cells (no LDS). The platform gives each chiplet a
 * contiguous range of workgroups, i.e. a band of rows, the same band in every
 * launch: a cell next to a band edge reads its north or south neighbour from
 * the row another chiplet wrote in the previous step (the halo). */
#include "tessera_device.h"

__kernel void stencil_iter_step(__global const float* in, __global float* out, uint width, uint height) {
  TESSERA_GUARD_1D(i, width * height);
  const uint y = i / width, x = i - y * width;
  const float centre = in[i];
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = centre;
    return;
  }
  const float neighbours = in[i - width] + in[i + width] + in[i - 1] + in[i + 1];
  out[i] = 0.5f * centre + 0.125f * neighbours;
}
