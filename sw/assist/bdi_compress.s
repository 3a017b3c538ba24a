// BDI compression assist warps (docs/CABA.md, "Assist warps"): choose a
// line's encoding as models/mem/bdi.h defines it, testing each encoding with
// one value per lane (the paper's parallel test, Algorithm 2).
//
// bdi_compress tests every encoding (zeros, repeated 8-byte values,
// base8-delta1/2/4, base4-delta1/2, base2-delta1) and keeps the smallest
// stored image among those that fit (the earlier encoding on a tie), as
// bdi::compress does. bdi_compress_<encoding> tests that one encoding first
// (the controller starts it with the encoding it chose last: "applications
// with homogeneous data structures can typically use the same encoding for
// most of their cache lines"); it keeps it when the line fits it in an image
// smaller than the line, and otherwise goes on to the full test.
//
// Live in:  v0   line dword i in lane i
//           s1   the line's size in bytes (a multiple of 8, at most 256)
//           EXEC the lanes of the line's dwords
// Live out: s0   the encoding (bdi::Encoding: 0 zeros ... 7 b2d1, 8 uncompressed)
// Clobbers v1-v7, s2-s27, vcc; EXEC is the live-in one again at the end.
//
// s10 collects the encodings that fit (bit e for encoding e); s[20:21] is the
// line's lanes.

// Bk-delta test for k = 4 and a delta of \width bits: every value is small
// (a signed delta from the zero base) or near the first value that is not.
// With none that is not, s_ff1 gives -1 and the base is never used.
.macro TEST4 width, bit
  v_bfe_i32 v2, v0, 0, \width
  v_cmp_eq_u32_e64 s[12:13], v2, v0         // small
  s_andn2_b64 s[14:15], s[20:21], s[12:13]
  s_ff1_i32_b64 s16, s[14:15]               // the base's lane
  s_and_b32 s16, s16, 63
  v_readlane_b32 s17, v0, s16
  v_subrev_u32 v3, s17, v0                  // value - base
  v_bfe_i32 v2, v3, 0, \width
  v_cmp_eq_u32_e64 s[18:19], v2, v3         // near the base
  s_or_b64 s[12:13], s[12:13], s[18:19]
  s_and_b64 s[12:13], s[12:13], s[20:21]
  s_cmp_eq_u64 s[12:13], s[20:21]
  s_cselect_b32 s11, 1 << \bit, 0
  s_or_b32 s10, s10, s11
.endm

// Bk-delta test for k = 8 (value j in lane j: low dword v4, high v5) and a
// delta of 32 - \shift bits; EXEC is the values' lanes.
.macro TEST8 shift, bit
  v_lshlrev_b32 v2, \shift, v4
  v_ashrrev_i32 v2, \shift, v2
  v_ashrrev_i32 v3, 31, v2
  v_cmp_eq_u32_e64 s[12:13], v2, v4
  v_cmp_eq_u32_e64 s[18:19], v3, v5
  s_and_b64 s[12:13], s[12:13], s[18:19]    // small
  s_andn2_b64 s[14:15], exec, s[12:13]
  s_ff1_i32_b64 s16, s[14:15]
  s_and_b32 s16, s16, 63
  v_readlane_b32 s17, v4, s16
  v_readlane_b32 s23, v5, s16
  v_subrev_co_u32 v6, vcc, s17, v4
  v_mov_b32 v7, s23
  v_subb_co_u32 v7, vcc, v5, v7, vcc        // value - base, 64 bits
  v_lshlrev_b32 v2, \shift, v6
  v_ashrrev_i32 v2, \shift, v2
  v_ashrrev_i32 v3, 31, v2
  v_cmp_eq_u32_e64 s[18:19], v2, v6
  v_cmp_eq_u32_e64 s[26:27], v3, v7
  s_and_b64 s[18:19], s[18:19], s[26:27]    // near the base
  s_or_b64 s[12:13], s[12:13], s[18:19]
  s_and_b64 s[12:13], s[12:13], exec
  s_cmp_eq_u64 s[12:13], exec
  s_cselect_b32 s11, 1 << \bit, 0
  s_or_b32 s10, s10, s11
