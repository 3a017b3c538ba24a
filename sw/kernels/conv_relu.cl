/* A ResNet-like 3x3 convolution layer with ReLU: out[o][y][x] =
 * relu(sum over input channels c and taps (dy, dx) of w[o][c][dy][dx] *
 * in[c][y+dy-1][x+dx-1]), zero padding of one pixel, stride 1. Channels are
 * planes of height x width floats. One work-item per output element; the
 * input activations are themselves a ReLU's output, so many are zero. */
#include "tessera_device.h"

__kernel void conv_relu(__global const float* in, __global const float* w, __global float* out, uint channels_in,
                        uint channels_out, uint height, uint width) {
  TESSERA_GUARD_1D(i, channels_out * height * width);
  const uint x = i % width, y = (i / width) % height, o = i / (width * height);
  float acc = 0.0f;
  for (uint c = 0; c < channels_in; ++c)
    for (uint dy = 0; dy < 3; ++dy)
      for (uint dx = 0; dx < 3; ++dx) {
        const int yy = (int)(y + dy) - 1, xx = (int)(x + dx) - 1;
        if (yy < 0 || xx < 0 || yy >= (int)height || xx >= (int)width) continue;
        acc += w[((o * channels_in + c) * 3 + dy) * 3 + dx] * in[(c * height + (uint)yy) * width + (uint)xx];
      }
  out[i] = acc > 0.0f ? acc : 0.0f;
}
