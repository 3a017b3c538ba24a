/* Needleman-Wunsch global alignment scores, one anti-diagonal per launch:
 * for every cell (i, j) with i + j = d (1 <= i, j <= n) of the (n+1) x (n+1)
 * score matrix, score = max(diagonal + similarity(a[i-1], b[j-1]),
 * up - gap, left - gap). Row and column 0 hold the host's gap penalties.
 * Integer arithmetic. */
#include "tessera_device.h"

#define NW_ALPHABET 16

__kernel void nw_diagonal(__global int* score, __global const uint* a, __global const uint* b,
                          __global const int* similarity, uint n, uint d, int gap) {
  const uint first = d > n ? d - n : 1u;
  const uint i = first + (uint)get_global_id(0);
  if (i > n || i >= d) return;
  const uint j = d - i, cols = n + 1;
  const int diagonal = score[TESSERA_AT(i - 1, j - 1, cols)] + similarity[a[i - 1] * NW_ALPHABET + b[j - 1]];
  const int up = score[TESSERA_AT(i - 1, j, cols)] - gap, left = score[TESSERA_AT(i, j - 1, cols)] - gap;
  score[TESSERA_AT(i, j, cols)] = max(diagonal, max(up, left));
}
