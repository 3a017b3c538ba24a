/* One time step t of an RNN-like chain, h_{t+1} = relu(W h_t + x_t), with
 * h_t = h[t * n .. t * n + n). Every step reads the same weight matrix, stored
 * transposed (wt[j * n + i] = W[i][j]) so that the lanes of a wave read
 * consecutive words. One work-item per output element. */
#include "tessera_device.h"

__kernel void rnn_step(__global const float* wt, __global const float* x, __global float* h, uint n, uint t) {
  TESSERA_GUARD_1D(i, n);
  __global const float* h_in = h + t * n;
  float acc = 0.0f;
  for (uint j = 0; j < n; ++j) acc += wt[TESSERA_AT(j, i, n)] * h_in[j];
  acc += x[TESSERA_AT(t, i, n)];
  h[TESSERA_AT(t + 1, i, n)] = acc > 0.0f ? acc : 0.0f;
}
