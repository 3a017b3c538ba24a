/* Y = W X for a batch of tokens (the prefill of a pruned LLM layer): W
 * (outs x ins, row-major) has a fraction of its weights pruned to zero, X is
 * the tokens' activations stored feature-major (ins x tokens), and Y is
 * stored the same way (outs x tokens). Work-item (t, o) computes Y[o][t], one
 * FMA per weight, zero or not: a workgroup is 64 tokens of one output
 * feature, so W[o][i] is the same for the whole wave (clang reads it with a
 * scalar load) and X[i][t0 .. t0 + 63] is one coalesced 256 B vector load.
 * The weight is the FMA's first factor: a lazy unit that finds it is zero
 * need not fetch the wave's 64 activations it multiplies. */
#include "tessera_device.h"

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void pruned_gemm(__global const float* w, __global const float* xt, __global float* yt, uint tokens, uint ins) {
  const uint t = (uint)get_global_id(0), o = (uint)get_group_id(1);
  if (t >= tokens) return;
  __global const float* wo = w + TESSERA_AT(o, 0, ins);
  float acc = 0.0f;
  for (uint i = 0; i < ins; ++i) acc = fma(wo[i], xt[TESSERA_AT(i, t, tokens)], acc);
  yt[TESSERA_AT(o, t, tokens)] = acc;
}
