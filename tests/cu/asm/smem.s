// Every SMEM opcode.
// Assembled with llvm-mc-14 and disassembled with llvm-objdump-14 by tests/cu/disasm_test.cpp;
// each instruction must decode and print exactly as llvm-objdump prints it.
s_load_dword s12, s[4:5], 0x10
s_load_dwordx2 s[12:13], s[4:5], 0x10
s_load_dwordx4 s[12:15], s[4:5], 0x10
s_load_dwordx8 s[12:19], s[4:5], 0x10
s_load_dwordx16 s[12:27], s[4:5], 0x10
s_scratch_load_dword s12, s[4:5], 0x10
s_scratch_load_dwordx2 s[12:13], s[4:5], 0x10
s_scratch_load_dwordx4 s[12:15], s[4:5], 0x10
s_buffer_load_dword s12, s[4:7], 0x10
s_buffer_load_dwordx2 s[12:13], s[4:7], 0x10
s_buffer_load_dwordx4 s[12:15], s[4:7], 0x10
s_buffer_load_dwordx8 s[12:19], s[4:7], 0x10
s_buffer_load_dwordx16 s[12:27], s[4:7], 0x10
s_store_dword s12, s[4:5], 0x10
s_store_dwordx2 s[12:13], s[4:5], 0x10
s_store_dwordx4 s[12:15], s[4:5], 0x10
s_scratch_store_dword s12, s[4:5], 0x10
s_scratch_store_dwordx2 s[12:13], s[4:5], 0x10
s_scratch_store_dwordx4 s[12:15], s[4:5], 0x10
s_buffer_store_dword s12, s[4:7], 0x10
s_buffer_store_dwordx2 s[12:13], s[4:7], 0x10
s_buffer_store_dwordx4 s[12:15], s[4:7], 0x10
s_dcache_inv
s_dcache_wb
s_dcache_inv_vol
s_dcache_wb_vol
s_memtime s[0:1]
s_memrealtime s[0:1]
s_atc_probe 12, s[4:5], 0x10
s_atc_probe_buffer 12, s[4:7], 0x10
s_dcache_discard s[4:5], 0x10
s_dcache_discard_x2 s[4:5], 0x10
s_buffer_atomic_swap s12, s[4:7], 0x10
s_buffer_atomic_cmpswap s[12:13], s[4:7], 0x10
s_buffer_atomic_add s12, s[4:7], 0x10
s_buffer_atomic_sub s12, s[4:7], 0x10
s_buffer_atomic_smin s12, s[4:7], 0x10
s_buffer_atomic_umin s12, s[4:7], 0x10
s_buffer_atomic_smax s12, s[4:7], 0x10
s_buffer_atomic_umax s12, s[4:7], 0x10
s_buffer_atomic_and s12, s[4:7], 0x10
s_buffer_atomic_or s12, s[4:7], 0x10
s_buffer_atomic_xor s12, s[4:7], 0x10
s_buffer_atomic_inc s12, s[4:7], 0x10
s_buffer_atomic_dec s12, s[4:7], 0x10
s_buffer_atomic_swap_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_cmpswap_x2 s[12:15], s[4:7], 0x10
s_buffer_atomic_add_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_sub_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_smin_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_umin_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_smax_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_umax_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_and_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_or_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_xor_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_inc_x2 s[12:13], s[4:7], 0x10
s_buffer_atomic_dec_x2 s[12:13], s[4:7], 0x10
s_atomic_swap s12, s[4:5], 0x10
s_atomic_cmpswap s[12:13], s[4:5], 0x10
s_atomic_add s12, s[4:5], 0x10
s_atomic_sub s12, s[4:5], 0x10
s_atomic_smin s12, s[4:5], 0x10
s_atomic_umin s12, s[4:5], 0x10
s_atomic_smax s12, s[4:5], 0x10
s_atomic_umax s12, s[4:5], 0x10
s_atomic_and s12, s[4:5], 0x10
s_atomic_or s12, s[4:5], 0x10
s_atomic_xor s12, s[4:5], 0x10
s_atomic_inc s12, s[4:5], 0x10
s_atomic_dec s12, s[4:5], 0x10
s_atomic_swap_x2 s[12:13], s[4:5], 0x10
s_atomic_cmpswap_x2 s[12:15], s[4:5], 0x10
s_atomic_add_x2 s[12:13], s[4:5], 0x10
s_atomic_sub_x2 s[12:13], s[4:5], 0x10
s_atomic_smin_x2 s[12:13], s[4:5], 0x10
s_atomic_umin_x2 s[12:13], s[4:5], 0x10
s_atomic_smax_x2 s[12:13], s[4:5], 0x10
s_atomic_umax_x2 s[12:13], s[4:5], 0x10
s_atomic_and_x2 s[12:13], s[4:5], 0x10
s_atomic_or_x2 s[12:13], s[4:5], 0x10
s_atomic_xor_x2 s[12:13], s[4:5], 0x10
s_atomic_inc_x2 s[12:13], s[4:5], 0x10
s_atomic_dec_x2 s[12:13], s[4:5], 0x10
