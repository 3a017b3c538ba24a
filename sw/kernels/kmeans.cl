/* k-means on integer coordinates, one iteration = two launches:
 * kmeans_assign gives each point its nearest centroid (squared distance,
 * lowest index wins ties); kmeans_update recomputes each centroid coordinate
 * as the integer mean of its points (one work-item per cluster and dimension,
 * points visited in order). Integer arithmetic makes every device agree
 * exactly, and exercises integer division (a long sequence on gfx90a). */
#include "tessera_device.h"

__kernel void kmeans_assign(__global const int* points, __global const int* centroids, __global uint* assignment,
                            uint n, uint k, uint dims) {
  TESSERA_GUARD_1D(i, n);
  uint best = 0;
  uint best_distance = UINT_MAX;
  for (uint c = 0; c < k; ++c) {
    uint distance = 0;
    for (uint d = 0; d < dims; ++d) {
      const int diff = points[i * dims + d] - centroids[c * dims + d];
      distance += (uint)(diff * diff);
    }
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  assignment[i] = best;
}

__kernel void kmeans_update(__global const int* points, __global const uint* assignment, __global int* centroids,
                            __global uint* counts, uint n, uint k, uint dims) {
  TESSERA_GUARD_1D(slot, k * dims);
  const uint c = slot / dims, d = slot % dims;
  int sum = 0;
  uint count = 0;
  for (uint i = 0; i < n; ++i) {
    if (assignment[i] != c) continue;
    sum += points[i * dims + d];
    ++count;
  }
  if (count > 0) centroids[slot] = sum / (int)count;  /* an empty cluster keeps its centroid */
  if (d == 0) counts[c] = count;
}
