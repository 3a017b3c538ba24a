/* Helpers shared by the Tessera kernels. Kernels are plain OpenCL C 1.2: the
 * same source builds for gfx90a (clang + libclc) and for PoCL, the CPU oracle.
 * Code that only the GPU can run (matrix-core builtins) is selected with
 * TESSERA_GPU; the other branch is a plain OpenCL C twin with the same result. */
#ifndef TESSERA_DEVICE_H
#define TESSERA_DEVICE_H

#if defined(__AMDGCN__)
#define TESSERA_GPU 1
#else
#define TESSERA_GPU 0
#endif

/* Host programs round the global size up to a multiple of the workgroup size;
 * work-items past the end of the data return at once. */
#define TESSERA_GUARD_1D(i, n) \
  const uint i = (uint)get_global_id(0); \
  if (i >= (n)) return

/* Row-major index into a matrix with `cols` columns. */
#define TESSERA_AT(row, col, cols) ((row) * (cols) + (col))

/* Workgroup-wide sum of one float per work-item in `scratch` (one slot per
 * work-item, size a power of two); the total ends up in scratch[0]. */
inline void tessera_lds_sum(__local float* scratch, uint lid, uint size) {
  for (uint stride = size / 2; stride > 0; stride >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < stride) scratch[lid] += scratch[lid + stride];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}

#endif
