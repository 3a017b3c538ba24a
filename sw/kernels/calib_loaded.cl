/* Calibration: round trips under load. Work-item 0 of workgroup 0 follows a
 * pointer chase of `steps` links (as calib_chase) and then raises `done`; the
 * rest of workgroup 0 does nothing. Every work-item of the other workgroups
 * streams `in` as calib_stream does (S streaming work-items, work-item s reads
 * float4s s, s + S, s + 2S, s + 3S, then 4S further, wrapping at n4), until it
 * sees `done`, and writes its sum and how many loop steps it ran. So the
 * chase's links meet the stream's traffic for as long as the chase runs, and
 * the launch ends a stream step after the chase. n4 must be a multiple of 4S. */
#include "tessera_device.h"

__kernel void calib_loaded(__global const uchar* chain, __global uint* out, uint steps, __global const float4* in,
                           uint n4, __global volatile uint* done, __global float* sums, __global uint* counts) {
  const uint L = (uint)get_local_size(0);
  if (get_group_id(0) == 0) {
    if (get_local_id(0) == 0) {
      uint offset = (uint)get_global_id(0) * 4u;
#pragma unroll 1
      for (uint i = 0; i < steps; ++i) offset = *(__global const uint*)(chain + offset);
      out[0] = offset;
      atomic_xchg(done, 1u);
    }
    return;
  }
  const uint s = (uint)get_global_id(0) - L, S = (uint)get_global_size(0) - L;
  float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
  uint i = s, n = 0;
  /* The flag is read with an atomic, which the caches pass to its home
   * memory, so that a copy in the L1 or the L2 never hides it. */
  while (atomic_or(done, 0u) == 0u) {
    a0 += in[i];
    a1 += in[i + S];
    a2 += in[i + 2u * S];
    a3 += in[i + 3u * S];
    i += 4u * S;
    if (i >= n4) i -= n4;
    ++n;
  }
  const float4 t = a0 + a1 + a2 + a3;
  sums[s] = t.x + t.y + t.z + t.w;
  counts[s] = n;
}
