// BDI decompression assist warp (docs/CABA.md, "Assist warps"): rebuilds a
// line from its stored image (models/mem/bdi.h has the format), one line
// dword per lane, with a path per encoding.
//
// Live in:  v0   the image, dword l in lane l (zero past its end)
//           s1   the line's size in bytes (a multiple of 8)
//           EXEC the lanes of the line's dwords and of the image's dwords
// Live out: v2   line dword i in lane i
// Clobbers v1, v3-v10, s0, s2-s8, vcc.
//
// Every lane gathers the image bytes it needs with ds_bpermute_b32 (the LDS
// crossbar, no LDS memory): GATHER leaves in \dst the four image bytes that
// start at the byte offset in \off.
.macro GATHER dst, off, t1, t2
  v_and_b32 \t1, -4, \off
  ds_bpermute_b32 \dst, \t1, v0
  v_add_u32 \t1, 4, \t1
  ds_bpermute_b32 \t2, \t1, v0
  v_and_b32 \t1, 3, \off
  s_waitcnt lgkmcnt(0)
  v_alignbyte_b32 \dst, \t2, \dst, \t1
.endm

// \dst = the explicit-base bit of value \j (VGPR): bit j of the base mask,
// which starts at image byte 1, as 0 or 1. Clobbers v4.
.macro MASKBIT dst, j, t1, t2
  v_lshrrev_b32 v4, 5, \j
  v_lshl_add_u32 v4, v4, 2, 1
  GATHER \dst, v4, \t1, \t2
  v_bfe_u32 \dst, \dst, \j, 1
.endm

  .text
  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
  .globl bdi_decompress
  .p2align 8
  .type bdi_decompress,@function
bdi_decompress:
  v_readfirstlane_b32 s0, v0
  s_and_b32 s0, s0, 0xff                // the encoding byte
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_hi_u32_b32 v1, -1, v1         // v1 = lane = line dword i
  s_cmp_eq_u32 s0, 0
  s_cbranch_scc1 .Lzeros
  s_cmp_eq_u32 s0, 1
  s_cbranch_scc1 .Lrepeated
  s_cmp_le_u32 s0, 4
  s_cbranch_scc1 .Lbase8                // 2..4: base8-delta1/2/4
  s_cmp_le_u32 s0, 6
  s_cbranch_scc1 .Lbase4                // 5..6: base4-delta1/2
  s_branch .Lbase2                      // 7: base2-delta1

.Lzeros:
  v_mov_b32 v2, 0
  s_endpgm

.Lrepeated:                             // the 8-byte value at image byte 1
  v_and_b32 v3, 1, v1
  v_lshl_add_u32 v4, v3, 2, 1
  GATHER v2, v4, v5, v6
  s_endpgm

.Lbase8:                                // value j = i / 2, half i % 2
  s_sub_u32 s2, s0, 2
  s_lshl_b32 s3, 1, s2                  // d: delta bytes
  s_lshr_b32 s4, s1, 3                  // n = L / 8 values
  s_add_u32 s5, s4, 7
  s_lshr_b32 s5, s5, 3                  // base mask bytes
  s_add_u32 s6, s5, 1                   // the base's offset
  s_add_u32 s7, s6, 8                   // the first delta's offset
  s_lshl_b32 s8, s3, 3
  s_sub_u32 s8, 32, s8                  // 32 - 8d: the sign-extending shift
  v_lshrrev_b32 v3, 1, v1               // j
  v_mov_b32 v4, s7
  v_mad_u32_u24 v4, v3, s3, v4          // the delta's offset: first + j * d
  GATHER v5, v4, v9, v10
  v_lshlrev_b32 v5, s8, v5
  v_ashrrev_i32 v5, s8, v5              // delta, low dword
  v_ashrrev_i32 v6, 31, v5              // delta, high dword
  v_mov_b32 v4, s6
  GATHER v7, v4, v9, v10                // base, low dword
  v_mov_b32 v4, s6
  v_add_u32 v4, 4, v4
  GATHER v8, v4, v9, v10                // base, high dword
  MASKBIT v9, v3, v10, v6
  v_ashrrev_i32 v6, 31, v5              // (MASKBIT used v6 as scratch)
  v_cmp_ne_u32 vcc, 0, v9
  v_cndmask_b32 v7, 0, v7, vcc          // the zero base unless the bit is set
  v_cndmask_b32 v8, 0, v8, vcc
  v_add_co_u32 v5, vcc, v5, v7
  v_addc_co_u32 v6, vcc, v6, v8, vcc
  v_and_b32 v3, 1, v1
  v_cmp_ne_u32 vcc, 0, v3
  v_cndmask_b32 v2, v5, v6, vcc         // the half this lane's dword is
  s_endpgm

