// Encodings the assembler does not produce but llvm-objdump decodes, given as
// raw words: printing rules found by differential testing against llvm-objdump.
.long 0x604ea2ff, 0xc57d72fe  // 16-bit operand: only the literal's low half (v_max_i16 0x72fe)
.long 0x42a180ff, 0xbf800000  // v_subrev_f16 with literal 0xbf800000 prints 0
.long 0x84aa7d55              // SGPR code 125 is null
.long 0xb17dd255              // s_cmpk_eq_i32 null, 0xd255
.long 0xe010d60e, 0xccb573d9  // MUBUF scc bit
.long 0xdf0c92b9, 0xbf800000  // FLAT scc bit
.long 0xeab477d2, 0x14a0f9e7  // MTBUF scc bit
.long 0xeb8a25fc, 0x41cbcc3a  // MTBUF format with the default dfmt: only nfmt printed
.long 0xc2327e2d, 0x40d28406  // SMEM offset is 21-bit signed
.long 0xc0a10547, 0x626467ba  // s_dcache_discard with an SGPR offset (7-bit field), no glc printed
.long 0xc09f7362, 0x3f6f4e11  // s_atc_probe_buffer sdata immediate in hex
.long 0xbaa6b8e6              // s_call_b64 offset printed unsigned
.long 0x7fd0a4af              // v_accvgpr_mov_b32: AGPR source from the low 8 bits
.long 0xd3d840af, 0x180000af  // v_accvgpr_read_b32 likewise
.long 0x7e22a21e              // v_swap_b32: VGPR source from the low 8 bits
.long 0xd1ee26fc, 0xe084237f  // v_fma_legacy_f16 has no op_sel
.long 0xd1c49dd0, 0x6471fde4  // v_cubeid_f32 has no op_sel
.long 0xd3c9ad79, 0x781247b3  // MFMA with an SGPR tuple as C
.long 0xd3c862cf, 0xc8f1f9c1  // MFMA 32x32 with one SGPR as C
.long 0xd3a2c132, 0xc8a94814  // v_fma_mixhi_f16 negated constant: neg(36)
.long 0xe00e3be1, 0x1e7a55da  // resource starting at xnack_mask
.long 0xc12e6df3, 0x280da853  // s_buffer_atomic_inc on flat_scratch
.long 0x70ba90f0              // v_dot2c_i32_i16 sources are 32-bit operands
.long 0x2eae05cf, 0xbf800000  // v_madmk_f32 K in hex
.long 0x30cbc97d, 0xbf800000  // v_madak_f32 K in hex
.long 0xbf8e51aa              // s_sleep above 64 in hex
.long 0xbf8f0041              // s_setprio 0x41
.long 0x6fdc0cfa, 0xb07503b7  // v_dot2c_f32_f16_dpp takes float modifiers
.long 0xbedb17ff, 0x113f8ae3  // s_sext_i32_i16 reads a 32-bit operand: the whole literal
.long 0x72ce20fa, 0xd0ff5371  // DPP row_newbcast
.long 0x09c6d4fa, 0xd8a67e89  // 64-bit DPP supports only row_newbcast
.long 0xbf90a992              // sendmsg with a valid message ignores the unused bits
.long 0xbf90005d              // sendmsg(13, 5, 0): an unnamed message in numbers
.long 0xbf901f44              // an invalid message with unused bits set: the raw value
.long 0xd1dd56a2, 0x44f9526a  // v_cvt_pk_u8_f32: sext on the byte select, no modifiers on src2
.long 0x7ec29ef7              // v_sat_pk_u8_i16 reads a 32-bit operand
.long 0x7fd8a2d5              // v_swap_b32 with src0 bit 8 clear is still a VGPR
.long 0xc0914ea9, 0xd3e97604  // s_memtime never prints glc
.long 0x4b052eff, 0xcf9b96c4  // v_madak_f16 with a literal src0 sharing the K dword
.long 0x48b9ccff, 0xbebc554a  // v_madmk_f16 likewise
.long 0xe2f787d7, 0x154672f3  // buffer_store_lds_dword
.long 0xc027b9bf, 0xb4987a50  // an SMEM resource starting at exec
.long 0xc05e1f50, 0x9f969791  // SMEM data tuple starting at null
.long 0xd1c40000, 0x00000000  // VOP3 with every field zero
.long 0x00454efa, 0xe21e9fb6  // v_cndmask_b32_dpp has no source modifiers
.long 0x66b3cefa, 0xbeef76f5  // DPP integer source of a float op: sext
.long 0xd2880000, 0x60020501  // VOP3 likewise: v_ldexp_f32 v0, -v1, sext(v2)
.long 0xde571363, 0xe900cf98  // FLAT offset is 13 bits, unsigned
.long 0x02dcfcf9, 0xe2955b2c  // SDWA dst_unused 3 prints as UNUSED_PAD
.long 0xe2f54658, 0x7c5de061  // buffer_store_lds_dword: lds before glc
.long 0x6f4b2cff, 0x0be1f3b7  // v_dot2c_f32_f16 literal: the low half
.long 0x7eaaa4fa              // v_accvgpr_mov_b32 from a250: no DPP escape
.long 0x003492fa, 0x5b296ee7  // DPP row_xmask (GFX10) on gfx90a
.long 0x7c2be8f9, 0xca123718  // v_cmpx_class_f16 class mask is a 32-bit operand
