/* The 3x3 convolution layer of conv_relu.cl (zero padding of one pixel,
 * stride 1, ReLU) computed as a DNN library without a direct-convolution
 * kernel computes it: im2col, then one GEMM.
 *
 * conv_im2col unrolls the input into cols, a (channels * 9) x (height *
 * width) matrix: row (c, dy, dx), column p = y * width + x holds
 * in[c][y+dy-1][x+dx-1], or 0 where that lies in the padding.
 *
 * conv_gemm_relu multiplies the filters, a channels_out x rows matrix, by
 * cols: out[k][p] = relu(sum over r of w[k][r] * cols[r][p]). One work-item
 * per output, the naive GEMM: work-item (p, k) with p = get_global_id(0) and
 * k = get_global_id(1), so the host's workgroup shape decides how many
 * filters' weights a wave reads at each step (16 x 16 workgroups: 4 filters
 * of 16 pixels per wave; 64 x 4: 64 pixels of one filter). */
#include "tessera_device.h"

__kernel void conv_im2col(__global const float* in, __global float* cols, uint channels, uint height, uint width) {
  const uint plane = height * width;
  TESSERA_GUARD_1D(i, channels * 9 * plane);
  const uint p = i % plane, row = i / plane;
  const uint c = row / 9, dy = (row % 9) / 3, dx = row % 3;
  const int yy = (int)(p / width + dy) - 1, xx = (int)(p % width + dx) - 1;
  const bool inside = yy >= 0 && xx >= 0 && yy < (int)height && xx < (int)width;
  cols[i] = inside ? in[(c * height + (uint)yy) * width + (uint)xx] : 0.0f;
}

__kernel void conv_gemm_relu(__global const float* w, __global const float* cols, __global float* out, uint rows,
                             uint pixels, uint channels_out) {
  const uint p = (uint)get_global_id(0), k = (uint)get_global_id(1);
  if (p >= pixels || k >= channels_out) return;
  float acc = 0.0f;
  for (uint r = 0; r < rows; ++r) acc += w[TESSERA_AT(k, r, rows)] * cols[TESSERA_AT(r, p, pixels)];
  out[TESSERA_AT(k, p, pixels)] = acc > 0.0f ? acc : 0.0f;
}

/* conv_gemm_relu unrolled by 8 as a library GEMM is: each step reads 8
 * weights and 8 rows of cols, all its loads ahead of the first FMA, so the
 * loop's branch, counters and instruction fetches are paid once per 8 rows.
 * `rows` must be a multiple of 8 (channels x 9 with channels a multiple of 8). */
#define CONV_GEMM_STEP 8

__kernel void conv_gemm_relu_unrolled(__global const float* w, __global const float* cols, __global float* out,
                                      uint rows, uint pixels, uint channels_out) {
  const uint p = (uint)get_global_id(0), k = (uint)get_global_id(1);
  if (p >= pixels || k >= channels_out) return;
  __global const float* wk = w + TESSERA_AT(k, 0, rows);
  float acc = 0.0f;
  for (uint r = 0; r < rows; r += CONV_GEMM_STEP) {
    float wv[CONV_GEMM_STEP], cv[CONV_GEMM_STEP];
    for (uint j = 0; j < CONV_GEMM_STEP; ++j) {
      wv[j] = wk[r + j];
      cv[j] = cols[TESSERA_AT(r + j, p, pixels)];
    }
    for (uint j = 0; j < CONV_GEMM_STEP; ++j) acc = fma(wv[j], cv[j], acc);
  }
  out[TESSERA_AT(k, p, pixels)] = acc > 0.0f ? acc : 0.0f;
}
