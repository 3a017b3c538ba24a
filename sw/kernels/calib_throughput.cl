/* Calibration: issue throughput of one kind of instruction. Each kernel runs
 * `iters` loop steps of independent instructions of its kind, so that what
 * limits it is the rate at which the compute unit issues and executes them,
 * not a dependency or the loop's own instructions (the loops are unrolled
 * four times, which also takes away three of four taken branches and their
 * instruction refetch): a host program measures instructions of the kind
 * over the cycles of two launches that differ only in `iters`.
 *
 *   calib_valu  8 independent f32 fma chains per work-item (VALU)
 *   calib_salu  4 independent uniform integer chains (SALU); with one wave,
 *               the one-wave issue rate
 *   calib_mfma  one v_mfma_f32_32x32x2f32 chain per wave (matrix core)
 *   calib_lds   8 independent LDS read chains per work-item, conflict-free
 *               (each wave reads 64 consecutive words) */
#include "tessera_device.h"

/* Workgroups of up to 1024 work-items, so that one workgroup can hold
 * several waves per SIMD of one CU (the compiler assumes 256 otherwise). */
#if TESSERA_GPU
#define CALIB_WORKGROUP_LIMIT __attribute__((amdgpu_flat_work_group_size(1, 1024)))
#else
#define CALIB_WORKGROUP_LIMIT
#endif

__kernel CALIB_WORKGROUP_LIMIT void calib_valu(__global float* out, float a, float b, uint iters) {
  const uint g = (uint)get_global_id(0);
  float x0 = (float)g, x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
  float x4 = x0 + 4.0f, x5 = x0 + 5.0f, x6 = x0 + 6.0f, x7 = x0 + 7.0f;
#pragma unroll 4
  for (uint i = 0; i < iters; ++i) {
    x0 = fma(x0, a, b);
    x1 = fma(x1, a, b);
    x2 = fma(x2, a, b);
    x3 = fma(x3, a, b);
    x4 = fma(x4, a, b);
    x5 = fma(x5, a, b);
    x6 = fma(x6, a, b);
    x7 = fma(x7, a, b);
  }
  out[g] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

__kernel CALIB_WORKGROUP_LIMIT void calib_salu(__global uint* out, uint seed, uint iters) {
  uint x0 = seed, x1 = seed ^ 0x9e3779b9u, x2 = seed + 12345u, x3 = seed * 7u;
#pragma unroll 1
  for (uint i = 0; i < iters; ++i) {
    x0 = x0 * 1664525u + 1013904223u;
    x1 = (x1 ^ (x1 << 13)) + 0x6d2b79f5u;
    x2 = x2 * 22695477u + 1u;
    x3 = (x3 ^ (x3 >> 7)) + 0x7f4a7c15u;
  }
  out[get_global_id(0)] = x0 ^ x1 ^ x2 ^ x3;
}

/* Every lane holds a = in[0] and b = in[1], so each step adds 2 a b (K = 2)
 * to each of a lane's 16 accumulators; the CPU twin adds the same. */
__kernel CALIB_WORKGROUP_LIMIT void calib_mfma(__global const float* in, __global float* out, uint iters) {
  const uint g = (uint)get_global_id(0);
  const float a = in[0], b = in[1];
#if TESSERA_GPU
  float16 acc = (float16)(0.0f);
#pragma unroll 1
  for (uint i = 0; i < iters; ++i) acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, acc, 0, 0, 0);
  vstore16(acc, g, out);
#else
  float acc = 0.0f;
  for (uint i = 0; i < iters; ++i) acc = acc + a * b + a * b;
  for (uint r = 0; r < 16; ++r) out[16u * g + r] = acc;
#endif
}

#define CALIB_LDS_WORDS 4096 /* 16 KiB */


/* tile[j] holds the byte offset of word j + 64 (mod the tile): a lane
 * starting at word j reads j, j + 64, ... and a wave's 64 lanes read 64
 * consecutive words, one bank each per half. The chains carry byte offsets,
 * so that each step is one ds_read_b32 and no VALU address arithmetic: a
 * wave issues at most one instruction per issue turn, and a DS read every
 * turn lets a few waves keep the LDS busy. */
__kernel CALIB_WORKGROUP_LIMIT void calib_lds(__global uint* out, uint iters) {
  __local uint tile[CALIB_LDS_WORDS];
  __local const uchar* bytes = (__local const uchar*)tile;
  const uint lid = (uint)get_local_id(0);
  for (uint j = lid; j < CALIB_LDS_WORDS; j += (uint)get_local_size(0)) tile[j] = ((j + 64u) % CALIB_LDS_WORDS) * 4u;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint a = (lid % CALIB_LDS_WORDS) * 4u, b = ((lid + 512u) % CALIB_LDS_WORDS) * 4u;
  uint c = ((lid + 1024u) % CALIB_LDS_WORDS) * 4u, d = ((lid + 1536u) % CALIB_LDS_WORDS) * 4u;
  uint e = ((lid + 2048u) % CALIB_LDS_WORDS) * 4u, f = ((lid + 2560u) % CALIB_LDS_WORDS) * 4u;
  uint g = ((lid + 3072u) % CALIB_LDS_WORDS) * 4u, h = ((lid + 3584u) % CALIB_LDS_WORDS) * 4u;
#pragma unroll 4
  for (uint i = 0; i < iters; ++i) {
    a = *(__local const uint*)(bytes + a);
    b = *(__local const uint*)(bytes + b);
    c = *(__local const uint*)(bytes + c);
    d = *(__local const uint*)(bytes + d);
    e = *(__local const uint*)(bytes + e);
    f = *(__local const uint*)(bytes + f);
    g = *(__local const uint*)(bytes + g);
    h = *(__local const uint*)(bytes + h);
  }
  out[get_global_id(0)] = (a + b + c + d + e + f + g + h) / 4u;
}
