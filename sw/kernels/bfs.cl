/* One level of a level-synchronous breadth-first search over a CSR graph:
 * every vertex on the current level labels its unvisited neighbours with the
 * next level and raises `changed`. The host launches levels until nothing
 * changes. Two work-items may label the same vertex in one launch; they write
 * the same value, so the result is deterministic. */
#include "tessera_device.h"

__kernel void bfs_level(__global const uint* row_ptr, __global const uint* cols, __global int* levels, int level,
                        __global uint* changed, uint n) {
  TESSERA_GUARD_1D(v, n);
  if (levels[v] != level) return;
  for (uint e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
    const uint u = cols[e];
    if (levels[u] < 0) {
      levels[u] = level + 1;
      *changed = 1u;
    }
  }
}
