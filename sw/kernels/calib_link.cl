/* Calibration: read streams by home chiplet. The chiplet network places pages
 * of 256 float4s (4 KiB) round-robin over `chiplets` chiplets, and the
 * command processor gives chiplet c the workgroups [c x share, (c + 1) x
 * share) of the grid. With `reader` < chiplets, only the reader's workgroups
 * read, and only pages homed on the other chiplets: every byte crosses the
 * links into the reader. With `reader` == chiplets, every chiplet's workgroups
 * read pages homed on their own chiplet: each chiplet streams its own memory.
 * A reading workgroup w reads its chiplet's pages w, w + share, ... (four
 * independent loads per loop step, one float4 per work-item and page) and each
 * work-item writes its sum; the other workgroups write 0. `pages` (pages per
 * reading chiplet) must be a multiple of 4 x share; workgroups of 256. */
#include "tessera_device.h"

/* Page q of chiplet c's pages: the reader's q-th page homed elsewhere, or
 * the q-th page homed on c. */
static uint page_of(uint q, uint chiplets, uint reader, uint c) {
  if (reader == chiplets) return q * chiplets + c;
  const uint others = chiplets - 1u;
  const uint r = q % others;
  return (q / others) * chiplets + r + (r >= reader ? 1u : 0u);
}

__kernel void calib_link(__global const float4* in, __global float* out, uint pages, uint chiplets, uint reader,
                         uint share) {
  const uint w = (uint)get_group_id(0);
  const uint t = (uint)get_local_id(0);
  const uint c = w / share;
  if (reader != chiplets && c != reader) {
    out[get_global_id(0)] = 0.0f;
    return;
  }
  float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (uint q = w % share; q < pages; q += 4u * share) {
    a0 += in[page_of(q, chiplets, reader, c) * 256u + t];
    a1 += in[page_of(q + share, chiplets, reader, c) * 256u + t];
    a2 += in[page_of(q + 2u * share, chiplets, reader, c) * 256u + t];
    a3 += in[page_of(q + 3u * share, chiplets, reader, c) * 256u + t];
  }
  const float4 s = a0 + a1 + a2 + a3;
  out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}
