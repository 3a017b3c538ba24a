// Every SOP1, SOP2, SOPK, SOPC and SOPP opcode.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
s_add_u32 s10, s20, s30
s_sub_u32 s10, s20, s30
s_add_i32 s10, s20, s30
s_sub_i32 s10, s20, s30
s_addc_u32 s10, s20, s30
s_subb_u32 s10, s20, s30
s_min_i32 s10, s20, s30
s_min_u32 s10, s20, s30
s_max_i32 s10, s20, s30
s_max_u32 s10, s20, s30
s_cselect_b32 s10, s20, s30
s_cselect_b64 s[10:11], s[20:21], s[30:31]
s_and_b32 s10, s20, s30
s_and_b64 s[10:11], s[20:21], s[30:31]
s_or_b32 s10, s20, s30
s_or_b64 s[10:11], s[20:21], s[30:31]
s_xor_b32 s10, s20, s30
s_xor_b64 s[10:11], s[20:21], s[30:31]
s_andn2_b32 s10, s20, s30
s_andn2_b64 s[10:11], s[20:21], s[30:31]
s_orn2_b32 s10, s20, s30
s_orn2_b64 s[10:11], s[20:21], s[30:31]
s_nand_b32 s10, s20, s30
s_nand_b64 s[10:11], s[20:21], s[30:31]
s_nor_b32 s10, s20, s30
s_nor_b64 s[10:11], s[20:21], s[30:31]
s_xnor_b32 s10, s20, s30
s_xnor_b64 s[10:11], s[20:21], s[30:31]
s_lshl_b32 s10, s20, s30
s_lshl_b64 s[10:11], s[20:21], s30
s_lshr_b32 s10, s20, s30
s_lshr_b64 s[10:11], s[20:21], s30
s_ashr_i32 s10, s20, s30
s_ashr_i64 s[10:11], s[20:21], s30
s_bfm_b32 s10, s20, s30
s_bfm_b64 s[10:11], s20, s30
s_mul_i32 s10, s20, s30
s_bfe_u32 s10, s20, s30
s_bfe_i32 s10, s20, s30
s_bfe_u64 s[10:11], s[20:21], s30
s_bfe_i64 s[10:11], s[20:21], s30
s_cbranch_g_fork s[20:21], s[30:31]
s_absdiff_i32 s10, s20, s30
s_rfe_restore_b64 s[20:21], s30
s_mul_hi_u32 s10, s20, s30
s_mul_hi_i32 s10, s20, s30
s_lshl1_add_u32 s10, s20, s30
s_lshl2_add_u32 s10, s20, s30
s_lshl3_add_u32 s10, s20, s30
s_lshl4_add_u32 s10, s20, s30
s_pack_ll_b32_b16 s10, s20, s30
s_pack_lh_b32_b16 s10, s20, s30
s_pack_hh_b32_b16 s10, s20, s30
s_movk_i32 s10, 0x1e14
s_cmovk_i32 s10, 0x1e14
s_cmpk_eq_i32 s10, 0x1e14
s_cmpk_lg_i32 s10, 0x1e14
s_cmpk_gt_i32 s10, 0x1e14
s_cmpk_ge_i32 s10, 0x1e14
s_cmpk_lt_i32 s10, 0x1e14
s_cmpk_le_i32 s10, 0x1e14
s_cmpk_eq_u32 s10, 0x1e14
s_cmpk_lg_u32 s10, 0x1e14
s_cmpk_gt_u32 s10, 0x1e14
s_cmpk_ge_u32 s10, 0x1e14
s_cmpk_lt_u32 s10, 0x1e14
s_cmpk_le_u32 s10, 0x1e14
s_addk_i32 s10, 0x1e14
s_mulk_i32 s10, 0x1e14
s_cbranch_i_fork s[10:11], 7700
s_getreg_b32 s10, hwreg(20, 24, 4)
s_setreg_b32 hwreg(20, 24, 4), s10
s_call_b64 s[10:11], 7700
s_movk_i32 s10, 0x10
s_cmovk_i32 s10, 0x10
s_cmpk_eq_i32 s10, 0x10
s_cmpk_lg_i32 s10, 0x10
s_cmpk_gt_i32 s10, 0x10
s_cmpk_ge_i32 s10, 0x10
s_cmpk_lt_i32 s10, 0x10
s_cmpk_le_i32 s10, 0x10
s_cmpk_eq_u32 s10, 0x10
s_cmpk_lg_u32 s10, 0x10
s_cmpk_gt_u32 s10, 0x10
s_cmpk_ge_u32 s10, 0x10
s_cmpk_lt_u32 s10, 0x10
s_cmpk_le_u32 s10, 0x10
s_addk_i32 s10, 0x10
s_mulk_i32 s10, 0x10
s_cbranch_i_fork s[10:11], 16
s_getreg_b32 s10, hwreg(16, 0, 1)
s_setreg_b32 hwreg(16, 0, 1), s10
s_setreg_imm32_b32 hwreg(16, 0, 1), 32
s_call_b64 s[10:11], 16
s_mov_b32 s10, s20
s_mov_b64 s[10:11], s[20:21]
s_cmov_b32 s10, s20
s_cmov_b64 s[10:11], s[20:21]
s_not_b32 s10, s20
s_not_b64 s[10:11], s[20:21]
s_wqm_b32 s10, s20
s_wqm_b64 s[10:11], s[20:21]
s_brev_b32 s10, s20
s_brev_b64 s[10:11], s[20:21]
s_bcnt0_i32_b32 s10, s20
s_bcnt0_i32_b64 s10, s[20:21]
s_bcnt1_i32_b32 s10, s20
s_bcnt1_i32_b64 s10, s[20:21]
s_ff0_i32_b32 s10, s20
s_ff0_i32_b64 s10, s[20:21]
s_ff1_i32_b32 s10, s20
s_ff1_i32_b64 s10, s[20:21]
s_flbit_i32_b32 s10, s20
s_flbit_i32_b64 s10, s[20:21]
s_flbit_i32 s10, s20
s_flbit_i32_i64 s10, s[20:21]
s_sext_i32_i8 s10, s20
s_sext_i32_i16 s10, s20
s_bitset0_b32 s10, s20
s_bitset0_b64 s[10:11], s20
s_bitset1_b32 s10, s20
s_bitset1_b64 s[10:11], s20
s_getpc_b64 s[10:11]
s_setpc_b64 s[20:21]
s_swappc_b64 s[10:11], s[20:21]
s_rfe_b64 s[20:21]
s_and_saveexec_b64 s[10:11], s[20:21]
s_or_saveexec_b64 s[10:11], s[20:21]
s_xor_saveexec_b64 s[10:11], s[20:21]
s_andn2_saveexec_b64 s[10:11], s[20:21]
s_orn2_saveexec_b64 s[10:11], s[20:21]
s_nand_saveexec_b64 s[10:11], s[20:21]
s_nor_saveexec_b64 s[10:11], s[20:21]
s_xnor_saveexec_b64 s[10:11], s[20:21]
s_quadmask_b32 s10, s20
s_quadmask_b64 s[10:11], s[20:21]
s_movrels_b32 s10, s20
s_movrels_b64 s[10:11], s[20:21]
s_movreld_b32 s10, s20
s_movreld_b64 s[10:11], s[20:21]
s_cbranch_join s20
s_abs_i32 s10, s20
s_set_gpr_idx_idx s20
s_andn1_saveexec_b64 s[10:11], s[20:21]
s_orn1_saveexec_b64 s[10:11], s[20:21]
s_andn1_wrexec_b64 s[10:11], s[20:21]
s_andn2_wrexec_b64 s[10:11], s[20:21]
s_bitreplicate_b64_b32 s[10:11], s20
s_cmp_eq_i32 s20, s30
s_cmp_lg_i32 s20, s30
s_cmp_gt_i32 s20, s30
s_cmp_ge_i32 s20, s30
s_cmp_lt_i32 s20, s30
s_cmp_le_i32 s20, s30
s_cmp_eq_u32 s20, s30
s_cmp_lg_u32 s20, s30
s_cmp_gt_u32 s20, s30
s_cmp_ge_u32 s20, s30
s_cmp_lt_u32 s20, s30
s_cmp_le_u32 s20, s30
s_bitcmp0_b32 s20, s30
s_bitcmp1_b32 s20, s30
s_bitcmp0_b64 s[20:21], s30
s_bitcmp1_b64 s[20:21], s30
s_setvskip s20, s30
s_set_gpr_idx_on s20, gpr_idx(SRC1,SRC2,DST)
s_cmp_eq_u64 s[20:21], s[30:31]
s_cmp_lg_u64 s[20:21], s[30:31]
s_nop 1
s_endpgm 1
s_branch 1
s_wakeup
s_cbranch_scc0 1
s_cbranch_scc1 1
s_cbranch_vccz 1
s_cbranch_vccnz 1
s_cbranch_execz 1
s_cbranch_execnz 1
s_barrier
s_setkill 1
s_waitcnt vmcnt(1) expcnt(0) lgkmcnt(0)
s_sethalt 1
s_sleep 1
s_setprio 1
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsghalt sendmsg(MSG_INTERRUPT)
s_trap 1
s_icache_inv
s_incperflevel 1
s_decperflevel 1
s_ttracedata
s_cbranch_cdbgsys 1
s_cbranch_cdbguser 1
s_cbranch_cdbgsys_or_user 1
s_cbranch_cdbgsys_and_user 1
s_endpgm_saved
s_set_gpr_idx_off
s_set_gpr_idx_mode gpr_idx(SRC0)
s_endpgm_ordered_ps_done
