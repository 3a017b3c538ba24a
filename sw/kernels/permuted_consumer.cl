/* A producer and a consumer that reads what another chiplet produced.
 * perm_produce writes buf[i] = f(i, round); perm_consume reads, for element i,
 * buf at i + n/parts (mod n). With n a multiple of parts x the workgroup size
 * and the grid split into one contiguous range per chiplet, a platform with
 * `parts` chiplets has chiplet c read exactly the range chiplet c+1 (mod parts)
 * wrote; with fewer chiplets part of the reads stay on the same chiplet. */
#include "tessera_device.h"

__kernel void perm_produce(__global uint* buf, uint round, uint n) {
  TESSERA_GUARD_1D(i, n);
  uint v = (i + 1u) * 2654435761u + round * 0x632be5abu;
  v ^= v >> 16;
  buf[i] = v * 0x85ebca6bu;
}

__kernel void perm_consume(__global const uint* buf, __global uint* out, uint parts, uint n) {
  TESSERA_GUARD_1D(i, n);
  const uint shift = n / parts;
  uint j = i + shift;
  if (j >= n) j -= n;
  const uint v = buf[j];
  out[i] = (v ^ (v >> 13)) * 0xc2b2ae35u + i;
}
