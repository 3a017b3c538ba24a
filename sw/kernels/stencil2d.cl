/* One Jacobi step of the 5-point stencil out = in/2 + (N + S + W + E)/8 on a
 * width x height grid with fixed boundary values. Each 16 x 16 workgroup
 * stages its tile plus a one-cell halo (18 x 18) in LDS, then every interior
 * work-item reads its neighbours from LDS. */
#include "tessera_device.h"

#define ST_TILE 16
#define ST_HALO (ST_TILE + 2)

__kernel __attribute__((reqd_work_group_size(ST_TILE, ST_TILE, 1)))
void stencil5(__global const float* in, __global float* out, uint width, uint height) {
  __local float tile[ST_HALO][ST_HALO];
  const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  const int gx0 = (int)(get_group_id(0) * ST_TILE) - 1, gy0 = (int)(get_group_id(1) * ST_TILE) - 1;
  for (uint idx = ly * ST_TILE + lx; idx < ST_HALO * ST_HALO; idx += ST_TILE * ST_TILE) {
    const int sx = gx0 + (int)(idx % ST_HALO), sy = gy0 + (int)(idx / ST_HALO);
    const bool inside = sx >= 0 && sy >= 0 && sx < (int)width && sy < (int)height;
    tile[idx / ST_HALO][idx % ST_HALO] = inside ? in[TESSERA_AT(sy, sx, (int)width)] : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint x = (uint)get_global_id(0), y = (uint)get_global_id(1);
  if (x >= width || y >= height) return;
  const float centre = tile[ly + 1][lx + 1];
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[TESSERA_AT(y, x, width)] = centre;
    return;
  }
  const float neighbours = tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 2];
  out[TESSERA_AT(y, x, width)] = 0.5f * centre + 0.125f * neighbours;
}
