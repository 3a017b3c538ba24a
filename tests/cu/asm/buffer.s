// Every MUBUF and MTBUF opcode.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
buffer_load_format_x v10, v20, s[8:11], s30 offen
buffer_load_format_xy v[10:11], v20, s[8:11], s30 offen
buffer_load_format_xyz v[10:12], v20, s[8:11], s30 offen
buffer_load_format_xyzw v[10:13], v20, s[8:11], s30 offen
buffer_store_format_x v10, v20, s[8:11], s30 offen
buffer_store_format_xy v[10:11], v20, s[8:11], s30 offen
buffer_store_format_xyz v[10:12], v20, s[8:11], s30 offen
buffer_store_format_xyzw v[10:13], v20, s[8:11], s30 offen
buffer_load_format_d16_x v10, v20, s[8:11], s30 offen
buffer_load_format_d16_xy v10, v20, s[8:11], s30 offen
buffer_load_format_d16_xyz v[10:11], v20, s[8:11], s30 offen
buffer_load_format_d16_xyzw v[10:11], v20, s[8:11], s30 offen
buffer_store_format_d16_x v10, v20, s[8:11], s30 offen
buffer_store_format_d16_xy v10, v20, s[8:11], s30 offen
buffer_store_format_d16_xyz v[10:11], v20, s[8:11], s30 offen
buffer_store_format_d16_xyzw v[10:11], v20, s[8:11], s30 offen
buffer_load_ubyte v10, v20, s[8:11], s30 offen
buffer_load_sbyte v10, v20, s[8:11], s30 offen
buffer_load_ushort v10, v20, s[8:11], s30 offen
buffer_load_sshort v10, v20, s[8:11], s30 offen
buffer_load_dword v10, v20, s[8:11], s30 offen
buffer_load_dwordx2 v[10:11], v20, s[8:11], s30 offen
buffer_load_dwordx3 v[10:12], v20, s[8:11], s30 offen
buffer_load_dwordx4 v[10:13], v20, s[8:11], s30 offen
buffer_store_byte v10, v20, s[8:11], s30 offen
buffer_store_byte_d16_hi v10, v20, s[8:11], s30 offen
buffer_store_short v10, v20, s[8:11], s30 offen
buffer_store_short_d16_hi v10, v20, s[8:11], s30 offen
buffer_store_dword v10, v20, s[8:11], s30 offen
buffer_store_dwordx2 v[10:11], v20, s[8:11], s30 offen
buffer_store_dwordx3 v[10:12], v20, s[8:11], s30 offen
buffer_store_dwordx4 v[10:13], v20, s[8:11], s30 offen
buffer_load_ubyte_d16 v10, v20, s[8:11], s30 offen
buffer_load_ubyte_d16_hi v10, v20, s[8:11], s30 offen
buffer_load_sbyte_d16 v10, v20, s[8:11], s30 offen
buffer_load_sbyte_d16_hi v10, v20, s[8:11], s30 offen
buffer_load_short_d16 v10, v20, s[8:11], s30 offen
buffer_load_short_d16_hi v10, v20, s[8:11], s30 offen
buffer_load_format_d16_hi_x v10, v20, s[8:11], s30 offen
buffer_store_format_d16_hi_x v10, v20, s[8:11], s30 offen
buffer_wbl2
buffer_invl2
buffer_wbinvl1
buffer_wbinvl1_vol
buffer_atomic_swap v10, v20, s[8:11], s30 offen
buffer_atomic_cmpswap v[10:11], v20, s[8:11], s30 offen
buffer_atomic_add v10, v20, s[8:11], s30 offen
buffer_atomic_sub v10, v20, s[8:11], s30 offen
buffer_atomic_smin v10, v20, s[8:11], s30 offen
buffer_atomic_umin v10, v20, s[8:11], s30 offen
buffer_atomic_smax v10, v20, s[8:11], s30 offen
buffer_atomic_umax v10, v20, s[8:11], s30 offen
buffer_atomic_and v10, v20, s[8:11], s30 offen
buffer_atomic_or v10, v20, s[8:11], s30 offen
buffer_atomic_xor v10, v20, s[8:11], s30 offen
buffer_atomic_inc v10, v20, s[8:11], s30 offen
buffer_atomic_dec v10, v20, s[8:11], s30 offen
buffer_atomic_add_f32 v10, v20, s[8:11], s30 offen
buffer_atomic_pk_add_f16 v10, v20, s[8:11], s30 offen
buffer_atomic_add_f64 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_min_f64 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_max_f64 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_swap_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_cmpswap_x2 v[10:13], v20, s[8:11], s30 offen
buffer_atomic_add_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_sub_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_smin_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_umin_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_smax_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_umax_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_and_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_or_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_xor_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_inc_x2 v[10:11], v20, s[8:11], s30 offen
buffer_atomic_dec_x2 v[10:11], v20, s[8:11], s30 offen
buffer_wbinvl1
tbuffer_load_format_x v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_xy v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_xyz v[10:12], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_xyzw v[10:13], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_x v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_xy v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_xyz v[10:12], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_xyzw v[10:13], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_d16_x v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_d16_xy v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_d16_xyz v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_load_format_d16_xyzw v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_d16_x v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_d16_xy v10, v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_d16_xyz v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
tbuffer_store_format_d16_xyzw v[10:11], v20, s[8:11], s30 format:[BUF_DATA_FORMAT_INVALID] offen
// MUBUF opcode 0x71 also decodes as buffer_wbinvl1 (the assembler emits 0x3e).
.long 0xe1c40000, 0x00000000
