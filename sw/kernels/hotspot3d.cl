/* One step of a Hotspot3D-like thermal stencil on an nx x ny x nz grid
 * (x fastest): each cell's new temperature is a weighted sum of itself, its
 * six neighbours (clamped at the faces, as Rodinia's hotspot3D does) and its
 * power. The weights are powers of two, so every product is exact; the terms
 * are added in source order, so the result is bit-exact with the CPU's. */
#include "tessera_device.h"

__kernel void hotspot3d_step(__global const float* power, __global const float* t_in, __global float* t_out,
                             uint nx, uint ny, uint nz) {
  TESSERA_GUARD_1D(i, nx * ny * nz);
  const uint x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
  const uint plane = nx * ny;
  const float c = t_in[i];
  const float w = x > 0 ? t_in[i - 1] : c;
  const float e = x + 1 < nx ? t_in[i + 1] : c;
  const float n = y > 0 ? t_in[i - nx] : c;
  const float s = y + 1 < ny ? t_in[i + nx] : c;
  const float b = z > 0 ? t_in[i - plane] : c;
  const float t = z + 1 < nz ? t_in[i + plane] : c;
  t_out[i] = c * 0.25f + w * 0.125f + e * 0.125f + n * 0.125f + s * 0.125f + b * 0.0625f + t * 0.0625f +
             power[i] * 0.0625f;
}
