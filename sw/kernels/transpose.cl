/* out = transpose(in) for a rows x cols matrix of uints through a 16 x 16 LDS
 * tile: reads and writes are both along rows of global memory, and the tile's
 * extra column keeps the column-wise LDS reads off a single bank. */
#include "tessera_device.h"

#define TR_TILE 16

__kernel __attribute__((reqd_work_group_size(TR_TILE, TR_TILE, 1)))
void transpose(__global const uint* in, __global uint* out, uint rows, uint cols) {
  __local uint tile[TR_TILE][TR_TILE + 1];
  const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
  const uint x = (uint)get_group_id(0) * TR_TILE + lx, y = (uint)get_group_id(1) * TR_TILE + ly;
  if (x < cols && y < rows) tile[ly][lx] = in[TESSERA_AT(y, x, cols)];
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint ox = (uint)get_group_id(1) * TR_TILE + lx, oy = (uint)get_group_id(0) * TR_TILE + ly;
  if (ox < rows && oy < cols) out[TESSERA_AT(oy, ox, rows)] = tile[lx][ly];
}
