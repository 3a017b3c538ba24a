// Modifiers of every family: VOP3 abs/neg/clamp/omod/op_sel, VOP3P op_sel,
// op_sel_hi, neg_lo/neg_hi, MFMA cbsz/abid/blgp, SDWA selects, DPP controls,
// memory offsets and cache bits, s_waitcnt, hwreg, sendmsg, branches.
v_add_f32_e64 v0, -v1, v2
v_add_f32_e64 v0, |v1|, -|v2|
v_add_f32_e64 v0, v1, v2 clamp
v_add_f32_e64 v0, v1, v2 mul:2
v_add_f32_e64 v0, v1, v2 mul:4
v_add_f32_e64 v0, v1, v2 div:2
v_add_f32_e64 v0, -|v1|, |v2| clamp mul:2
v_fma_f32 v0, -v1, |v2|, -|v3| clamp div:2
v_mul_f64 v[0:1], -v[2:3], |v[4:5]|
v_max_f16_e64 v0, -v1, |v2| clamp
v_cvt_f32_f16_e64 v0, -|v1| clamp
v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,1,0]
v_fma_f16 v0, v1, v2, v3 op_sel:[0,1,0,1]
v_mad_u16 v0, v1, v2, v3 op_sel:[1,1,0,0] clamp
v_max3_f16 v0, v1, v2, v3 op_sel:[0,0,1,1]
v_add_co_u32_e64 v0, s[4:5], v1, v2
v_add_co_u32_e64 v0, vcc, v1, v2 clamp
v_addc_co_u32_e64 v0, s[4:5], v1, v2, s[6:7]
v_sub_co_u32_e64 v0, s[4:5], 5, v2
v_cmp_lt_f32_e64 s[4:5], -v1, |v2|
v_cmp_eq_u32_e64 vcc, v1, s2
v_cmpx_gt_i32_e64 s[4:5], v1, 7
v_cmp_class_f32_e64 s[4:5], -v1, v2
v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,1] neg_lo:[1,0,0] neg_hi:[0,0,1] clamp
v_pk_add_f16 v0, v1, v2 op_sel:[1,1]
v_pk_add_f16 v0, v1, v2 op_sel_hi:[0,0]
v_pk_mul_f16 v0, v1, v2 neg_lo:[1,1] neg_hi:[1,0]
v_pk_add_u16 v0, v1, v2 clamp
v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel:[1,0,0] op_sel_hi:[0,1,1] neg_lo:[0,1,0] neg_hi:[0,0,1]
v_pk_mov_b32 v[0:1], v[2:3], v[4:5] op_sel:[0,1]
v_fma_mix_f32 v0, v1, v2, v3 op_sel:[1,0,1] op_sel_hi:[0,1,1]
v_fma_mix_f32 v0, -v1, |v2|, -|v3| op_sel_hi:[1,1,1]
v_fma_mixlo_f16 v0, v1, v2, v3 op_sel_hi:[1,1,0] clamp
v_fma_mixhi_f16 v0, v1, v2, v3
v_dot2_f32_f16 v0, v1, v2, v3 neg_lo:[1,1,0] clamp
v_dot2_i32_i16 v0, v1, v2, v3 op_sel:[1,0,0] clamp
v_mfma_f32_32x32x1f32 a[0:31], v1, v2, a[0:31] cbsz:1 abid:2 blgp:3
v_mfma_f32_32x32x1f32 v[0:31], a1, a2, v[0:31]
v_mfma_f32_4x4x1f32 a[0:3], a1, v2, a[0:3] blgp:7
v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3] cbsz:2 abid:1
v_mfma_i32_16x16x16i8 v[0:3], v4, v5, v[0:3]
v_mfma_f32_32x32x8bf16_1k a[0:15], v[0:1], a[2:3], a[0:15]
v_mov_b32_dpp v0, v1 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 quad_perm:[3,2,1,0] row_mask:0x1 bank_mask:0x2
v_mov_b32_dpp v0, v1 row_shl:1 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_shr:15 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_mov_b32_dpp v0, v1 row_ror:7 row_mask:0xa bank_mask:0x5
v_mov_b32_dpp v0, v1 wave_shl:1 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 wave_rol:1 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 wave_shr:1 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 wave_ror:1 row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_mirror row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_half_mirror row_mask:0xf bank_mask:0xf
v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xa bank_mask:0xf
v_mov_b32_dpp v0, v1 row_bcast:31 row_mask:0xc bank_mask:0xf
v_add_f32_dpp v0, -v1, |v2| quad_perm:[1,2,3,0] row_mask:0xf bank_mask:0xf
v_add_u32_dpp v0, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
v_addc_co_u32_dpp v0, vcc, v1, v2, vcc row_shr:2 row_mask:0xf bank_mask:0xf
v_cvt_f32_i32_dpp v0, v1 row_shl:3 row_mask:0xf bank_mask:0xf
v_mac_f32_dpp v0, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
v_fmac_f32_dpp v0, v1, v2 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf
v_add_f32_sdwa v0, v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0 src1_sel:WORD_0
v_add_f32_sdwa v0, -v1, |v2| dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_add_f32_sdwa v0, v1, v2 clamp dst_sel:BYTE_3 dst_unused:UNUSED_SEXT src0_sel:BYTE_2 src1_sel:BYTE_1
v_mul_f32_sdwa v0, v1, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
v_add_u32_sdwa v0, s1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0
v_add_u32_sdwa v0, v1, s2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
v_mul_u32_u24_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:WORD_0
v_and_b32_sdwa v0, sext(v1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_cvt_f32_i32_sdwa v0, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1
v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0
v_cvt_f16_f32_sdwa v0, |v1| dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:DWORD
v_add_co_u32_sdwa v0, vcc, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
v_cndmask_b32_sdwa v0, v1, v2, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
v_cmp_eq_f32_sdwa s[2:3], v1, s2 src0_sel:WORD_1 src1_sel:DWORD
v_cmp_eq_f32_sdwa vcc, v1, v2 src0_sel:BYTE_0 src1_sel:BYTE_1
v_cmp_lt_u16_sdwa s[6:7], sext(v1), v2 src0_sel:WORD_1 src1_sel:WORD_0
v_cmpx_gt_u32_sdwa vcc, v1, v2 src0_sel:BYTE_2 src1_sel:DWORD
s_waitcnt vmcnt(0)
s_waitcnt lgkmcnt(0)
s_waitcnt expcnt(0)
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt vmcnt(63)
s_waitcnt vmcnt(17) expcnt(3) lgkmcnt(5)
s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(15)
s_waitcnt 0
s_nop 0
s_nop 7
s_endpgm
s_branch 0
s_branch 65535
s_cbranch_scc0 12
s_cbranch_vccnz 65000
s_sleep 2
s_setprio 3
s_trap 2
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsg sendmsg(MSG_GS, GS_OP_EMIT, 1)
s_sendmsg sendmsg(MSG_GS_DONE, GS_OP_NOP)
s_sendmsg sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)
s_sendmsg sendmsg(MSG_SAVEWAVE)
s_sendmsghalt sendmsg(MSG_HALT_WAVES)
s_set_gpr_idx_mode gpr_idx(SRC0,DST)
s_set_gpr_idx_on s2, gpr_idx(SRC0)
s_getreg_b32 s0, hwreg(HW_REG_MODE)
s_getreg_b32 s0, hwreg(HW_REG_HW_ID, 8, 4)
s_getreg_b32 s0, hwreg(HW_REG_STATUS, 0, 1)
s_getreg_b32 s0, hwreg(HW_REG_SH_MEM_BASES, 16, 16)
s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s3
s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 4), 0x1234
s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 3
s_movk_i32 s0, 0x0
s_movk_i32 s0, 0xffff
s_movk_i32 vcc_lo, 0x8000
s_cmpk_lg_u32 s5, 0x1234
s_addk_i32 s5, 0xfff0
s_call_b64 s[0:1], 4
s_load_dword s0, s[4:5], 0x0
s_load_dword s0, s[4:5], 0xfffff
s_load_dwordx2 s[0:1], s[4:5], 0x10 glc
s_load_dwordx4 s[8:11], s[4:5], m0
s_load_dwordx16 s[16:31], s[2:3], s9
s_buffer_load_dwordx8 s[8:15], s[4:7], 0x40
s_store_dword s1, s[4:5], m0
s_store_dwordx2 s[2:3], s[4:5], 0x8 glc
s_atomic_add s1, s[4:5], 0x10 glc
s_atomic_cmpswap s[2:3], s[4:5], 0x0
s_atomic_cmpswap s[2:3], s[4:5], 0x0 glc
s_memtime s[0:1]
s_memrealtime s[2:3]
s_dcache_wb
ds_write_b32 v1, v2
ds_write_b32 v1, v2 offset:65535
ds_write_b32 v1, a2 offset:4
ds_read_b32 a1, v2 offset:16
ds_read_b64 v[0:1], v2 offset:8 gds
ds_read2_b32 v[0:1], v2 offset0:1 offset1:255
ds_read2_b32 v[0:1], v2 offset1:3
ds_read2st64_b64 v[0:3], v4 offset0:2
ds_write2_b32 v1, v2, v3 offset0:4 offset1:8
ds_write2_b64 v1, a[2:3], a[4:5] offset1:1
ds_add_rtn_u32 v0, v1, v2 offset:12
ds_cmpst_rtn_b32 v0, v1, v2, v3
ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,0,1,2,3)
ds_swizzle_b32 v0, v1 offset:swizzle(BITMASK_PERM,"01pip")
ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,16)
ds_swizzle_b32 v0, v1 offset:swizzle(REVERSE,8)
ds_swizzle_b32 v0, v1 offset:swizzle(BROADCAST,4,1)
ds_swizzle_b32 v0, v1 offset:0x1234
ds_bpermute_b32 v0, v1, v2 offset:4
ds_permute_b32 v0, v1, v2
ds_read_addtid_b32 v0 offset:4
ds_write_addtid_b32 v0 offset:8
ds_consume v0 offset:4
ds_append v1
ds_read_b128 v[0:3], v4 offset:1024
flat_load_dword v1, v[2:3] offset:12
flat_load_dword v1, v[2:3] offset:4095 glc slc
flat_load_dwordx4 a[0:3], v[2:3]
flat_store_dword v[2:3], v1 offset:8 glc
flat_atomic_add v0, v[2:3], v3 glc
flat_atomic_cmpswap v0, v[2:3], v[4:5] glc
flat_atomic_cmpswap_x2 v[0:1], v[2:3], v[4:7] glc slc
flat_atomic_add_f64 v[0:1], v[2:3]
global_load_dword v1, v[2:3], off
global_load_dword a1, v[2:3], off offset:-8
global_load_dword v1, v2, s[4:5] offset:16
global_load_dword v1, v2, s[4:5] offset:-4096
global_load_dword v1, v2, s[4:5] offset:4095 glc slc
global_load_dwordx2 v[0:1], v[2:3], off glc
global_load_ubyte_d16_hi v1, v[2:3], off
global_store_dword v[2:3], a1, off offset:-8 glc slc
global_store_dwordx4 v2, v[4:7], s[6:7]
global_atomic_add v0, v[2:3], v3, off glc
global_atomic_add v[2:3], v3, off
global_atomic_cmpswap v0, v1, v[2:3], s[4:5] glc
global_atomic_add_f32 v1, v2, s[4:5] offset:8
global_atomic_pk_add_f16 v[2:3], v3, off
scratch_load_dword v1, off, s3 offset:4
scratch_load_dword v1, v2, off offset:-16
scratch_load_dwordx4 v[0:3], off, s5 glc
scratch_store_dword off, v1, s3
scratch_store_dword v2, v1, off offset:100 slc
scratch_store_dwordx2 off, v[0:1], s0 offset:-1
buffer_load_dword v1, off, s[4:7], 0
buffer_load_dword v1, off, s[4:7], s3 offset:4095
buffer_load_dword a1, v2, s[4:7], s3 offen offset:12 glc slc lds
buffer_load_dword v1, v2, s[8:11], 0 idxen
buffer_load_dwordx2 v[0:1], v[2:3], s[4:7], s3 idxen offen offset:4
buffer_store_dword v1, v2, s[4:7], 1 offen glc
buffer_store_dwordx4 v[0:3], off, s[4:7], s3 slc
buffer_atomic_add v1, v2, s[4:7], 0 offen glc
buffer_atomic_add v1, off, s[4:7], s3
buffer_atomic_cmpswap v[0:1], v2, s[4:7], 0 offen glc
buffer_atomic_cmpswap_x2 v[0:3], off, s[4:7], m0 glc
buffer_wbinvl1_vol
tbuffer_load_format_x v1, off, s[4:7], dfmt:14, nfmt:4, 0
tbuffer_load_format_xyzw v[0:3], v4, s[4:7], dfmt:4, nfmt:7, s2 offen offset:8
tbuffer_store_format_xy v[0:1], off, s[4:7], dfmt:1, nfmt:0, 0
tbuffer_store_format_x v0, off, s[4:7], dfmt:2, nfmt:0, 0 glc slc
ds_swizzle_b32 v0, v1
ds_swizzle_b32 v0, v1 offset:swizzle(SWAP,1)
ds_swizzle_b32 v0, v1 offset:0x8000
ds_swizzle_b32 v0, v1 offset:0xffff
ds_swizzle_b32 v0, v1 offset:0x001f
