// A private array indexed by values that are the same for every work-item:
// clang keeps the array in VGPRs and reaches the element with
// s_set_gpr_idx_on / s_set_gpr_idx_off (M0-indexed register access).
__kernel void private_index(__global const float* in, __global float* out, uint n, int write_at, int read_at) {
  const size_t i = get_global_id(0);
  if (i >= n) return;
  float a[16];
  for (int e = 0; e < 16; ++e) a[e] = in[i * 16 + e];
  a[write_at & 15] = -a[(write_at + 5) & 15];
  out[i] = a[read_at & 15] - a[(read_at + 1) & 15];
}
