// Every VOP1, VOP2 and VOPC opcode in its 32-bit encoding.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
v_mov_b32_e32 v10, v20
v_readfirstlane_b32 s10, v20
v_cvt_i32_f64_e32 v10, v[20:21]
v_cvt_f64_i32_e32 v[10:11], v20
v_cvt_f32_i32_e32 v10, v20
v_cvt_f32_u32_e32 v10, v20
v_cvt_u32_f32_e32 v10, v20
v_cvt_i32_f32_e32 v10, v20
v_cvt_f16_f32_e32 v10, v20
v_cvt_f32_f16_e32 v10, v20
v_cvt_rpi_i32_f32_e32 v10, v20
v_cvt_flr_i32_f32_e32 v10, v20
v_cvt_off_f32_i4_e32 v10, v20
v_cvt_f32_f64_e32 v10, v[20:21]
v_cvt_f64_f32_e32 v[10:11], v20
v_cvt_f32_ubyte0_e32 v10, v20
v_cvt_f32_ubyte1_e32 v10, v20
v_cvt_f32_ubyte2_e32 v10, v20
v_cvt_f32_ubyte3_e32 v10, v20
v_cvt_u32_f64_e32 v10, v[20:21]
v_cvt_f64_u32_e32 v[10:11], v20
v_trunc_f64_e32 v[10:11], v[20:21]
v_ceil_f64_e32 v[10:11], v[20:21]
v_rndne_f64_e32 v[10:11], v[20:21]
v_floor_f64_e32 v[10:11], v[20:21]
v_fract_f32_e32 v10, v20
v_trunc_f32_e32 v10, v20
v_ceil_f32_e32 v10, v20
v_rndne_f32_e32 v10, v20
v_floor_f32_e32 v10, v20
v_exp_f32_e32 v10, v20
v_log_f32_e32 v10, v20
v_rcp_f32_e32 v10, v20
v_rcp_iflag_f32_e32 v10, v20
v_rsq_f32_e32 v10, v20
v_rcp_f64_e32 v[10:11], v[20:21]
v_rsq_f64_e32 v[10:11], v[20:21]
v_sqrt_f32_e32 v10, v20
v_sqrt_f64_e32 v[10:11], v[20:21]
v_sin_f32_e32 v10, v20
v_cos_f32_e32 v10, v20
v_not_b32_e32 v10, v20
v_bfrev_b32_e32 v10, v20
v_ffbh_u32_e32 v10, v20
v_ffbl_b32_e32 v10, v20
v_ffbh_i32_e32 v10, v20
v_frexp_exp_i32_f64_e32 v10, v[20:21]
v_frexp_mant_f64_e32 v[10:11], v[20:21]
v_fract_f64_e32 v[10:11], v[20:21]
v_frexp_exp_i32_f32_e32 v10, v20
v_frexp_mant_f32_e32 v10, v20
v_screen_partition_4se_b32_e32 v10, v20
v_cvt_f16_u16_e32 v10, v20
v_cvt_f16_i16_e32 v10, v20
v_cvt_u16_f16_e32 v10, v20
v_cvt_i16_f16_e32 v10, v20
v_rcp_f16_e32 v10, v20
v_sqrt_f16_e32 v10, v20
v_rsq_f16_e32 v10, v20
v_log_f16_e32 v10, v20
v_exp_f16_e32 v10, v20
v_frexp_mant_f16_e32 v10, v20
v_frexp_exp_i16_f16_e32 v10, v20
v_floor_f16_e32 v10, v20
v_ceil_f16_e32 v10, v20
v_trunc_f16_e32 v10, v20
v_rndne_f16_e32 v10, v20
v_fract_f16_e32 v10, v20
v_sin_f16_e32 v10, v20
v_cos_f16_e32 v10, v20
v_exp_legacy_f32_e32 v10, v20
v_log_legacy_f32_e32 v10, v20
v_cvt_norm_i16_f16_e32 v10, v20
v_cvt_norm_u16_f16_e32 v10, v20
v_sat_pk_u8_i16_e32 v10, v20
v_swap_b32 v10, v20
v_accvgpr_mov_b32 a10, a20
v_nop
v_clrexcp
v_cndmask_b32_e32 v10, v20, v30, vcc
v_add_f32_e32 v10, v20, v30
v_sub_f32_e32 v10, v20, v30
v_subrev_f32_e32 v10, v20, v30
v_fmac_f64_e32 v[10:11], v[20:21], v[30:31]
v_mul_f32_e32 v10, v20, v30
v_mul_i32_i24_e32 v10, v20, v30
v_mul_hi_i32_i24_e32 v10, v20, v30
v_mul_u32_u24_e32 v10, v20, v30
v_mul_hi_u32_u24_e32 v10, v20, v30
v_min_f32_e32 v10, v20, v30
v_max_f32_e32 v10, v20, v30
v_min_i32_e32 v10, v20, v30
v_max_i32_e32 v10, v20, v30
v_min_u32_e32 v10, v20, v30
v_max_u32_e32 v10, v20, v30
v_lshrrev_b32_e32 v10, v20, v30
v_ashrrev_i32_e32 v10, v20, v30
v_lshlrev_b32_e32 v10, v20, v30
v_and_b32_e32 v10, v20, v30
v_or_b32_e32 v10, v20, v30
v_xor_b32_e32 v10, v20, v30
v_mac_f32_e32 v10, v20, v30
v_add_co_u32_e32 v10, vcc, v20, v30
v_sub_co_u32_e32 v10, vcc, v20, v30
v_subrev_co_u32_e32 v10, vcc, v20, v30
v_addc_co_u32_e32 v10, vcc, v20, v30, vcc
v_subb_co_u32_e32 v10, vcc, v20, v30, vcc
v_subbrev_co_u32_e32 v10, vcc, v20, v30, vcc
v_add_f16_e32 v10, v20, v30
v_sub_f16_e32 v10, v20, v30
v_subrev_f16_e32 v10, v20, v30
v_mul_f16_e32 v10, v20, v30
v_mac_f16_e32 v10, v20, v30
v_add_u16_e32 v10, v20, v30
v_sub_u16_e32 v10, v20, v30
v_subrev_u16_e32 v10, v20, v30
v_mul_lo_u16_e32 v10, v20, v30
v_lshlrev_b16_e32 v10, v20, v30
v_lshrrev_b16_e32 v10, v20, v30
v_ashrrev_i16_e32 v10, v20, v30
v_max_f16_e32 v10, v20, v30
v_min_f16_e32 v10, v20, v30
v_max_u16_e32 v10, v20, v30
v_max_i16_e32 v10, v20, v30
v_min_u16_e32 v10, v20, v30
v_min_i16_e32 v10, v20, v30
v_ldexp_f16_e32 v10, v20, v30
v_add_u32_e32 v10, v20, v30
v_sub_u32_e32 v10, v20, v30
v_subrev_u32_e32 v10, v20, v30
v_dot2c_f32_f16_e32 v10, v20, v30
v_dot2c_i32_i16_e32 v10, v20, v30
v_dot4c_i32_i8_e32 v10, v20, v30
v_dot8c_i32_i4_e32 v10, v20, v30
v_fmac_f32_e32 v10, v20, v30
v_pk_fmac_f16_e32 v10, v20, v30
v_xnor_b32_e32 v10, v20, v30
v_madmk_f32 v0, v1, 0x41200000, v2
v_madak_f32 v0, v1, v2, 0x41200000
v_madmk_f16 v0, v1, 0x4900, v2
v_madak_f16 v0, v1, v2, 0x4900
v_cmp_class_f32_e32 vcc, v20, v30
v_cmpx_class_f32_e32 vcc, v20, v30
v_cmp_class_f64_e32 vcc, v[20:21], v30
v_cmpx_class_f64_e32 vcc, v[20:21], v30
v_cmp_class_f16_e32 vcc, v20, v30
v_cmpx_class_f16_e32 vcc, v20, v30
v_cmp_f_f16_e32 vcc, v20, v30
v_cmp_lt_f16_e32 vcc, v20, v30
v_cmp_eq_f16_e32 vcc, v20, v30
v_cmp_le_f16_e32 vcc, v20, v30
v_cmp_gt_f16_e32 vcc, v20, v30
v_cmp_lg_f16_e32 vcc, v20, v30
v_cmp_ge_f16_e32 vcc, v20, v30
v_cmp_o_f16_e32 vcc, v20, v30
v_cmp_u_f16_e32 vcc, v20, v30
v_cmp_nge_f16_e32 vcc, v20, v30
v_cmp_nlg_f16_e32 vcc, v20, v30
v_cmp_ngt_f16_e32 vcc, v20, v30
v_cmp_nle_f16_e32 vcc, v20, v30
v_cmp_neq_f16_e32 vcc, v20, v30
v_cmp_nlt_f16_e32 vcc, v20, v30
v_cmp_tru_f16_e32 vcc, v20, v30
v_cmpx_f_f16_e32 vcc, v20, v30
v_cmpx_lt_f16_e32 vcc, v20, v30
v_cmpx_eq_f16_e32 vcc, v20, v30
v_cmpx_le_f16_e32 vcc, v20, v30
v_cmpx_gt_f16_e32 vcc, v20, v30
v_cmpx_lg_f16_e32 vcc, v20, v30
v_cmpx_ge_f16_e32 vcc, v20, v30
v_cmpx_o_f16_e32 vcc, v20, v30
v_cmpx_u_f16_e32 vcc, v20, v30
v_cmpx_nge_f16_e32 vcc, v20, v30
v_cmpx_nlg_f16_e32 vcc, v20, v30
v_cmpx_ngt_f16_e32 vcc, v20, v30
v_cmpx_nle_f16_e32 vcc, v20, v30
v_cmpx_neq_f16_e32 vcc, v20, v30
v_cmpx_nlt_f16_e32 vcc, v20, v30
v_cmpx_tru_f16_e32 vcc, v20, v30
v_cmp_f_f32_e32 vcc, v20, v30
v_cmp_lt_f32_e32 vcc, v20, v30
v_cmp_eq_f32_e32 vcc, v20, v30
v_cmp_le_f32_e32 vcc, v20, v30
v_cmp_gt_f32_e32 vcc, v20, v30
v_cmp_lg_f32_e32 vcc, v20, v30
v_cmp_ge_f32_e32 vcc, v20, v30
v_cmp_o_f32_e32 vcc, v20, v30
v_cmp_u_f32_e32 vcc, v20, v30
v_cmp_nge_f32_e32 vcc, v20, v30
v_cmp_nlg_f32_e32 vcc, v20, v30
v_cmp_ngt_f32_e32 vcc, v20, v30
v_cmp_nle_f32_e32 vcc, v20, v30
v_cmp_neq_f32_e32 vcc, v20, v30
v_cmp_nlt_f32_e32 vcc, v20, v30
v_cmp_tru_f32_e32 vcc, v20, v30
v_cmpx_f_f32_e32 vcc, v20, v30
v_cmpx_lt_f32_e32 vcc, v20, v30
v_cmpx_eq_f32_e32 vcc, v20, v30
v_cmpx_le_f32_e32 vcc, v20, v30
v_cmpx_gt_f32_e32 vcc, v20, v30
v_cmpx_lg_f32_e32 vcc, v20, v30
v_cmpx_ge_f32_e32 vcc, v20, v30
v_cmpx_o_f32_e32 vcc, v20, v30
v_cmpx_u_f32_e32 vcc, v20, v30
v_cmpx_nge_f32_e32 vcc, v20, v30
v_cmpx_nlg_f32_e32 vcc, v20, v30
v_cmpx_ngt_f32_e32 vcc, v20, v30
v_cmpx_nle_f32_e32 vcc, v20, v30
v_cmpx_neq_f32_e32 vcc, v20, v30
v_cmpx_nlt_f32_e32 vcc, v20, v30
v_cmpx_tru_f32_e32 vcc, v20, v30
v_cmp_f_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_lt_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_eq_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_le_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_gt_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_lg_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_ge_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_o_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_u_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_nge_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_nlg_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_ngt_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_nle_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_neq_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_nlt_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_tru_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_f_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_lt_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_eq_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_le_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_gt_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_lg_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ge_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_o_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_u_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_nge_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_nlg_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ngt_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_nle_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_neq_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_nlt_f64_e32 vcc, v[20:21], v[30:31]
v_cmpx_tru_f64_e32 vcc, v[20:21], v[30:31]
v_cmp_f_i16_e32 vcc, v20, v30
v_cmp_lt_i16_e32 vcc, v20, v30
v_cmp_eq_i16_e32 vcc, v20, v30
v_cmp_le_i16_e32 vcc, v20, v30
v_cmp_gt_i16_e32 vcc, v20, v30
v_cmp_ne_i16_e32 vcc, v20, v30
v_cmp_ge_i16_e32 vcc, v20, v30
v_cmp_t_i16_e32 vcc, v20, v30
v_cmp_f_u16_e32 vcc, v20, v30
v_cmp_lt_u16_e32 vcc, v20, v30
v_cmp_eq_u16_e32 vcc, v20, v30
v_cmp_le_u16_e32 vcc, v20, v30
v_cmp_gt_u16_e32 vcc, v20, v30
v_cmp_ne_u16_e32 vcc, v20, v30
v_cmp_ge_u16_e32 vcc, v20, v30
v_cmp_t_u16_e32 vcc, v20, v30
v_cmpx_f_i16_e32 vcc, v20, v30
v_cmpx_lt_i16_e32 vcc, v20, v30
v_cmpx_eq_i16_e32 vcc, v20, v30
v_cmpx_le_i16_e32 vcc, v20, v30
v_cmpx_gt_i16_e32 vcc, v20, v30
v_cmpx_ne_i16_e32 vcc, v20, v30
v_cmpx_ge_i16_e32 vcc, v20, v30
v_cmpx_t_i16_e32 vcc, v20, v30
v_cmpx_f_u16_e32 vcc, v20, v30
v_cmpx_lt_u16_e32 vcc, v20, v30
v_cmpx_eq_u16_e32 vcc, v20, v30
v_cmpx_le_u16_e32 vcc, v20, v30
v_cmpx_gt_u16_e32 vcc, v20, v30
v_cmpx_ne_u16_e32 vcc, v20, v30
v_cmpx_ge_u16_e32 vcc, v20, v30
v_cmpx_t_u16_e32 vcc, v20, v30
v_cmp_f_i32_e32 vcc, v20, v30
v_cmp_lt_i32_e32 vcc, v20, v30
v_cmp_eq_i32_e32 vcc, v20, v30
v_cmp_le_i32_e32 vcc, v20, v30
v_cmp_gt_i32_e32 vcc, v20, v30
v_cmp_ne_i32_e32 vcc, v20, v30
v_cmp_ge_i32_e32 vcc, v20, v30
v_cmp_t_i32_e32 vcc, v20, v30
v_cmp_f_u32_e32 vcc, v20, v30
v_cmp_lt_u32_e32 vcc, v20, v30
v_cmp_eq_u32_e32 vcc, v20, v30
v_cmp_le_u32_e32 vcc, v20, v30
v_cmp_gt_u32_e32 vcc, v20, v30
v_cmp_ne_u32_e32 vcc, v20, v30
v_cmp_ge_u32_e32 vcc, v20, v30
v_cmp_t_u32_e32 vcc, v20, v30
v_cmpx_f_i32_e32 vcc, v20, v30
v_cmpx_lt_i32_e32 vcc, v20, v30
v_cmpx_eq_i32_e32 vcc, v20, v30
v_cmpx_le_i32_e32 vcc, v20, v30
v_cmpx_gt_i32_e32 vcc, v20, v30
v_cmpx_ne_i32_e32 vcc, v20, v30
v_cmpx_ge_i32_e32 vcc, v20, v30
v_cmpx_t_i32_e32 vcc, v20, v30
v_cmpx_f_u32_e32 vcc, v20, v30
v_cmpx_lt_u32_e32 vcc, v20, v30
v_cmpx_eq_u32_e32 vcc, v20, v30
v_cmpx_le_u32_e32 vcc, v20, v30
v_cmpx_gt_u32_e32 vcc, v20, v30
v_cmpx_ne_u32_e32 vcc, v20, v30
v_cmpx_ge_u32_e32 vcc, v20, v30
v_cmpx_t_u32_e32 vcc, v20, v30
v_cmp_f_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_lt_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_eq_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_le_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_gt_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_ne_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_ge_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_t_i64_e32 vcc, v[20:21], v[30:31]
v_cmp_f_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_lt_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_eq_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_le_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_gt_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_ne_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_ge_u64_e32 vcc, v[20:21], v[30:31]
v_cmp_t_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_f_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_lt_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_eq_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_le_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_gt_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ne_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ge_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_t_i64_e32 vcc, v[20:21], v[30:31]
v_cmpx_f_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_lt_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_eq_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_le_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_gt_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ne_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_ge_u64_e32 vcc, v[20:21], v[30:31]
v_cmpx_t_u64_e32 vcc, v[20:21], v[30:31]