.Lbase4:                                // value j = i
  s_sub_u32 s2, s0, 5
  s_lshl_b32 s3, 1, s2                  // d
  s_lshr_b32 s4, s1, 2                  // n = L / 4
  s_add_u32 s5, s4, 7
  s_lshr_b32 s5, s5, 3
  s_add_u32 s6, s5, 1                   // the base's offset
  s_add_u32 s7, s6, 4                   // the first delta's offset
  s_lshl_b32 s8, s3, 3
  s_sub_u32 s8, 32, s8
  v_mov_b32 v4, s7
  v_mad_u32_u24 v4, v1, s3, v4
  GATHER v5, v4, v9, v10
  v_lshlrev_b32 v5, s8, v5
  v_ashrrev_i32 v5, s8, v5              // delta
  v_mov_b32 v4, s6
  GATHER v7, v4, v9, v10                // base
  MASKBIT v9, v1, v10, v6
  v_cmp_ne_u32 vcc, 0, v9
  v_cndmask_b32 v7, 0, v7, vcc
  v_add_u32 v2, v5, v7
  s_endpgm

.Lbase2:                                // values j = 2i and 2i + 1, one delta byte each
  s_lshr_b32 s4, s1, 1                  // n = L / 2
  s_add_u32 s5, s4, 7
  s_lshr_b32 s5, s5, 3
  s_add_u32 s6, s5, 1                   // the base's offset
  s_add_u32 s7, s6, 2                   // the first delta's offset
  v_lshlrev_b32 v3, 1, v1               // j = 2i
  v_add_u32 v4, s7, v3
  GATHER v5, v4, v9, v10                // delta 2i in byte 0, 2i + 1 in byte 1
  v_bfe_i32 v6, v5, 0, 8
  v_bfe_i32 v7, v5, 8, 8
  v_mov_b32 v4, s6
  GATHER v8, v4, v9, v10                // base in the low half
  MASKBIT v9, v3, v10, v5
  v_cmp_ne_u32 vcc, 0, v9
  v_cndmask_b32 v10, 0, v8, vcc
  v_add_u32 v6, v6, v10
  v_add_u32 v3, 1, v3                   // j = 2i + 1: the same mask dword
  MASKBIT v9, v3, v10, v5
  v_cmp_ne_u32 vcc, 0, v9
  v_cndmask_b32 v10, 0, v8, vcc
  v_add_u32 v7, v7, v10
  v_and_b32 v6, 0xffff, v6
  v_lshl_or_b32 v2, v7, 16, v6
  s_endpgm
.Lbdi_decompress_end:
  .size bdi_decompress, .Lbdi_decompress_end-bdi_decompress

  .rodata
  .p2align 6
  .amdhsa_kernel bdi_decompress
    .amdhsa_next_free_vgpr 11
    .amdhsa_next_free_sgpr 9
    .amdhsa_accum_offset 12
    .amdhsa_user_sgpr_count 0
    .amdhsa_system_sgpr_workgroup_id_x 0
  .end_amdhsa_kernel
