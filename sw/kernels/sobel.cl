/* Sobel edge magnitude |Gx| + |Gy| of an 8-bit image (one pixel per uint),
 * clamp-to-edge. Integer arithmetic: bit-exact.
 *
 * No bounds branch: every work-item of the rounded-up grid reads clamped
 * coordinates and writes its own cell of the pitched output (rows of `pitch`
 * cells), so the per-column index work depends on work-item x only and is
 * not under a branch on y (see docs/DARSIE.md). */
#include "tessera_device.h"

__kernel void sobel(__global const uint* in, __global uint* out, uint width, uint height, uint pitch) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  const uint xl = (uint)clamp(x - 1, 0, (int)width - 1), xc = (uint)clamp(x, 0, (int)width - 1),
             xr = (uint)clamp(x + 1, 0, (int)width - 1);
  const uint ru = (uint)clamp(y - 1, 0, (int)height - 1) * width, rc = (uint)clamp(y, 0, (int)height - 1) * width,
             rd = (uint)clamp(y + 1, 0, (int)height - 1) * width;
  const int ul = (int)in[ru + xl], uc = (int)in[ru + xc], ur = (int)in[ru + xr];
  const int cl = (int)in[rc + xl], cr = (int)in[rc + xr];
  const int dl = (int)in[rd + xl], dc = (int)in[rd + xc], dr = (int)in[rd + xr];
  const int gx = (ur + 2 * cr + dr) - (ul + 2 * cl + dl);
  const int gy = (dl + 2 * dc + dr) - (ul + 2 * uc + ur);
  out[TESSERA_AT((uint)y, (uint)x, pitch)] = (uint)(abs(gx) + abs(gy));
}
