// Operand spellings: special registers, inline constants of every type width,
// literals (incl. the f64 rule that a literal is the high dword), AGPRs.
s_mov_b32 s0, vcc_lo
s_mov_b32 s0, vcc_hi
s_mov_b64 s[0:1], vcc
s_mov_b64 exec, s[2:3]
s_mov_b32 exec_lo, s2
s_mov_b32 exec_hi, s2
s_mov_b32 m0, s1
s_mov_b32 s1, m0
s_mov_b64 s[0:1], flat_scratch
s_mov_b32 flat_scratch_lo, s3
s_mov_b32 flat_scratch_hi, s3
s_mov_b64 s[0:1], xnack_mask
s_mov_b32 s0, ttmp3
s_mov_b64 ttmp[4:5], s[0:1]
s_mov_b32 s101, s100
s_mov_b32 s0, 0
s_mov_b32 s0, 64
s_mov_b32 s0, -1
s_mov_b32 s0, -16
s_mov_b32 s0, 65
s_mov_b32 s0, -17
s_mov_b32 s0, 0.5
s_mov_b32 s0, -0.5
s_mov_b32 s0, 1.0
s_mov_b32 s0, -1.0
s_mov_b32 s0, 2.0
s_mov_b32 s0, -2.0
s_mov_b32 s0, 4.0
s_mov_b32 s0, -4.0
s_mov_b32 s0, 0.15915494
s_mov_b32 s0, 0x3f800001
s_mov_b32 s0, 0xffffffff
s_mov_b32 s0, 0x80000000
s_mov_b32 s0, src_vccz
s_mov_b32 s0, src_execz
s_mov_b32 s0, src_scc
s_mov_b32 s0, src_shared_base
s_mov_b32 s0, src_shared_limit
s_mov_b32 s0, src_private_base
s_mov_b32 s0, src_private_limit
s_mov_b32 s0, src_pops_exiting_wave_id
s_mov_b64 s[0:1], 0.5
s_mov_b64 s[0:1], -4.0
s_mov_b64 s[0:1], -7
s_mov_b64 s[0:1], 0x12345678
s_add_u32 s0, s1, 0x12345
s_add_u32 s0, 0x12345, s1
s_and_b32 s0, 0xffff, s1
s_cselect_b64 s[0:1], -1, 0
s_lshl_b64 s[2:3], s[4:5], 3
v_mov_b32_e32 v0, 0.5
v_mov_b32_e32 v0, -1.0
v_mov_b32_e32 v0, 0x42280000
v_mov_b32_e32 v0, 0.15915494
v_mov_b32_e32 v255, v0
v_mov_b32_e32 v0, s101
v_mov_b32_e32 v0, vcc_lo
v_mov_b32_e32 v0, exec_hi
v_mov_b32_e32 v0, m0
v_mov_b32_e32 v0, src_shared_base
v_add_f32_e32 v0, 0x3f000001, v1
v_add_f32_e32 v0, -4.0, v1
v_add_u32_e32 v0, 64, v1
v_add_u32_e32 v0, -16, v1
v_add_u32_e32 v0, 0.5, v1
v_add_f16_e32 v0, 0.5, v1
v_add_f16_e32 v0, -2.0, v1
v_add_f16_e32 v0, 0.15915494, v1
v_add_f16_e32 v0, 0x3c01, v1
v_add_f16_e32 v0, 7, v1
v_add_u16_e32 v0, 0.5, v1
v_add_u16_e32 v0, 0x1234, v1
v_add_u16_e32 v0, -3, v1
v_add_f64 v[0:1], 0.5, v[2:3]
v_add_f64 v[0:1], -1.0, v[2:3]
v_add_f64 v[0:1], 0.15915494309189532, v[2:3]
v_add_f64 v[0:1], s[4:5], 5
v_add_f64 v[0:1], -|v[4:5]|, 2.0
v_cvt_f64_f32_e32 v[0:1], 0.5
v_cvt_f32_f64_e32 v0, 0.5
v_cvt_f32_f64_e32 v0, 0x40080000
v_cvt_f32_f64_e32 v0, 1
v_fract_f64_e32 v[0:1], 0x3ff80000
v_rcp_f64_e32 v[0:1], s[2:3]
v_ldexp_f64 v[0:1], v[2:3], 3
v_lshlrev_b64 v[0:1], 3, 1
v_lshlrev_b64 v[0:1], 3, -1
v_cmp_eq_u64_e32 vcc, 0x1234, v[0:1]
v_cmp_eq_f64_e32 vcc, 0x40080000, v[0:1]
v_cmp_lt_f32_e64 s[2:3], 0.5, v1
v_cmp_class_f32_e64 s[2:3], v1, 3
v_cmp_class_f64_e64 vcc, v[2:3], s9
v_cmp_class_f16_e32 vcc, v1, v2
v_cndmask_b32_e64 v0, 0, 1.0, s[4:5]
v_cndmask_b32_e64 v0, -1, v1, vcc
v_cndmask_b32_e32 v0, 0x11, v1, vcc
v_mad_u64_u32 v[0:1], vcc, v2, v3, 0
v_mad_u64_u32 v[0:1], s[4:5], s2, 7, v[4:5]
v_fma_f32 v0, v1, 0.5, s2
v_fma_f64 v[0:1], v[2:3], 1.0, 0.5
v_fma_f16 v0, v1, 0.5, -1.0
v_div_scale_f64 v[0:1], vcc, s[2:3], v[4:5], s[2:3]
v_bfe_u32 v0, v1, 8, 8
v_perm_b32 v0, v1, v2, s3
v_readlane_b32 s0, v1, 63
v_readlane_b32 s0, v1, m0
v_writelane_b32 v0, 0.5, 2
v_readfirstlane_b32 s0, v1
v_readfirstlane_b32 vcc_lo, v1
v_accvgpr_write_b32 a0, 1.0
v_accvgpr_write_b32 a255, v0
v_accvgpr_read_b32 v3, a7
v_accvgpr_mov_b32 a1, a2
v_pk_add_f16 v0, 0.5, v1
v_pk_add_f16 v0, 1, v1
v_pk_add_u16 v0, -1, v1
v_pk_fma_f32 v[0:1], v[2:3], 1.0, v[4:5]
v_pk_mul_f32 v[0:1], s[2:3], v[4:5]
v_pk_mov_b32 v[0:1], v[2:3], s[4:5] op_sel:[1,0]
v_dot2_f32_f16 v0, v1, v2, 1.0
v_dot4_i32_i8 v0, v1, v2, -5
v_mfma_f32_4x4x1f32 a[0:3], v0, v1, 0
v_mfma_f32_4x4x1f32 a[0:3], v0, v1, 1.0
v_mfma_f32_16x16x4f32 a[0:3], a1, a2, a[4:7]
v_mfma_f64_4x4x4f64 a[0:1], v[2:3], v[4:5], 0
v_mfma_f64_16x16x4f64 v[0:7], v[8:9], v[10:11], v[0:7]
