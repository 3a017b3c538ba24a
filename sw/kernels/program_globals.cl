// OpenCL C 2.0 program-scope data: a global variable with an initialiser (the
// code object's writable data segment) and a __constant table of pointers to
// other __constant arrays (R_AMDGPU_RELATIVE64 relocations the loader applies).
__global int counter = 42;
__constant float kLow[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__constant float kHigh[4] = {100.0f, 200.0f, 300.0f, 400.0f};
__constant float* __constant kTables[2] = {kLow, kHigh};

__kernel void program_globals(__global float* out, __global int* seen, int table) {
  const size_t i = get_global_id(0);
  out[i] = kTables[table & 1][i & 3];
  if (i == 0) {
    seen[0] = counter;
    counter = counter + 1;
  }
}