.endm

// Keeps encoding \e (values of 1 << \kshift bytes, \d-byte deltas) in s0 if
// it fits and its image is smaller than the best so far (s2 bytes).
.macro CHOOSE e, kshift, d
  s_bitcmp1_b32 s10, \e
  s_cbranch_scc0 .Lskip\@
  s_lshr_b32 s3, s1, \kshift                // n values
  s_add_u32 s4, s3, 7
  s_lshr_b32 s4, s4, 3                      // base mask bytes
  s_mul_i32 s3, s3, \d
  s_add_u32 s3, s3, s4
  s_add_u32 s3, s3, 1 + (1 << \kshift)      // + the encoding byte and the base
  s_cmp_lt_u32 s3, s2
  s_cselect_b32 s0, \e, s0
  s_cselect_b32 s2, s3, s2
.Lskip\@:
.endm


.include "routine.inc"

.macro END name
  ROUTINE_END \name, 8, 28
.endm

.macro SETUP
  s_mov_b64 s[20:21], exec
  s_mov_b32 s10, 0
  v_mbcnt_lo_u32_b32 v1, -1, 0
  v_mbcnt_hi_u32_b32 v1, -1, v1             // v1 = lane
.endm

.macro TEST_ZEROS
  v_cmp_eq_u32_e64 s[12:13], 0, v0
  s_cmp_eq_u64 s[12:13], s[20:21]
  s_cselect_b32 s11, 1, 0
  s_or_b32 s10, s10, s11
.endm

// repeated: dword i equals dword i % 2
.macro TEST_REPEATED
  v_and_b32 v2, 1, v1
  v_lshlrev_b32 v2, 2, v2
  ds_bpermute_b32 v3, v2, v0
  s_waitcnt lgkmcnt(0)
  v_cmp_eq_u32_e64 s[12:13], v3, v0
  s_cmp_eq_u64 s[12:13], s[20:21]
  s_cselect_b32 s11, 2, 0
  s_or_b32 s10, s10, s11
.endm

// base8: value j's dwords gathered into lane j (v4 low, v5 high), then EXEC
// the values' lanes (BASE8_DONE gives the line's lanes back).
.macro BASE8_VALUES
  v_lshlrev_b32 v2, 3, v1
  ds_bpermute_b32 v4, v2, v0
  v_add_u32 v2, 4, v2
  ds_bpermute_b32 v5, v2, v0
  s_waitcnt lgkmcnt(0)
  s_lshr_b32 s22, s1, 3
  s_bfm_b64 s[24:25], s22, 0
  s_mov_b64 exec, s[24:25]
.endm

.macro BASE8_DONE
  s_mov_b64 exec, s[20:21]
.endm

// base2-delta1: lane i holds values 2i (low half) and 2i + 1 (high half)
.macro TEST2
  v_bfe_i32 v2, v0, 0, 16
  v_bfe_i32 v3, v0, 0, 8
  v_cmp_eq_u32_e64 s[12:13], v2, v3         // low value small
  v_bfe_i32 v6, v0, 16, 16
  v_bfe_i32 v3, v0, 16, 8
  v_cmp_eq_u32_e64 s[14:15], v6, v3         // high value small
  s_andn2_b64 s[16:17], s[20:21], s[12:13]
  s_andn2_b64 s[18:19], s[20:21], s[14:15]
  s_or_b64 s[24:25], s[16:17], s[18:19]
  s_ff1_i32_b64 s22, s[24:25]               // the lane of the first value not small
  s_and_b32 s22, s22, 63
  v_readlane_b32 s23, v0, s22
  s_lshr_b64 s[16:17], s[16:17], s22
  s_bitcmp1_b32 s16, 0                      // its low value is not small: the base
  s_cselect_b32 s22, 0, 16
  s_lshr_b32 s23, s23, s22
  s_sext_i32_i16 s23, s23
  v_subrev_u32 v3, s23, v2
  v_bfe_i32 v7, v3, 0, 16
  v_bfe_i32 v3, v3, 0, 8
  v_cmp_eq_u32_e64 s[16:17], v7, v3         // low value near the base
  s_or_b64 s[12:13], s[12:13], s[16:17]
  v_subrev_u32 v3, s23, v6
  v_bfe_i32 v7, v3, 0, 16
  v_bfe_i32 v3, v3, 0, 8
  v_cmp_eq_u32_e64 s[16:17], v7, v3         // high value near the base
  s_or_b64 s[14:15], s[14:15], s[16:17]
  s_and_b64 s[12:13], s[12:13], s[14:15]
  s_and_b64 s[12:13], s[12:13], s[20:21]
  s_cmp_eq_u64 s[12:13], s[20:21]
  s_cselect_b32 s11, 0x80, 0
  s_or_b32 s10, s10, s11
