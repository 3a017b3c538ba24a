/* One leapfrog-style step of an all-pairs n-body simulation. Bodies are float4
 * (x, y, z, mass); velocities float4 (vx, vy, vz, 0). Each 64-wide workgroup
 * walks all bodies in tiles staged in LDS; padding bodies have zero mass, so
 * they add nothing. Softening keeps the self-interaction finite (and zero). */
#include "tessera_device.h"

#define NBODY_GROUP 64

__kernel __attribute__((reqd_work_group_size(NBODY_GROUP, 1, 1)))
void nbody_step(__global const float4* pos, __global const float4* vel, __global float4* new_pos,
                __global float4* new_vel, uint n, float dt, float softening2) {
  __local float4 tile[NBODY_GROUP];
  const uint i = (uint)get_global_id(0), lid = (uint)get_local_id(0);
  const float4 p = i < n ? pos[i] : (float4)(0.0f);
  float3 acc = (float3)(0.0f);
  for (uint base = 0; base < n; base += NBODY_GROUP) {
    const uint j = base + lid;
    tile[lid] = j < n ? pos[j] : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint t = 0; t < NBODY_GROUP; ++t) {
      const float4 q = tile[t];
      const float3 d = q.xyz - p.xyz;
      const float inv = rsqrt(dot(d, d) + softening2);
      acc += (q.w * inv * inv * inv) * d;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (i >= n) return;
  const float3 v = vel[i].xyz + dt * acc;
  new_vel[i] = (float4)(v, 0.0f);
  new_pos[i] = (float4)(p.xyz + dt * v, p.w);
}
