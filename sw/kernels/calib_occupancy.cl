/* Calibration: occupancy. Each workgroup holds `lds_bytes` of LDS (a static
 * 16 KiB array, so the compiler reports it in the kernel descriptor) while
 * its waves sleep, then checks its LDS and writes one word per work-item.
 * How many workgroups a compute unit holds at once follows from the kernel's
 * resources (LDS, VGPRs, SGPRs, waves) and the CU's. */
#include "tessera_device.h"

#define OCC_LDS_WORDS 4096 /* 16 KiB */

/* Workgroups of up to 1024 work-items (the compiler assumes 256 otherwise). */
#if TESSERA_GPU
#define OCC_WORKGROUP_LIMIT __attribute__((amdgpu_flat_work_group_size(1, 1024)))
#else
#define OCC_WORKGROUP_LIMIT
#endif

__kernel OCC_WORKGROUP_LIMIT void calib_occupancy(__global uint* out, uint sleeps) {
  __local uint tile[OCC_LDS_WORDS];
  const uint lid = (uint)get_local_id(0);
  for (uint i = lid; i < OCC_LDS_WORDS; i += (uint)get_local_size(0)) tile[i] = i;
  barrier(CLK_LOCAL_MEM_FENCE);
#if TESSERA_GPU
  for (uint i = 0; i < sleeps; ++i) __builtin_amdgcn_s_sleep(8);
#endif
  out[get_global_id(0)] = tile[(lid * 7u) % OCC_LDS_WORDS] + (uint)get_group_id(0);
}
