// libclc's log(), exp() and pow(): their implementations read tables and
// constants from the code object's read-only data.
__kernel void libm(__global const float* x, __global const float* y, __global float* out_log,
                   __global float* out_exp, __global float* out_pow, uint n) {
  const size_t i = get_global_id(0);
  if (i >= n) return;
  out_log[i] = log(x[i]);
  out_exp[i] = exp(y[i]);
  out_pow[i] = pow(x[i], y[i]);
}
