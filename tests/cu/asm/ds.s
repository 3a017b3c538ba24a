// Every DS (LDS) opcode.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
ds_add_u32 v20, v30
ds_sub_u32 v20, v30
ds_rsub_u32 v20, v30
ds_inc_u32 v20, v30
ds_dec_u32 v20, v30
ds_min_i32 v20, v30
ds_max_i32 v20, v30
ds_min_u32 v20, v30
ds_max_u32 v20, v30
ds_and_b32 v20, v30
ds_or_b32 v20, v30
ds_xor_b32 v20, v30
ds_mskor_b32 v20, v30, v40
ds_write_b32 v20, v30
ds_write2_b32 v20, v30, v40
ds_write2st64_b32 v20, v30, v40
ds_cmpst_b32 v20, v30, v40
ds_cmpst_f32 v20, v30, v40
ds_min_f32 v20, v30
ds_max_f32 v20, v30
ds_nop
ds_add_f32 v20, v30
ds_write_addtid_b32 v30
ds_write_b8 v20, v30
ds_write_b16 v20, v30
ds_add_rtn_u32 v10, v20, v30
ds_sub_rtn_u32 v10, v20, v30
ds_rsub_rtn_u32 v10, v20, v30
ds_inc_rtn_u32 v10, v20, v30
ds_dec_rtn_u32 v10, v20, v30
ds_min_rtn_i32 v10, v20, v30
ds_max_rtn_i32 v10, v20, v30
ds_min_rtn_u32 v10, v20, v30
ds_max_rtn_u32 v10, v20, v30
ds_and_rtn_b32 v10, v20, v30
ds_or_rtn_b32 v10, v20, v30
ds_xor_rtn_b32 v10, v20, v30
ds_mskor_rtn_b32 v10, v20, v30, v40
ds_wrxchg_rtn_b32 v10, v20, v30
ds_wrxchg2_rtn_b32 v[10:11], v20, v30, v40
ds_wrxchg2st64_rtn_b32 v[10:11], v20, v30, v40
ds_cmpst_rtn_b32 v10, v20, v30, v40
ds_cmpst_rtn_f32 v10, v20, v30, v40
ds_min_rtn_f32 v10, v20, v30
ds_max_rtn_f32 v10, v20, v30
ds_wrap_rtn_b32 v10, v20, v30, v40
ds_add_rtn_f32 v10, v20, v30
ds_read_b32 v10, v20
ds_read2_b32 v[10:11], v20
ds_read2st64_b32 v[10:11], v20
ds_read_i8 v10, v20
ds_read_u8 v10, v20
ds_read_i16 v10, v20
ds_read_u16 v10, v20
ds_swizzle_b32 v10, v20
ds_permute_b32 v10, v20, v30
ds_bpermute_b32 v10, v20, v30
ds_add_u64 v20, v[30:31]
ds_sub_u64 v20, v[30:31]
ds_rsub_u64 v20, v[30:31]
ds_inc_u64 v20, v[30:31]
ds_dec_u64 v20, v[30:31]
ds_min_i64 v20, v[30:31]
ds_max_i64 v20, v[30:31]
ds_min_u64 v20, v[30:31]
ds_max_u64 v20, v[30:31]
ds_and_b64 v20, v[30:31]
ds_or_b64 v20, v[30:31]
ds_xor_b64 v20, v[30:31]
ds_mskor_b64 v20, v[30:31], v[40:41]
ds_write_b64 v20, v[30:31]
ds_write2_b64 v20, v[30:31], v[40:41]
ds_write2st64_b64 v20, v[30:31], v[40:41]
ds_cmpst_b64 v20, v[30:31], v[40:41]
ds_cmpst_f64 v20, v[30:31], v[40:41]
ds_min_f64 v20, v[30:31]
ds_max_f64 v20, v[30:31]
ds_write_b8_d16_hi v20, v30
ds_write_b16_d16_hi v20, v30
ds_read_u8_d16 v10, v20
ds_read_u8_d16_hi v10, v20
ds_read_i8_d16 v10, v20
ds_read_i8_d16_hi v10, v20
ds_read_u16_d16 v10, v20
ds_read_u16_d16_hi v10, v20
ds_add_f64 v20, v[30:31]
ds_add_rtn_u64 v[10:11], v20, v[30:31]
ds_sub_rtn_u64 v[10:11], v20, v[30:31]
ds_rsub_rtn_u64 v[10:11], v20, v[30:31]
ds_inc_rtn_u64 v[10:11], v20, v[30:31]
ds_dec_rtn_u64 v[10:11], v20, v[30:31]
ds_min_rtn_i64 v[10:11], v20, v[30:31]
ds_max_rtn_i64 v[10:11], v20, v[30:31]
ds_min_rtn_u64 v[10:11], v20, v[30:31]
ds_max_rtn_u64 v[10:11], v20, v[30:31]
ds_and_rtn_b64 v[10:11], v20, v[30:31]
ds_or_rtn_b64 v[10:11], v20, v[30:31]
ds_xor_rtn_b64 v[10:11], v20, v[30:31]
ds_mskor_rtn_b64 v[10:11], v20, v[30:31], v[40:41]
ds_wrxchg_rtn_b64 v[10:11], v20, v[30:31]
ds_wrxchg2_rtn_b64 v[10:13], v20, v[30:31], v[40:41]
ds_wrxchg2st64_rtn_b64 v[10:13], v20, v[30:31], v[40:41]
ds_cmpst_rtn_b64 v[10:11], v20, v[30:31], v[40:41]
ds_cmpst_rtn_f64 v[10:11], v20, v[30:31], v[40:41]
ds_min_rtn_f64 v[10:11], v20, v[30:31]
ds_max_rtn_f64 v[10:11], v20, v[30:31]
ds_read_b64 v[10:11], v20
ds_read2_b64 v[10:13], v20
ds_read2st64_b64 v[10:13], v20
ds_add_rtn_f64 v[10:11], v20, v[30:31]
ds_condxchg32_rtn_b64 v[10:11], v20, v[30:31]
ds_read_addtid_b32 v10
ds_consume v10
ds_append v10
ds_write_b96 v20, v[30:32]
ds_write_b128 v20, v[30:33]
ds_read_b96 v[10:12], v20
ds_read_b128 v[10:13], v20
ds_gws_init v2 offset:4 gds
ds_gws_sema_br v6 gds
ds_gws_barrier v4 offset:8 gds
ds_gws_sema_v gds
ds_gws_sema_p offset:12 gds
ds_gws_sema_release_all gds
ds_ordered_count v1, v2 offset:772 gds
