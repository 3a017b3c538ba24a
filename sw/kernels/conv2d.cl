/* 2D convolution of a width x height image with a 5 x 5 filter held in
 * constant memory, zero padding at the borders; one work-item per pixel in
 * 16 x 16 workgroups. */
#include "tessera_device.h"

#define CONV_RADIUS 2
#define CONV_SIZE (2 * CONV_RADIUS + 1)

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void conv2d(__global const float* in, __constant float* filter, __global float* out, uint width, uint height) {
  const int x = (int)get_global_id(0), y = (int)get_global_id(1);
  if (x >= (int)width || y >= (int)height) return;
  float acc = 0.0f;
  for (int dy = -CONV_RADIUS; dy <= CONV_RADIUS; ++dy) {
    const int sy = y + dy;
    if (sy < 0 || sy >= (int)height) continue;
    for (int dx = -CONV_RADIUS; dx <= CONV_RADIUS; ++dx) {
      const int sx = x + dx;
      if (sx < 0 || sx >= (int)width) continue;
      acc += filter[(dy + CONV_RADIUS) * CONV_SIZE + dx + CONV_RADIUS] * in[TESSERA_AT(sy, sx, (int)width)];
    }
  }
  out[TESSERA_AT(y, x, (int)width)] = acc;
}
