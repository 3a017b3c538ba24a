/* Calibration: a read stream. Work-item g of G reads float4 elements g, g+G,
 * g+2G, ... of the buffer, four independent loads per loop step so that a wave
 * keeps four requests in flight, `passes` times over the buffer, and writes
 * one sum. The reads are the traffic that matters (16 bytes per element and
 * pass; the writes are one float per work-item). n4 must be a multiple of 4G.
 * A buffer larger than the L2 measures DRAM bandwidth; one that fits in the L2
 * but not in the L1s measures the L2's. */
#include "tessera_device.h"

__kernel void calib_stream(__global const float4* in, __global float* out, uint n4, uint passes) {
  const uint g = (uint)get_global_id(0);
  const uint G = (uint)get_global_size(0);
  float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (uint p = 0; p < passes; ++p)
    for (uint i = g; i < n4; i += 4u * G) {
      a0 += in[i];
      a1 += in[i + G];
      a2 += in[i + 2u * G];
      a3 += in[i + 3u * G];
    }
  const float4 s = a0 + a1 + a2 + a3;
  out[g] = s.x + s.y + s.z + s.w;
}
