/* Inclusive prefix sum of uints in three steps: scan_block scans each
 * workgroup's 256 elements in LDS (Hillis-Steele, double-buffered, a barrier
 * per step) and writes the block total; the host scans the block totals the
 * same way (recursively); scan_add adds each block's preceding total. */
#include "tessera_device.h"

#define SCAN_GROUP 256

__kernel __attribute__((reqd_work_group_size(SCAN_GROUP, 1, 1)))
void scan_block(__global const uint* in, __global uint* out, __global uint* block_sums, uint n) {
  __local uint buf[2][SCAN_GROUP];
  const uint lid = (uint)get_local_id(0);
  const uint gid = (uint)get_global_id(0);
  uint src = 0;
  /* No early return: every work-item must reach every barrier. */
  buf[0][lid] = gid < n ? in[gid] : 0u;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < SCAN_GROUP; offset <<= 1) {
    uint v = buf[src][lid];
    if (lid >= offset) v += buf[src][lid - offset];
    buf[src ^ 1u][lid] = v;
    src ^= 1u;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (gid < n) out[gid] = buf[src][lid];
  if (lid == SCAN_GROUP - 1) block_sums[get_group_id(0)] = buf[src][lid];
}

__kernel void scan_add(__global uint* out, __global const uint* scanned_block_sums, uint n) {
  TESSERA_GUARD_1D(i, n);
  const uint block = i / SCAN_GROUP;
  if (block > 0) out[i] += scanned_block_sums[block - 1];
}
