/* Sum of n floats: each workgroup of 256 reduces a grid-strided slice through
 * LDS with barriers and writes one partial sum; the host relaunches on the
 * partial sums until one value remains. */
#include "tessera_device.h"

#define REDUCTION_GROUP 256

__kernel __attribute__((reqd_work_group_size(REDUCTION_GROUP, 1, 1)))
void reduce_sum(__global const float* in, __global float* partial, uint n) {
  __local float scratch[REDUCTION_GROUP];
  const uint lid = (uint)get_local_id(0);
  const uint stride = (uint)get_global_size(0);
  float acc = 0.0f;
  for (uint i = (uint)get_global_id(0); i < n; i += stride) acc += in[i];
  scratch[lid] = acc;
  tessera_lds_sum(scratch, lid, REDUCTION_GROUP);
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
