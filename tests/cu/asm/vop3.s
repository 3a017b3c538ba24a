// Every VOP3 opcode: VOP1/VOP2/VOPC promoted to e64 and the VOP3-only instructions.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
v_cmp_class_f32_e64 s[10:11], v20, v30
v_cmpx_class_f32_e64 s[10:11], v20, v30
v_cmp_class_f64_e64 s[10:11], v[20:21], v30
v_cmpx_class_f64_e64 s[10:11], v[20:21], v30
v_cmp_class_f16_e64 s[10:11], v20, v30
v_cmpx_class_f16_e64 s[10:11], v20, v30
v_cmp_f_f16_e64 s[10:11], v20, v30
v_cmp_lt_f16_e64 s[10:11], v20, v30
v_cmp_eq_f16_e64 s[10:11], v20, v30
v_cmp_le_f16_e64 s[10:11], v20, v30
v_cmp_gt_f16_e64 s[10:11], v20, v30
v_cmp_lg_f16_e64 s[10:11], v20, v30
v_cmp_ge_f16_e64 s[10:11], v20, v30
v_cmp_o_f16_e64 s[10:11], v20, v30
v_cmp_u_f16_e64 s[10:11], v20, v30
v_cmp_nge_f16_e64 s[10:11], v20, v30
v_cmp_nlg_f16_e64 s[10:11], v20, v30
v_cmp_ngt_f16_e64 s[10:11], v20, v30
v_cmp_nle_f16_e64 s[10:11], v20, v30
v_cmp_neq_f16_e64 s[10:11], v20, v30
v_cmp_nlt_f16_e64 s[10:11], v20, v30
v_cmp_tru_f16_e64 s[10:11], v20, v30
v_cmpx_f_f16_e64 s[10:11], v20, v30
v_cmpx_lt_f16_e64 s[10:11], v20, v30
v_cmpx_eq_f16_e64 s[10:11], v20, v30
v_cmpx_le_f16_e64 s[10:11], v20, v30
v_cmpx_gt_f16_e64 s[10:11], v20, v30
v_cmpx_lg_f16_e64 s[10:11], v20, v30
v_cmpx_ge_f16_e64 s[10:11], v20, v30
v_cmpx_o_f16_e64 s[10:11], v20, v30
v_cmpx_u_f16_e64 s[10:11], v20, v30
v_cmpx_nge_f16_e64 s[10:11], v20, v30
v_cmpx_nlg_f16_e64 s[10:11], v20, v30
v_cmpx_ngt_f16_e64 s[10:11], v20, v30
v_cmpx_nle_f16_e64 s[10:11], v20, v30
v_cmpx_neq_f16_e64 s[10:11], v20, v30
v_cmpx_nlt_f16_e64 s[10:11], v20, v30
v_cmpx_tru_f16_e64 s[10:11], v20, v30
v_cmp_f_f32_e64 s[10:11], v20, v30
v_cmp_lt_f32_e64 s[10:11], v20, v30
v_cmp_eq_f32_e64 s[10:11], v20, v30
v_cmp_le_f32_e64 s[10:11], v20, v30
v_cmp_gt_f32_e64 s[10:11], v20, v30
v_cmp_lg_f32_e64 s[10:11], v20, v30
v_cmp_ge_f32_e64 s[10:11], v20, v30
v_cmp_o_f32_e64 s[10:11], v20, v30
v_cmp_u_f32_e64 s[10:11], v20, v30
v_cmp_nge_f32_e64 s[10:11], v20, v30
v_cmp_nlg_f32_e64 s[10:11], v20, v30
v_cmp_ngt_f32_e64 s[10:11], v20, v30
v_cmp_nle_f32_e64 s[10:11], v20, v30
v_cmp_neq_f32_e64 s[10:11], v20, v30
v_cmp_nlt_f32_e64 s[10:11], v20, v30
v_cmp_tru_f32_e64 s[10:11], v20, v30
v_cmpx_f_f32_e64 s[10:11], v20, v30
v_cmpx_lt_f32_e64 s[10:11], v20, v30
v_cmpx_eq_f32_e64 s[10:11], v20, v30
v_cmpx_le_f32_e64 s[10:11], v20, v30
v_cmpx_gt_f32_e64 s[10:11], v20, v30
v_cmpx_lg_f32_e64 s[10:11], v20, v30
v_cmpx_ge_f32_e64 s[10:11], v20, v30
v_cmpx_o_f32_e64 s[10:11], v20, v30
v_cmpx_u_f32_e64 s[10:11], v20, v30
v_cmpx_nge_f32_e64 s[10:11], v20, v30
v_cmpx_nlg_f32_e64 s[10:11], v20, v30
v_cmpx_ngt_f32_e64 s[10:11], v20, v30
v_cmpx_nle_f32_e64 s[10:11], v20, v30
v_cmpx_neq_f32_e64 s[10:11], v20, v30
v_cmpx_nlt_f32_e64 s[10:11], v20, v30
v_cmpx_tru_f32_e64 s[10:11], v20, v30
v_cmp_f_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_lt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_eq_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_le_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_gt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_lg_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ge_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_o_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_u_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_nge_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_nlg_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ngt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_nle_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_neq_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_nlt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_tru_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_f_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_lt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_eq_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_le_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_gt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_lg_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ge_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_o_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_u_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_nge_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_nlg_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ngt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_nle_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_neq_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_nlt_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_tru_f64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_f_i16_e64 s[10:11], v20, v30
v_cmp_lt_i16_e64 s[10:11], v20, v30
v_cmp_eq_i16_e64 s[10:11], v20, v30
v_cmp_le_i16_e64 s[10:11], v20, v30
v_cmp_gt_i16_e64 s[10:11], v20, v30
v_cmp_ne_i16_e64 s[10:11], v20, v30
v_cmp_ge_i16_e64 s[10:11], v20, v30
v_cmp_t_i16_e64 s[10:11], v20, v30
v_cmp_f_u16_e64 s[10:11], v20, v30
v_cmp_lt_u16_e64 s[10:11], v20, v30
v_cmp_eq_u16_e64 s[10:11], v20, v30
v_cmp_le_u16_e64 s[10:11], v20, v30
v_cmp_gt_u16_e64 s[10:11], v20, v30
v_cmp_ne_u16_e64 s[10:11], v20, v30
v_cmp_ge_u16_e64 s[10:11], v20, v30
v_cmp_t_u16_e64 s[10:11], v20, v30
v_cmpx_f_i16_e64 s[10:11], v20, v30
v_cmpx_lt_i16_e64 s[10:11], v20, v30
v_cmpx_eq_i16_e64 s[10:11], v20, v30
v_cmpx_le_i16_e64 s[10:11], v20, v30
v_cmpx_gt_i16_e64 s[10:11], v20, v30
v_cmpx_ne_i16_e64 s[10:11], v20, v30
v_cmpx_ge_i16_e64 s[10:11], v20, v30
v_cmpx_t_i16_e64 s[10:11], v20, v30
v_cmpx_f_u16_e64 s[10:11], v20, v30
v_cmpx_lt_u16_e64 s[10:11], v20, v30
v_cmpx_eq_u16_e64 s[10:11], v20, v30
v_cmpx_le_u16_e64 s[10:11], v20, v30
v_cmpx_gt_u16_e64 s[10:11], v20, v30
v_cmpx_ne_u16_e64 s[10:11], v20, v30
v_cmpx_ge_u16_e64 s[10:11], v20, v30
v_cmpx_t_u16_e64 s[10:11], v20, v30
v_cmp_f_i32_e64 s[10:11], v20, v30
v_cmp_lt_i32_e64 s[10:11], v20, v30
v_cmp_eq_i32_e64 s[10:11], v20, v30
v_cmp_le_i32_e64 s[10:11], v20, v30
v_cmp_gt_i32_e64 s[10:11], v20, v30
v_cmp_ne_i32_e64 s[10:11], v20, v30
v_cmp_ge_i32_e64 s[10:11], v20, v30
v_cmp_t_i32_e64 s[10:11], v20, v30
v_cmp_f_u32_e64 s[10:11], v20, v30
v_cmp_lt_u32_e64 s[10:11], v20, v30
v_cmp_eq_u32_e64 s[10:11], v20, v30
v_cmp_le_u32_e64 s[10:11], v20, v30
v_cmp_gt_u32_e64 s[10:11], v20, v30
v_cmp_ne_u32_e64 s[10:11], v20, v30
v_cmp_ge_u32_e64 s[10:11], v20, v30
v_cmp_t_u32_e64 s[10:11], v20, v30
v_cmpx_f_i32_e64 s[10:11], v20, v30
v_cmpx_lt_i32_e64 s[10:11], v20, v30
v_cmpx_eq_i32_e64 s[10:11], v20, v30
v_cmpx_le_i32_e64 s[10:11], v20, v30
v_cmpx_gt_i32_e64 s[10:11], v20, v30
v_cmpx_ne_i32_e64 s[10:11], v20, v30
v_cmpx_ge_i32_e64 s[10:11], v20, v30
v_cmpx_t_i32_e64 s[10:11], v20, v30
v_cmpx_f_u32_e64 s[10:11], v20, v30
v_cmpx_lt_u32_e64 s[10:11], v20, v30
v_cmpx_eq_u32_e64 s[10:11], v20, v30
v_cmpx_le_u32_e64 s[10:11], v20, v30
v_cmpx_gt_u32_e64 s[10:11], v20, v30
v_cmpx_ne_u32_e64 s[10:11], v20, v30
v_cmpx_ge_u32_e64 s[10:11], v20, v30
v_cmpx_t_u32_e64 s[10:11], v20, v30
v_cmp_f_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_lt_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_eq_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_le_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_gt_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ne_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ge_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_t_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_f_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_lt_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_eq_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_le_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_gt_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ne_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_ge_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmp_t_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_f_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_lt_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_eq_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_le_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_gt_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ne_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ge_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_t_i64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_f_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_lt_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_eq_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_le_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_gt_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ne_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_ge_u64_e64 s[10:11], v[20:21], v[30:31]
v_cmpx_t_u64_e64 s[10:11], v[20:21], v[30:31]
v_cndmask_b32_e64 v10, v20, v30, s[40:41]
v_add_f32_e64 v10, v20, v30
v_sub_f32_e64 v10, v20, v30
v_subrev_f32_e64 v10, v20, v30
v_fmac_f64_e64 v[10:11], v[20:21], v[30:31]
v_mul_f32_e64 v10, v20, v30
v_mul_i32_i24_e64 v10, v20, v30
v_mul_hi_i32_i24_e64 v10, v20, v30
v_mul_u32_u24_e64 v10, v20, v30
v_mul_hi_u32_u24_e64 v10, v20, v30
v_min_f32_e64 v10, v20, v30
v_max_f32_e64 v10, v20, v30
v_min_i32_e64 v10, v20, v30
v_max_i32_e64 v10, v20, v30
v_min_u32_e64 v10, v20, v30
v_max_u32_e64 v10, v20, v30
v_lshrrev_b32_e64 v10, v20, v30
v_ashrrev_i32_e64 v10, v20, v30
v_lshlrev_b32_e64 v10, v20, v30
v_and_b32_e64 v10, v20, v30
v_or_b32_e64 v10, v20, v30
v_xor_b32_e64 v10, v20, v30
v_mac_f32_e64 v10, v20, v30
v_add_co_u32_e64 v10, s[0:1], v20, v30
v_sub_co_u32_e64 v10, s[0:1], v20, v30
v_subrev_co_u32_e64 v10, s[0:1], v20, v30
v_addc_co_u32_e64 v10, s[0:1], v20, v30, s[40:41]
v_subb_co_u32_e64 v10, s[0:1], v20, v30, s[40:41]
v_subbrev_co_u32_e64 v10, s[0:1], v20, v30, s[40:41]
v_add_f16_e64 v10, v20, v30
v_sub_f16_e64 v10, v20, v30
v_subrev_f16_e64 v10, v20, v30
v_mul_f16_e64 v10, v20, v30
v_mac_f16_e64 v10, v20, v30
v_add_u16_e64 v10, v20, v30
v_sub_u16_e64 v10, v20, v30
v_subrev_u16_e64 v10, v20, v30
v_mul_lo_u16_e64 v10, v20, v30
v_lshlrev_b16_e64 v10, v20, v30
v_lshrrev_b16_e64 v10, v20, v30
v_ashrrev_i16_e64 v10, v20, v30
v_max_f16_e64 v10, v20, v30
v_min_f16_e64 v10, v20, v30
v_max_u16_e64 v10, v20, v30
v_max_i16_e64 v10, v20, v30
v_min_u16_e64 v10, v20, v30
v_min_i16_e64 v10, v20, v30
v_ldexp_f16_e64 v10, v20, v30
v_add_u32_e64 v10, v20, v30
v_sub_u32_e64 v10, v20, v30
v_subrev_u32_e64 v10, v20, v30
v_fmac_f32_e64 v10, v20, v30
v_xnor_b32_e64 v10, v20, v30
v_nop
v_mov_b32_e64 v10, v20
v_cvt_i32_f64_e64 v10, v[20:21]
v_cvt_f64_i32_e64 v[10:11], v20
v_cvt_f32_i32_e64 v10, v20
v_cvt_f32_u32_e64 v10, v20
v_cvt_u32_f32_e64 v10, v20
v_cvt_i32_f32_e64 v10, v20
v_cvt_f16_f32_e64 v10, v20
v_cvt_f32_f16_e64 v10, v20
v_cvt_rpi_i32_f32_e64 v10, v20
v_cvt_flr_i32_f32_e64 v10, v20
v_cvt_off_f32_i4_e64 v10, v20
v_cvt_f32_f64_e64 v10, v[20:21]
v_cvt_f64_f32_e64 v[10:11], v20
v_cvt_f32_ubyte0_e64 v10, v20
v_cvt_f32_ubyte1_e64 v10, v20
v_cvt_f32_ubyte2_e64 v10, v20
v_cvt_f32_ubyte3_e64 v10, v20
v_cvt_u32_f64_e64 v10, v[20:21]
v_cvt_f64_u32_e64 v[10:11], v20
v_trunc_f64_e64 v[10:11], v[20:21]
v_ceil_f64_e64 v[10:11], v[20:21]
v_rndne_f64_e64 v[10:11], v[20:21]
v_floor_f64_e64 v[10:11], v[20:21]
v_fract_f32_e64 v10, v20
v_trunc_f32_e64 v10, v20
v_ceil_f32_e64 v10, v20
v_rndne_f32_e64 v10, v20
v_floor_f32_e64 v10, v20
v_exp_f32_e64 v10, v20
v_log_f32_e64 v10, v20
v_rcp_f32_e64 v10, v20
v_rcp_iflag_f32_e64 v10, v20
v_rsq_f32_e64 v10, v20
v_rcp_f64_e64 v[10:11], v[20:21]
v_rsq_f64_e64 v[10:11], v[20:21]
v_sqrt_f32_e64 v10, v20
v_sqrt_f64_e64 v[10:11], v[20:21]
v_sin_f32_e64 v10, v20
v_cos_f32_e64 v10, v20
v_not_b32_e64 v10, v20
v_bfrev_b32_e64 v10, v20
v_ffbh_u32_e64 v10, v20
v_ffbl_b32_e64 v10, v20
v_ffbh_i32_e64 v10, v20
v_frexp_exp_i32_f64_e64 v10, v[20:21]
v_frexp_mant_f64_e64 v[10:11], v[20:21]
v_fract_f64_e64 v[10:11], v[20:21]
v_frexp_exp_i32_f32_e64 v10, v20
v_frexp_mant_f32_e64 v10, v20
v_clrexcp
v_screen_partition_4se_b32_e64 v10, v20
v_cvt_f16_u16_e64 v10, v20
v_cvt_f16_i16_e64 v10, v20
v_cvt_u16_f16_e64 v10, v20
v_cvt_i16_f16_e64 v10, v20
v_rcp_f16_e64 v10, v20
v_sqrt_f16_e64 v10, v20
v_rsq_f16_e64 v10, v20
v_log_f16_e64 v10, v20
v_exp_f16_e64 v10, v20
v_frexp_mant_f16_e64 v10, v20
v_frexp_exp_i16_f16_e64 v10, v20
v_floor_f16_e64 v10, v20
v_ceil_f16_e64 v10, v20
v_trunc_f16_e64 v10, v20
v_rndne_f16_e64 v10, v20
v_fract_f16_e64 v10, v20
v_sin_f16_e64 v10, v20
v_cos_f16_e64 v10, v20
v_exp_legacy_f32_e64 v10, v20
v_log_legacy_f32_e64 v10, v20
v_cvt_norm_i16_f16_e64 v10, v20
v_cvt_norm_u16_f16_e64 v10, v20
v_sat_pk_u8_i16_e64 v10, v20
v_mad_legacy_f32 v10, v20, v30, v40
v_mad_f32 v10, v20, v30, v40
v_mad_i32_i24 v10, v20, v30, v40
v_mad_u32_u24 v10, v20, v30, v40
v_cubeid_f32 v10, v20, v30, v40
v_cubesc_f32 v10, v20, v30, v40
v_cubetc_f32 v10, v20, v30, v40
v_cubema_f32 v10, v20, v30, v40
v_bfe_u32 v10, v20, v30, v40
v_bfe_i32 v10, v20, v30, v40
v_bfi_b32 v10, v20, v30, v40
v_fma_f32 v10, v20, v30, v40
v_fma_f64 v[10:11], v[20:21], v[30:31], v[40:41]
v_lerp_u8 v10, v20, v30, v40
v_alignbit_b32 v10, v20, v30, v40
v_alignbyte_b32 v10, v20, v30, v40
v_min3_f32 v10, v20, v30, v40
v_min3_i32 v10, v20, v30, v40
v_min3_u32 v10, v20, v30, v40
v_max3_f32 v10, v20, v30, v40
v_max3_i32 v10, v20, v30, v40
v_max3_u32 v10, v20, v30, v40
v_med3_f32 v10, v20, v30, v40
v_med3_i32 v10, v20, v30, v40
v_med3_u32 v10, v20, v30, v40
v_sad_u8 v10, v20, v30, v40
v_sad_hi_u8 v10, v20, v30, v40
v_sad_u16 v10, v20, v30, v40
v_sad_u32 v10, v20, v30, v40
v_cvt_pk_u8_f32 v10, v20, v30, v40
v_div_fixup_f32 v10, v20, v30, v40
v_div_fixup_f64 v[10:11], v[20:21], v[30:31], v[40:41]
v_div_scale_f32 v10, s[0:1], v20, v30, v40
v_div_scale_f64 v[10:11], s[0:1], v[20:21], v[30:31], v[40:41]
v_div_fmas_f32 v10, v20, v30, v40
v_div_fmas_f64 v[10:11], v[20:21], v[30:31], v[40:41]
v_msad_u8 v10, v20, v30, v40
v_qsad_pk_u16_u8 v[10:11], v[20:21], v30, v[40:41]
v_mqsad_pk_u16_u8 v[10:11], v[20:21], v30, v[40:41]
v_mqsad_u32_u8 v[10:13], v[20:21], v30, v[40:43]
v_mad_u64_u32 v[10:11], s[0:1], v20, v30, v[40:41]
v_mad_i64_i32 v[10:11], s[0:1], v20, v30, v[40:41]
v_mad_legacy_f16 v10, v20, v30, v40
v_mad_legacy_u16 v10, v20, v30, v40
v_mad_legacy_i16 v10, v20, v30, v40
v_perm_b32 v10, v20, v30, v40
v_fma_legacy_f16 v10, v20, v30, v40
v_div_fixup_legacy_f16 v10, v20, v30, v40
v_cvt_pkaccum_u8_f32 v10, v20, v30
v_mad_u32_u16 v10, v20, v30, v40
v_mad_i32_i16 v10, v20, v30, v40
v_xad_u32 v10, v20, v30, v40
v_min3_f16 v10, v20, v30, v40
v_min3_i16 v10, v20, v30, v40
v_min3_u16 v10, v20, v30, v40
v_max3_f16 v10, v20, v30, v40
v_max3_i16 v10, v20, v30, v40
v_max3_u16 v10, v20, v30, v40
v_med3_f16 v10, v20, v30, v40
v_med3_i16 v10, v20, v30, v40
v_med3_u16 v10, v20, v30, v40
v_lshl_add_u32 v10, v20, v30, v40
v_add_lshl_u32 v10, v20, v30, v40
v_add3_u32 v10, v20, v30, v40
v_lshl_or_b32 v10, v20, v30, v40
v_and_or_b32 v10, v20, v30, v40
v_or3_b32 v10, v20, v30, v40
v_mad_f16 v10, v20, v30, v40
v_mad_u16 v10, v20, v30, v40
v_mad_i16 v10, v20, v30, v40
v_fma_f16 v10, v20, v30, v40
v_div_fixup_f16 v10, v20, v30, v40
v_add_f64 v[10:11], v[20:21], v[30:31]
v_mul_f64 v[10:11], v[20:21], v[30:31]
v_min_f64 v[10:11], v[20:21], v[30:31]
v_max_f64 v[10:11], v[20:21], v[30:31]
v_ldexp_f64 v[10:11], v[20:21], v30
v_mul_lo_u32 v10, v20, v30
v_mul_hi_u32 v10, v20, v30
v_mul_hi_i32 v10, v20, v30
v_ldexp_f32 v10, v20, v30
v_readlane_b32 s10, v20, s30
v_writelane_b32 v10, s20, 7
v_bcnt_u32_b32 v10, v20, v30
v_mbcnt_lo_u32_b32 v10, v20, v30
v_mbcnt_hi_u32_b32 v10, v20, v30
v_lshlrev_b64 v[10:11], v20, v[30:31]
v_lshrrev_b64 v[10:11], v20, v[30:31]
v_ashrrev_i64 v[10:11], v20, v[30:31]
v_trig_preop_f64 v[10:11], v[20:21], v30
v_bfm_b32 v10, v20, v30
v_cvt_pknorm_i16_f32 v10, v20, v30
v_cvt_pknorm_u16_f32 v10, v20, v30
v_cvt_pkrtz_f16_f32 v10, v20, v30
v_cvt_pk_u16_u32 v10, v20, v30
v_cvt_pk_i16_i32 v10, v20, v30
v_cvt_pknorm_i16_f16 v10, v20, v30
v_cvt_pknorm_u16_f16 v10, v20, v30
v_add_i32 v10, v20, v30
v_sub_i32 v10, v20, v30
v_add_i16 v10, v20, v30
v_sub_i16 v10, v20, v30
v_pack_b32_f16 v10, v20, v30
v_mul_legacy_f32 v10, v20, v30
