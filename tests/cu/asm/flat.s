// Every FLAT, GLOBAL and SCRATCH opcode.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
flat_load_ubyte v10, v[20:21]
flat_load_sbyte v10, v[20:21]
flat_load_ushort v10, v[20:21]
flat_load_sshort v10, v[20:21]
flat_load_dword v10, v[20:21]
flat_load_dwordx2 v[10:11], v[20:21]
flat_load_dwordx3 v[10:12], v[20:21]
flat_load_dwordx4 v[10:13], v[20:21]
flat_store_byte v[20:21], v30
flat_store_byte_d16_hi v[20:21], v30
flat_store_short v[20:21], v30
flat_store_short_d16_hi v[20:21], v30
flat_store_dword v[20:21], v30
flat_store_dwordx2 v[20:21], v[30:31]
flat_store_dwordx3 v[20:21], v[30:32]
flat_store_dwordx4 v[20:21], v[30:33]
flat_load_ubyte_d16 v10, v[20:21]
flat_load_ubyte_d16_hi v10, v[20:21]
flat_load_sbyte_d16 v10, v[20:21]
flat_load_sbyte_d16_hi v10, v[20:21]
flat_load_short_d16 v10, v[20:21]
flat_load_short_d16_hi v10, v[20:21]
flat_atomic_swap v[20:21], v30
flat_atomic_cmpswap v[20:21], v[30:31]
flat_atomic_add v[20:21], v30
flat_atomic_sub v[20:21], v30
flat_atomic_smin v[20:21], v30
flat_atomic_umin v[20:21], v30
flat_atomic_smax v[20:21], v30
flat_atomic_umax v[20:21], v30
flat_atomic_and v[20:21], v30
flat_atomic_or v[20:21], v30
flat_atomic_xor v[20:21], v30
flat_atomic_inc v[20:21], v30
flat_atomic_dec v[20:21], v30
flat_atomic_add_f64 v[20:21], v[30:31]
flat_atomic_min_f64 v[20:21], v[30:31]
flat_atomic_max_f64 v[20:21], v[30:31]
flat_atomic_swap_x2 v[20:21], v[30:31]
flat_atomic_cmpswap_x2 v[20:21], v[30:33]
flat_atomic_add_x2 v[20:21], v[30:31]
flat_atomic_sub_x2 v[20:21], v[30:31]
flat_atomic_smin_x2 v[20:21], v[30:31]
flat_atomic_umin_x2 v[20:21], v[30:31]
flat_atomic_smax_x2 v[20:21], v[30:31]
flat_atomic_umax_x2 v[20:21], v[30:31]
flat_atomic_and_x2 v[20:21], v[30:31]
flat_atomic_or_x2 v[20:21], v[30:31]
flat_atomic_xor_x2 v[20:21], v[30:31]
flat_atomic_inc_x2 v[20:21], v[30:31]
flat_atomic_dec_x2 v[20:21], v[30:31]
global_load_ubyte v10, v[20:21], off
global_load_sbyte v10, v[20:21], off
global_load_ushort v10, v[20:21], off
global_load_sshort v10, v[20:21], off
global_load_dword v10, v[20:21], off
global_load_dwordx2 v[10:11], v[20:21], off
global_load_dwordx3 v[10:12], v[20:21], off
global_load_dwordx4 v[10:13], v[20:21], off
global_store_byte v[20:21], v30, off
global_store_byte_d16_hi v[20:21], v30, off
global_store_short v[20:21], v30, off
global_store_short_d16_hi v[20:21], v30, off
global_store_dword v[20:21], v30, off
global_store_dwordx2 v[20:21], v[30:31], off
global_store_dwordx3 v[20:21], v[30:32], off
global_store_dwordx4 v[20:21], v[30:33], off
global_load_ubyte_d16 v10, v[20:21], off
global_load_ubyte_d16_hi v10, v[20:21], off
global_load_sbyte_d16 v10, v[20:21], off
global_load_sbyte_d16_hi v10, v[20:21], off
global_load_short_d16 v10, v[20:21], off
global_load_short_d16_hi v10, v[20:21], off
global_atomic_swap v[20:21], v30, off
global_atomic_cmpswap v[20:21], v[30:31], off
global_atomic_add v[20:21], v30, off
global_atomic_sub v[20:21], v30, off
global_atomic_smin v[20:21], v30, off
global_atomic_umin v[20:21], v30, off
global_atomic_smax v[20:21], v30, off
global_atomic_umax v[20:21], v30, off
global_atomic_and v[20:21], v30, off
global_atomic_or v[20:21], v30, off
global_atomic_xor v[20:21], v30, off
global_atomic_inc v[20:21], v30, off
global_atomic_dec v[20:21], v30, off
global_atomic_add_f32 v[20:21], v30, off
global_atomic_pk_add_f16 v[20:21], v30, off
global_atomic_add_f64 v[20:21], v[30:31], off
global_atomic_min_f64 v[20:21], v[30:31], off
global_atomic_max_f64 v[20:21], v[30:31], off
global_atomic_swap_x2 v[20:21], v[30:31], off
global_atomic_cmpswap_x2 v[20:21], v[30:33], off
global_atomic_add_x2 v[20:21], v[30:31], off
global_atomic_sub_x2 v[20:21], v[30:31], off
global_atomic_smin_x2 v[20:21], v[30:31], off
global_atomic_umin_x2 v[20:21], v[30:31], off
global_atomic_smax_x2 v[20:21], v[30:31], off
global_atomic_umax_x2 v[20:21], v[30:31], off
global_atomic_and_x2 v[20:21], v[30:31], off
global_atomic_or_x2 v[20:21], v[30:31], off
global_atomic_xor_x2 v[20:21], v[30:31], off
global_atomic_inc_x2 v[20:21], v[30:31], off
global_atomic_dec_x2 v[20:21], v[30:31], off
scratch_load_ubyte v10, v20, off
scratch_load_sbyte v10, v20, off
scratch_load_ushort v10, v20, off
scratch_load_sshort v10, v20, off
scratch_load_dword v10, v20, off
scratch_load_dwordx2 v[10:11], v20, off
scratch_load_dwordx3 v[10:12], v20, off
scratch_load_dwordx4 v[10:13], v20, off
scratch_store_byte v20, v30, off
scratch_store_byte_d16_hi v20, v30, off
scratch_store_short v20, v30, off
scratch_store_short_d16_hi v20, v30, off
scratch_store_dword v20, v30, off
scratch_store_dwordx2 v20, v[30:31], off
scratch_store_dwordx3 v20, v[30:32], off
scratch_store_dwordx4 v20, v[30:33], off
scratch_load_ubyte_d16 v10, v20, off
scratch_load_ubyte_d16_hi v10, v20, off
scratch_load_sbyte_d16 v10, v20, off
scratch_load_sbyte_d16_hi v10, v20, off
scratch_load_short_d16 v10, v20, off
scratch_load_short_d16_hi v10, v20, off
