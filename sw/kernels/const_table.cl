// A program-scope __constant table and a function the kernel calls.
//
// The table lives in the code object's read-only data: the kernel finds it
// with s_getpc_b64 plus a link-time offset, so it only reads right when the
// loader has placed that segment in device memory next to the code. weigh()
// is kept out of line, so the kernel reaches it with s_swappc_b64 and returns
// with s_setpc_b64.
__constant float kWeights[16] = {1.0f,   -2.5f, 0.125f, 3.0f,   -0.75f, 8.0f,  0.0f,    -1.0f,
                                 0.3125f, 16.0f, -4.0f,  0.5f,   2.25f,  -0.0625f, 7.0f, -32.0f};

__attribute__((noinline)) float weigh(uint key, float x) { return kWeights[key & 15] * x; }

__kernel void const_table(__global const uint* keys, __global const float* x, __global float* out, uint n) {
  const size_t i = get_global_id(0);
  if (i < n) out[i] = weigh(keys[i], x[i]);
}
