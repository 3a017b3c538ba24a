/* Calibration: read streams by home chiplet (two kernels: calib_link and,
 * below, calib_link_pipelined). The chiplet network places pages
 * of 256 float4s (4 KiB) round-robin over `chiplets` chiplets, and the
 * command processor gives chiplet c the workgroups [c x share, (c + 1) x
 * share) of the grid. With `reader` < chiplets, only the reader's workgroups
 * read, and only pages homed on the other chiplets: every byte crosses the
 * links into the reader. With `reader` == chiplets, every chiplet's workgroups
 * read pages homed on their own chiplet: each chiplet streams its own memory.
 * A reading workgroup w reads its chiplet's pages w, w + share, ... (four
 * independent loads per loop step, one float4 per work-item and page) and each
 * work-item writes its sum; the other workgroups write 0. `pages` (pages per
 * reading chiplet) must be a multiple of 4 x share; workgroups of 256. */
#include "tessera_device.h"

/* Page q of chiplet c's pages: the reader's q-th page homed elsewhere, or
 * the q-th page homed on c. */
static uint page_of(uint q, uint chiplets, uint reader, uint c) {
  if (reader == chiplets) return q * chiplets + c;
  const uint others = chiplets - 1u;
  const uint r = q % others;
  return (q / others) * chiplets + r + (r >= reader ? 1u : 0u);
}

__kernel void calib_link(__global const float4* in, __global float* out, uint pages, uint chiplets, uint reader,
                         uint share) {
  const uint w = (uint)get_group_id(0);
  const uint t = (uint)get_local_id(0);
  const uint c = w / share;
  if (reader != chiplets && c != reader) {
    out[get_global_id(0)] = 0.0f;
    return;
  }
  float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
  for (uint q = w % share; q < pages; q += 4u * share) {
    a0 += in[page_of(q, chiplets, reader, c) * 256u + t];
    a1 += in[page_of(q + share, chiplets, reader, c) * 256u + t];
    a2 += in[page_of(q + 2u * share, chiplets, reader, c) * 256u + t];
    a3 += in[page_of(q + 3u * share, chiplets, reader, c) * 256u + t];
  }
  const float4 s = a0 + a1 + a2 + a3;
  out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}

/* calib_link_pipelined: the same pages, sums and arguments as calib_link, with
 * each wave's next loop step's four loads issued before it waits for the
 * step before (software pipelining): a wave then always has a step in flight,
 * so the link into the reader does not idle a round trip between steps, as it
 * does under calib_link, whose waves all wait for their step's loads and so
 * finish their steps together (docs/TIMING.md, "Where a stream's bandwidth
 * goes"). clang keeps no load in flight across a loop iteration by itself (it
 * rotates such a loop back into load-then-wait), so on the GPU the loads are
 * issued by inline assembly and the waits are explicit `s_waitcnt vmcnt`:
 * four loads per step, in order, so vmcnt(4) after the next step's four
 * loads means this step's have arrived. The steps go in pairs with two sets
 * of registers, so that no register a load is still writing is copied. */

/* Page q of a workgroup's sequence (page_of) as q = base x others + r, kept
 * up to date without a division per step. */
typedef struct {
  uint base, r;
} PageCursor;

static PageCursor cursor_at(uint q, uint others) {
  PageCursor k = {q / others, q % others};
  return k;
}

static void cursor_advance(PageCursor* k, uint dbase, uint dr, uint others) {
  k->base += dbase;
  k->r += dr;
  if (k->r >= others) {
    k->r -= others;
    k->base += 1u;
  }
}

#if TESSERA_GPU
static float4 load_ahead(__global const float4* p) {
  float4 v;
  __asm__ volatile("global_load_dwordx4 %0, %1, off" : "=v"(v) : "v"(p) : "memory");
  return v;
}
/* Wait until at most n loads are in flight; the registers pass through the
 * statement so that nothing reads them before it. */
#define LINK_WAIT(n, x) \
  __asm__ volatile("s_waitcnt vmcnt(" #n ")" : "+v"(x##0), "+v"(x##1), "+v"(x##2), "+v"(x##3) : : "memory")
#else
static float4 load_ahead(__global const float4* p) { return *p; }
#define LINK_WAIT(n, x) ((void)0)
#endif

/* The page a cursor is at, for chiplet c's workgroup (page_of). */
#define LINK_AT(k) (in + ((k).base * chiplets + (own ? c : (k).r + ((k).r >= reader ? 1u : 0u))) * 256u + t)
#define LINK_NEXT()                         \
  do {                                      \
    cursor_advance(&k0, dbase, dr, others); \
    cursor_advance(&k1, dbase, dr, others); \
    cursor_advance(&k2, dbase, dr, others); \
    cursor_advance(&k3, dbase, dr, others); \
  } while (0)
#define LINK_LOAD(x)                \
  do {                              \
    x##0 = load_ahead(LINK_AT(k0)); \
    x##1 = load_ahead(LINK_AT(k1)); \
    x##2 = load_ahead(LINK_AT(k2)); \
    x##3 = load_ahead(LINK_AT(k3)); \
  } while (0)
#define LINK_ADD(x) \
  do {              \
    a0 += x##0;     \
    a1 += x##1;     \
    a2 += x##2;     \
    a3 += x##3;     \
  } while (0)

__kernel void calib_link_pipelined(__global const float4* in, __global float* out, uint pages, uint chiplets,
                                   uint reader, uint share) {
  const uint w = (uint)get_group_id(0);
  const uint t = (uint)get_local_id(0);
  const uint c = w / share;
  if (reader != chiplets && c != reader) {
    out[get_global_id(0)] = 0.0f;
    return;
  }
  const bool own = reader == chiplets;
  const uint others = own ? 1u : chiplets - 1u;
  const uint step = 4u * share, dbase = step / others, dr = step % others;
  const uint q = w % share;
  PageCursor k0 = cursor_at(q, others), k1 = cursor_at(q + share, others), k2 = cursor_at(q + 2u * share, others),
             k3 = cursor_at(q + 3u * share, others);
  const uint steps = pages / step;
  float4 a0 = (float4)(0.0f), a1 = a0, a2 = a0, a3 = a0;
  if (steps & 1u) { /* an odd step first, on its own: the rest go in pairs */
    float4 z0, z1, z2, z3;
    LINK_LOAD(z);
    LINK_WAIT(0, z);
    LINK_ADD(z);
    LINK_NEXT();
  }
  if (steps >= 2u) {
    float4 x0, x1, x2, x3, y0, y1, y2, y3;
    LINK_LOAD(x);
    for (uint pairs = steps / 2u; pairs > 1u; --pairs) {
      LINK_NEXT();
      LINK_LOAD(y);
      LINK_WAIT(4, x);
      LINK_ADD(x);
      LINK_NEXT();
      LINK_LOAD(x);
      LINK_WAIT(4, y);
      LINK_ADD(y);
    }
    LINK_NEXT();
    LINK_LOAD(y);
    LINK_WAIT(4, x);
    LINK_ADD(x);
    LINK_WAIT(0, y);
    LINK_ADD(y);
  }
  const float4 s = a0 + a1 + a2 + a3;
  out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}
