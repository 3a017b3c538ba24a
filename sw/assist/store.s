// The Assist Warp Store's table of contents: the metadata that makes the
// routines of sw/assist/*.s one gfx90a code object, each routine a kernel
// entry (an assist warp starts at it with its live-in registers set by the
// compute unit; the kernel descriptor is not used to launch it).
  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  .amdgpu_metadata
---
amdhsa.kernels:
  - .name:           bdi_decompress_zeros
    .symbol:         bdi_decompress_zeros.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_repeated
    .symbol:         bdi_decompress_repeated.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b8d1
    .symbol:         bdi_decompress_b8d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b8d2
    .symbol:         bdi_decompress_b8d2.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b8d4
    .symbol:         bdi_decompress_b8d4.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b4d1
    .symbol:         bdi_decompress_b4d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b4d2
    .symbol:         bdi_decompress_b4d2.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_decompress_b2d1
    .symbol:         bdi_decompress_b2d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     8
    .vgpr_count:     5
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress
    .symbol:         bdi_compress.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_zeros
    .symbol:         bdi_compress_zeros.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_repeated
    .symbol:         bdi_compress_repeated.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b8d1
    .symbol:         bdi_compress_b8d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b8d2
    .symbol:         bdi_compress_b8d2.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b8d4
    .symbol:         bdi_compress_b8d4.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b4d1
    .symbol:         bdi_compress_b4d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b4d2
    .symbol:         bdi_compress_b4d2.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
  - .name:           bdi_compress_b2d1
    .symbol:         bdi_compress_b2d1.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 4
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .sgpr_count:     30
    .vgpr_count:     8
    .max_flat_workgroup_size: 64
    .wavefront_size: 64
    .sgpr_spill_count: 0
    .vgpr_spill_count: 0
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 1
...
  .end_amdgpu_metadata
