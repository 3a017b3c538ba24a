// BDI decompression assist warps (docs/CABA.md, "Assist warps"), one routine
// per encoding, as the paper's Algorithm 1: the base and the deltas are
// loaded into the assist warp's registers at once, each in the width of the
// encoding, and one masked vector add rebuilds the values; the lanes of values
// with the implicit zero base are off in the active mask and keep their delta.
// The controller picks the routine from the line's encoding (the burst-count
// metadata and the encoding byte at the head of the image, models/mem/bdi.h).
//
// Live in (the loads of the image, AssistWarpStore::start_decompress): value j
// of the line (k bytes: k = 8 for zeros, repeated and base8, 4 for base4, 2
// for base2) belongs to lane j, for j < 64; values 64 to 127 (base2 of a
// 256-byte line) to lane j - 64 of v3.
//   v2   (v3 for base2) the delta of value j, sign-extended to 32 bits as a
//        load of d bytes leaves it
//   s[2:3] the base (k bytes, zero-extended)
//   s[4:5] the base mask: bit j set when value j uses the explicit base
//   s[6:7] the base mask of values 64 to 127
//   EXEC the lanes of the line's values (the first min(n, 64) lanes)
// Live out: value j in lane j: v2 (k = 4; the low 16 bits for k = 2; values
// 64 to 127 in v3), v[2:3] (k = 8: low and high dword).
// Clobbers v4, vcc, EXEC.

.include "routine.inc"

.macro END name
  ROUTINE_END \name, 5, 8
.endm

// base8: a 64-bit add of the base to the sign-extended delta.
.macro BASE8 name
ROUTINE \name
  v_ashrrev_i32 v3, 31, v2              // the delta's high dword
  s_and_b64 exec, exec, s[4:5]          // the values with the explicit base
  v_mov_b32 v4, s3
  v_add_co_u32 v2, vcc, s2, v2
  v_addc_co_u32 v3, vcc, v4, v3, vcc
  s_endpgm
END \name
.endm

// base4: a 32-bit add.
.macro BASE4 name
ROUTINE \name
  s_and_b64 exec, exec, s[4:5]
  v_add_u32 v2, s2, v2
  s_endpgm
END \name
.endm

  .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"

ROUTINE bdi_decompress_zeros
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  s_endpgm
END bdi_decompress_zeros

ROUTINE bdi_decompress_repeated         // the value is the base
  v_mov_b32 v2, s2
  v_mov_b32 v3, s3
  s_endpgm
END bdi_decompress_repeated

BASE8 bdi_decompress_b8d1
BASE8 bdi_decompress_b8d2
BASE8 bdi_decompress_b8d4
BASE4 bdi_decompress_b4d1
BASE4 bdi_decompress_b4d2

// base2: a 32-bit add whose low 16 bits are the value (a 16-bit store keeps
// them); values 64 to 127 in v3 with their own mask (none below 256 bytes).
ROUTINE bdi_decompress_b2d1
  s_and_b64 exec, exec, s[4:5]
  v_add_u32 v2, s2, v2
  s_mov_b64 exec, s[6:7]
  v_add_u32 v3, s2, v3
  s_endpgm
END bdi_decompress_b2d1
