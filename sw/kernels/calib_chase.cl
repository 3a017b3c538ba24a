/* Calibration: a dependent-load chain (pointer chase). One work-item follows
 * `steps` links of a chain of byte offsets: each load's address is the value
 * the previous load returned, so the loop runs exactly one memory round trip
 * per step, plus the loop's own instructions, which are identical every step.
 * The chain's layout (tests/timing/calibration_test.cpp) decides where the
 * links hit: the L1, the L2 or DRAM. */
#include "tessera_device.h"

__kernel void calib_chase(__global const uchar* chain, __global uint* out, uint steps) {
  /* The work-item id (0) keeps the offset in a vector register, so the
   * loads are vector loads through the L1, not scalar loads. */
  uint offset = (uint)get_global_id(0) * 4u;
#pragma unroll 1
  for (uint i = 0; i < steps; ++i) offset = *(__global const uint*)(chain + offset);
  out[get_global_id(0)] = offset;
}