.endm

// Ends with encoding \e (values of 1 << \kshift bytes, \d-byte deltas) if
// the line fits it in an image smaller than the line; else the full test.
.macro KEEP e, kshift, d
  s_mov_b32 s0, 8
  s_mov_b32 s2, s1
  CHOOSE \e, \kshift, \d
  s_cmp_lg_u32 s0, 8
  s_cbranch_scc0 .Lfull_test
  s_endpgm
.endm

  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"

ROUTINE bdi_compress
  SETUP
.Lfull_test:
  s_mov_b32 s10, 0
  TEST_ZEROS
  TEST_REPEATED
  TEST4 8, 5
  TEST4 16, 6
  BASE8_VALUES
  TEST8 24, 2
  TEST8 16, 3
  TEST8 0, 4
  BASE8_DONE
  TEST2
  // the choice
  s_mov_b32 s0, 0
  s_bitcmp1_b32 s10, 0
  s_cbranch_scc1 .Ldone                     // zeros
  s_mov_b32 s0, 1
  s_bitcmp1_b32 s10, 1
  s_cselect_b32 s3, 1, 0
  s_cmp_lt_u32 s1, 10                       // repeated only when its 9 bytes are smaller
  s_cselect_b32 s3, 0, s3
  s_cmp_eq_u32 s3, 1
  s_cbranch_scc1 .Ldone
  s_mov_b32 s0, 8                           // uncompressed
  s_mov_b32 s2, s1
  CHOOSE 2, 3, 1
  CHOOSE 3, 3, 2
  CHOOSE 4, 3, 4
  CHOOSE 5, 2, 1
  CHOOSE 6, 2, 2
  CHOOSE 7, 1, 1
.Ldone:
  s_endpgm
END bdi_compress

ROUTINE bdi_compress_zeros
  SETUP
  TEST_ZEROS
  s_mov_b32 s0, 0
  s_bitcmp1_b32 s10, 0
  s_cbranch_scc0 .Lfull_test
  s_endpgm
END bdi_compress_zeros

ROUTINE bdi_compress_repeated
  SETUP
  TEST_REPEATED
  s_mov_b32 s0, 1
  s_bitcmp1_b32 s10, 1
  s_cbranch_scc0 .Lfull_test
  s_cmp_lt_u32 s1, 10                       // its 9 bytes are not smaller
  s_cbranch_scc1 .Lfull_test
  s_endpgm
END bdi_compress_repeated

.macro FIRST8 name, shift, e, d
ROUTINE \name
  SETUP
  BASE8_VALUES
  TEST8 \shift, \e
  BASE8_DONE
  KEEP \e, 3, \d
END \name
.endm

FIRST8 bdi_compress_b8d1, 24, 2, 1
FIRST8 bdi_compress_b8d2, 16, 3, 2
FIRST8 bdi_compress_b8d4, 0, 4, 4

ROUTINE bdi_compress_b4d1
  SETUP
  TEST4 8, 5
  KEEP 5, 2, 1
END bdi_compress_b4d1

ROUTINE bdi_compress_b4d2
  SETUP
  TEST4 16, 6
  KEEP 6, 2, 2
END bdi_compress_b4d2

ROUTINE bdi_compress_b2d1
  SETUP
  TEST2
  KEEP 7, 1, 1
END bdi_compress_b2d1
