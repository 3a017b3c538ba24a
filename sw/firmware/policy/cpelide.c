/* CPElide: the kernel-boundary policy that elides L2 synchronisation the
 * Chiplet Coherence Table shows is not needed (docs/CPELIDE.md). Included by
 * aql_cp.c like policy/baseline.c; built into aql_cp_cpelide.elf.
 *
 * The table has one row per data structure (a buffer named by an access-mode
 * packet): its address range, whether any kernel wrote it, and per chiplet a
 * 2-bit state (NP not present, V valid, D dirty, S stale) with the byte range
 * of it that chiplet's L2 may hold. At each kernel launch, before any
 * workgroup runs, the rules below decide per chiplet:
 *   release (write back)   a chiplet holding D data that another chiplet of
 *                          this kernel will read or write;
 *   acquire (invalidate)   a chiplet that will access a structure it holds S,
 *                          or one whose stale copy another chiplet of this
 *                          kernel overwrites while it also uses the structure;
 * all commands at once, their acks counted before the launch. Writes by one
 * chiplet turn the other chiplets' overlapping copies S. L1s (the acquire side)
 * are written back and invalidated at every kernel start.
 *
 * Scopes: a kernel's Agent-scope acquire and release are elided by the table;
 * a System-scope acquire (the host may have written memory) invalidates every
 * chiplet that holds anything, and a System-scope release (the host will read)
 * writes back every dirty chiplet. A kernel without access modes, or whose
 * modes the table cannot follow, gets the baseline's acquire and release.
 *
 * Home L2s (CP_REG_L2_HOMES): where each chiplet's L2 holds only the lines
 * homed on its chiplet and serves the other chiplets' requests for them, a
 * line has one L2 copy, which every chiplet's reads and writes reach: no copy
 * can go stale and no other chiplet reads past a dirty one, so no Agent-scope
 * kernel boundary needs an L2 command whatever the kernels access, and the
 * table has nothing to decide. Which chiplets home a structure's dirty lines
 * depends on the pages' placement, which the CP does not see, so a
 * System-scope release writes back every chiplet's L2 (after any kernel since
 * the last one), and a System-scope acquire writes back and invalidates every
 * chiplet's. The requesters' rules above would be wrong there: they write
 * back the writers' L2s, while a chiplet's writes to another chiplet's lines
 * are dirty in the home's.
 *
 * Cost: the decision for a kernel is prepared while the previous one runs
 * (kernel_prepare, from aql_cp.c's look-ahead), and the kernel is recorded
 * after its start (kernel_started). A launch that finds no chiplet holding
 * anything needs no L2 command and does not wait for the modes at all. A
 * kernel seen again with the same modes and grid reuses its per-chiplet
 * ranges, and, while the table is unchanged since (the same generation), the
 * commands decided for it then, or the knowledge that recording it changes
 * nothing. */

#define POLICY_USES_ACCESS_MODES 1

#define CCT_ROWS 64u          /* 8 structures x 8 kernels, as the paper sizes it */
#define CCT_CHIPLETS 8u       /* more dispatchers: the baseline for every kernel */
#define CCT_PER_KERNEL 8u     /* more access modes in one kernel are coarsened to 8 */
#define CCT_GRANULE 256u      /* ranges widen to this, so that shared lines count as overlap */

enum cct_state { NP = 0, V = 1, D = 2, S = 3 };

struct cct_row {
  uint64_t base, end;            /* [base, end) */
  uint32_t lo[CCT_CHIPLETS];     /* offsets from base of the part chiplet c may hold */
  uint32_t hi[CCT_CHIPLETS];
  uint16_t states;               /* 2 bits per chiplet */
};

/* The table in the CP's private memory; a row is written before it is read. */
static struct cct_row cct[CCT_ROWS] __attribute__((section(".preserve")));
static unsigned cct_rows;
/* Chiplets whose L2 holds data of a kernel without access modes, or lines both
 * dirty and stale (shared_writers): the table does not know what, so they are
 * written back and invalidated before a kernel that it follows. */
static uint32_t untracked;
/* Whether the current kernel's release is the baseline's (no usable modes). */
static bool kernel_fell_back;
/* Whether the launched kernel's uses[] wait to be recorded (kernel_started). */
static bool record_pending;
/* A launch that found no chiplet holding anything started its kernel without
 * reading its access modes: kernel_started reads them (from these). */
static struct {
  const struct access_mode *modes;
  uint32_t n_modes, workgroups;
} unread;
static bool uses_unread;
/* Changes at every change of the table or of `untracked` (and only then): a
 * plan prepared under another generation is stale, and one made for the same
 * kernel under this generation is still right. */
static uint32_t cct_generation;

/* Home L2s: read once from CP_REG_L2_HOMES (-1: not yet read). */
static int l2_homes_state = -1;
static bool l2_homes(void) {
  if (l2_homes_state < 0) l2_homes_state = CP_REG(CP_REG_L2_HOMES) ? 1 : 0;
  return l2_homes_state != 0;
}
/* Home L2s: whether a kernel ran since every L2 was last written back. */
static bool homes_dirty;

/* One kernel's use of one structure, per chiplet. */
struct use {
  uint64_t base, end;
  uint32_t mode;
  uint32_t chiplets;             /* chiplets that touch it */
  uint32_t lo[CCT_CHIPLETS], hi[CCT_CHIPLETS];
  bool disjoint;                 /* no two of its chiplets' ranges overlap */
};
/* The uses of the last kernels read, by their access modes and grid: the
 * kernels of an iterative workload come back every iteration with the same
 * modes and grid, and take their uses from here instead of splitting the grid
 * and computing every chiplet's ranges again. In .preserve, as the table: a
 * slot is written before it is read (uses_known says which hold a kernel's),
 * and zeroing them at boot would cost some 15 000 instructions. */
#define USES_SLOTS 4u
static struct uses_slot {
  uint32_t n_modes, workgroups; /* the key: the kernel's modes (at most CCT_PER_KERNEL) and grid */
  struct access_mode modes[CCT_PER_KERNEL];
  unsigned n;                   /* its uses */
  struct use uses[CCT_PER_KERNEL + 1]; /* one more, to coarsen */
  /* The rules and the recording are functions of the table and the uses: what
   * they gave for this kernel under a generation holds while it lasts. */
  bool planned;                 /* wb and inv: its commands under plan_generation */
  bool record_unchanged;        /* recording it under unchanged_generation changed nothing */
  uint32_t wb, inv, plan_generation, unchanged_generation;
} uses_slots[USES_SLOTS] __attribute__((section(".preserve")));
static uint32_t uses_known;     /* slots that hold a kernel's uses */
static unsigned uses_next;      /* the slot a new kernel's uses go to */
/* The current kernel's uses: a slot's (read_uses sets it), and that slot if
 * it is kept for the kernel (NULL: more modes than a slot's key holds). */
static struct use *uses = uses_slots[0].uses;
static struct uses_slot *uses_slot;

static unsigned row_state(const struct cct_row *r, unsigned c) { return (r->states >> (2 * c)) & 3u; }
static void set_row_state(struct cct_row *r, unsigned c, unsigned s) {
  r->states = (uint16_t)((r->states & ~(3u << (2 * c))) | (s << (2 * c)));
}
static bool overlaps(uint32_t alo, uint32_t ahi, uint32_t blo, uint32_t bhi) { return alo < bhi && blo < ahi; }
/* The chiplets o whose copy in row r may overlap another chiplet's range of
 * use u, which the rules' inner loops must look at: those not NP, less those
 * whose range is u's own when u's ranges are disjoint (the same split as the
 * kernel that left it: then o's copy meets no other chiplet's range). */
static uint32_t to_check(const struct cct_row *r, const struct use *u) {
  uint32_t mask = 0;
  for (unsigned c = 0; c < n_dispatchers; ++c)
    if (row_state(r, c) != NP && !(u->disjoint && r->lo[c] == u->lo[c] && r->hi[c] == u->hi[c])) mask |= 1u << c;
  return mask;
}

/* One cache command per chiplet of `mask` (op[c]), issued together; returns
 * when all have acknowledged. */
static void chiplet_commands(uint32_t mask, const uint32_t *op) {
  uint32_t irqs = 0;
  for (unsigned c = 0; c < n_dispatchers; ++c)
    if (mask & (1u << c)) {
      CP_DREG(c, DISP_REG_CACHE_OP) = op[c];
      irqs |= CP_IRQ_DISPATCHER(c);
    }
  if (!irqs) return;
  wait_irqs(irqs);
  if (TRACE)
    for (unsigned c = 0; c < n_dispatchers; ++c)
      if (mask & (1u << c)) {
        boundary_lines_invalidated += CP_DREG(c, DISP_REG_LINES_INV);
        boundary_lines_written_back += CP_DREG(c, DISP_REG_LINES_WB);
      }
}

static uint32_t chiplets_in(unsigned state) {
  uint32_t mask = 0;
  for (unsigned i = 0; i < cct_rows; ++i)
    for (unsigned c = 0; c < n_dispatchers; ++c)
      if (row_state(&cct[i], c) == state) mask |= 1u << c;
  return mask;
}

/* Writes back the L2s of `wb` and invalidates those of `inv` (written back
 * first where dirty), then records what that did to every row. */
static void l2_commands(uint32_t wb, uint32_t inv) {
  uint32_t dirty = chiplets_in(D) | untracked, op[CP_MAX_DISPATCHERS];
  for (unsigned c = 0; c < n_dispatchers; ++c) {
    bool i = inv & (1u << c), w = (wb | dirty) & (1u << c);
    op[c] = DISP_CACHE_TO_RELEASE | (i ? (w ? DISP_CACHE_WB_INVALIDATE : DISP_CACHE_INVALIDATE) : DISP_CACHE_WRITEBACK);
  }
  chiplet_commands(wb | inv, op);
  ++cct_generation;
  for (unsigned i = 0; i < cct_rows; ++i)
    for (unsigned c = 0; c < n_dispatchers; ++c) {
      unsigned s = row_state(&cct[i], c);
      if (inv & (1u << c)) set_row_state(&cct[i], c, NP);
      else if ((wb & (1u << c)) && s == D) set_row_state(&cct[i], c, V);
    }
  untracked &= ~inv;
  /* Rows no chiplet holds any more are removed. */
  unsigned kept = 0;
  for (unsigned i = 0; i < cct_rows; ++i)
    if (cct[i].states) {
      if (kept != i) cct[kept] = cct[i]; /* a row copy is 22 words: none while nothing was removed */
      ++kept;
    }
  cct_rows = kept;
}

/* Every chiplet that holds anything: written back where dirty, invalidated. */
static void l2_clear_all(void) {
  l2_commands(0, chiplets_in(V) | chiplets_in(D) | chiplets_in(S) | untracked);
}

static void l1_acquire(void) {
  /* Write back first: a write-back L1 may still hold the previous kernel's
   * writes, which no kernel-end release moved to the L2. */
  cache_command(DISP_CACHE_WB_INVALIDATE | DISP_CACHE_TO_ACQUIRE);
}

/* a * b / c, rounded down; in 32 bits (one hardware division on RV32IM) when
 * the product fits, where a 64-bit division is a software routine. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c) {
  if (a <= UINT32_MAX && b <= UINT32_MAX && c <= UINT32_MAX && c != 0) {
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b; /* the test itself must not divide in 64 bits */
    if (b32 == 0 || a32 <= UINT32_MAX / b32) return a32 * b32 / (uint32_t)c;
  }
  return a * b / c;
}

/* The first workgroup of each chiplet, as kernel_dispatch splits the grid
 * (wg_first[n_dispatchers] is the end); computed once per launch. */
static uint32_t wg_first[CCT_CHIPLETS + 1];

static uint32_t wg_split_of; /* the grid wg_first[] was computed for; 0: none */

static void split_grid(uint32_t workgroups) {
  if (workgroups == wg_split_of) return; /* consecutive kernels mostly share their grid */
  for (unsigned c = 0; c <= n_dispatchers; ++c) wg_first[c] = (uint32_t)mul_div(c, workgroups, n_dispatchers);
  wg_split_of = workgroups;
}

/* The byte range chiplet c touches of use u, widened to granules. */
static void use_ranges(struct use *u, uint32_t workgroups) {
  uint64_t size = u->end - u->base;
  /* The common case, a buffer of a whole number of bytes per workgroup: its
   * shares are products, with no division per chiplet. */
  uint32_t size32 = (uint32_t)size; /* read_uses keeps structures below 4 GiB: 32-bit divisions */
  uint32_t per_workgroup = (u->mode & ACCESS_PARTITIONED) && size32 % workgroups == 0 ? size32 / workgroups : 0;
  for (unsigned c = 0; c < n_dispatchers; ++c) {
    uint32_t first = wg_first[c], end = wg_first[c + 1];
    if (end == first) u->chiplets &= ~(1u << c); /* runs no workgroup */
    if (per_workgroup) { /* all in 32 bits: the shares lie within the structure */
      u->lo[c] = (first * per_workgroup) & ~(CCT_GRANULE - 1);
      u->hi[c] = (end * per_workgroup + CCT_GRANULE - 1) & ~(CCT_GRANULE - 1);
      continue;
    }
    uint64_t lo = 0, hi = size;
    if (u->mode & ACCESS_PARTITIONED) {
      lo = mul_div(size, first, workgroups);
      hi = mul_div(size, end, workgroups);
      hi += hi * workgroups != size * end; /* rounded up */
    }
    u->lo[c] = (uint32_t)(lo & ~(uint64_t)(CCT_GRANULE - 1));
    u->hi[c] = (uint32_t)((hi + CCT_GRANULE - 1) & ~(uint64_t)(CCT_GRANULE - 1));
  }
  /* The ranges of a partitioned use increase with the chiplet: disjoint if
   * each ends before the next one's begins. */
  u->disjoint = (u->mode & ACCESS_PARTITIONED) != 0;
  for (unsigned c = 0, prev = CCT_CHIPLETS; c < n_dispatchers && u->disjoint; ++c) {
    if (!(u->chiplets & (1u << c))) continue;
    if (prev != CCT_CHIPLETS && u->hi[prev] > u->lo[c]) u->disjoint = false;
    prev = c;
  }
}

/* More than CCT_PER_KERNEL structures: merge the two closest in memory
 * (contiguous ones first, distance 0) until they fit; the merged use covers
 * both, all their chiplets, the whole range on each, R/W if either is. */
static unsigned coarsen(unsigned n) {
  while (n > CCT_PER_KERNEL) {
    unsigned bi = 0, bj = 1;
    uint64_t best = UINT64_MAX;
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = 0; j < n; ++j) {
        if (i == j || uses[j].base < uses[i].base) continue;
        uint64_t gap = uses[j].base > uses[i].end ? uses[j].base - uses[i].end : 0;
        if (gap < best) best = gap, bi = i, bj = j;
      }
    struct use *a = &uses[bi], *b = &uses[bj];
    if (b->end > a->end) a->end = b->end;
    a->mode = ((a->mode & ACCESS_MODE_MASK) == ACCESS_READ_WRITE || (b->mode & ACCESS_MODE_MASK) == ACCESS_READ_WRITE)
                  ? ACCESS_READ_WRITE : ACCESS_READ_ONLY;
    a->chiplets |= b->chiplets;
    uses[bj] = uses[--n];
  }
  return n;
}

static bool same_modes(const struct access_mode *a, const struct access_mode *b, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (a[i].base != b[i].base || a[i].size != b[i].size || a[i].mode != b[i].mode || a[i].chiplets != b[i].chiplets)
      return false;
  return true;
}

/* The slot that holds this kernel's uses, or NULL. */
static struct uses_slot *known_uses(const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups) {
  for (unsigned k = 0; k < USES_SLOTS; ++k) {
    struct uses_slot *s = &uses_slots[k];
    if ((uses_known & (1u << k)) && s->n_modes == n_modes && s->workgroups == workgroups &&
        same_modes(s->modes, modes, n_modes))
      return s;
  }
  return NULL;
}

static bool compute_uses(const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups, unsigned *n_out);

/* Sets uses[] to the dispatch's uses (*n_out of them): those of a kernel seen
 * with the same modes and grid, or computed now into the next slot; false if
 * the table cannot follow them (none, too large, too many chiplets). */
static bool read_uses(const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups, unsigned *n_out) {
  if (n_modes == 0 || n_dispatchers > CCT_CHIPLETS) return false;
  if (n_modes <= CCT_PER_KERNEL) {
    struct uses_slot *known = known_uses(modes, n_modes, workgroups);
    if (known) {
      uses = known->uses;
      uses_slot = known;
      *n_out = known->n;
      return true;
    }
  }
  unsigned k = uses_next;
  uses_next = (k + 1) % USES_SLOTS;
  struct uses_slot *s = &uses_slots[k];
  uses_known &= ~(1u << k);
  uses = s->uses;
  uses_slot = NULL;
  if (!compute_uses(modes, n_modes, workgroups, n_out)) return false;
  if (n_modes <= CCT_PER_KERNEL) { /* more would be coarsened: not kept */
    s->planned = s->record_unchanged = false;
    uses_slot = s;
    s->n_modes = n_modes;
    s->workgroups = workgroups;
    for (uint32_t i = 0; i < n_modes; ++i) { /* field by field: a struct copy is a call to a byte-wise memcpy */
      s->modes[i].base = modes[i].base;
      s->modes[i].size = modes[i].size;
      s->modes[i].mode = modes[i].mode;
      s->modes[i].chiplets = modes[i].chiplets;
    }
    s->n = *n_out;
    uses_known |= 1u << k;
  }
  return true;
}

/* read_uses' work for a kernel not seen before: its access modes into uses[].
 * Keeps at most CCT_PER_KERNEL + 1 before coarsening, then merges as it goes. */
static bool compute_uses(const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups, unsigned *n_out) {
  unsigned n = 0;
  uint32_t all = (1u << n_dispatchers) - 1;
  for (uint32_t i = 0; i < n_modes; ++i) {
    const struct access_mode *m = &modes[i];
    if (m->size == 0 || m->size > UINT32_MAX - CCT_GRANULE || m->base + m->size < m->base) return false;
    struct use *u = &uses[n++];
    u->base = m->base;
    u->end = m->base + m->size;
    u->mode = m->mode;
    u->chiplets = m->chiplets ? (m->chiplets & all) : all;
    if (n > CCT_PER_KERNEL) n = coarsen(n);
  }
  split_grid(workgroups);
  for (unsigned i = 0; i < n; ++i) {
    if (uses[i].end - uses[i].base > UINT32_MAX - CCT_GRANULE) return false;
    use_ranges(&uses[i], workgroups);
  }
  *n_out = n;
  return true;
}

/* The row of use u: an exact match, or a new row; NULL if u overlaps a row
 * only in part or the table is full. */
static struct cct_row *find_row(const struct use *u) {
  for (unsigned i = 0; i < cct_rows; ++i) {
    struct cct_row *r = &cct[i];
    if (r->base == u->base && r->end == u->end) return r;
    if (r->base < u->end && u->base < r->end) return NULL;
  }
  if (cct_rows == CCT_ROWS) return NULL;
  struct cct_row *r = &cct[cct_rows++];
  r->base = u->base;
  r->end = u->end;
  r->states = 0;
  return r;
}

static bool writes(const struct use *u) { return (u->mode & ACCESS_MODE_MASK) != ACCESS_READ_ONLY; }

/* The rules: which chiplets release (wb) and acquire (inv) for use u. */
static void decide(const struct cct_row *r, const struct use *u, uint32_t *wb, uint32_t *inv) {
  uint32_t check = to_check(r, u);
  for (unsigned c = 0; c < n_dispatchers; ++c) {
    if (!(u->chiplets & (1u << c))) continue;
    if (row_state(r, c) == S) *inv |= 1u << c;
    for (unsigned o = 0; check && o < n_dispatchers; ++o) {
      if (o == c || !(check & (1u << o)) || !overlaps(r->lo[o], r->hi[o], u->lo[c], u->hi[c])) continue;
      unsigned so = row_state(r, o);
      if (so == D) *wb |= 1u << o;
      /* o's copy goes stale while o uses the structure in this kernel too:
       * one state cannot say both, so o starts clean. */
      if (writes(u) && (u->chiplets & (1u << o))) *inv |= 1u << o;
    }
  }
}

/* Chiplets that write overlapping ranges of u in one kernel. Each may have
 * cached a line the other writes part of, so its copy is dirty (its own
 * bytes) and stale (the other's) at once, which no state says: lud's
 * kernels, which declare the whole matrix read-write on every chiplet, read
 * such stale bytes without this. */
static uint32_t shared_writers(const struct use *u) {
  uint32_t mask = 0;
  if (!writes(u) || u->disjoint) return 0;
  for (unsigned c = 0; c < n_dispatchers; ++c)
    for (unsigned o = c + 1; o < n_dispatchers; ++o)
      if ((u->chiplets & (1u << c)) && (u->chiplets & (1u << o)) && overlaps(u->lo[c], u->hi[c], u->lo[o], u->hi[o]))
        mask |= (1u << c) | (1u << o);
  return mask;
}

/* What this kernel leaves in the table for use u; false if that is what the
 * row (and `untracked`) already said. */
static bool record(struct cct_row *r, const struct use *u) {
  uint32_t shared = shared_writers(u);
  bool changed = (shared & ~untracked) != 0;
  untracked |= shared;
  uint32_t check = writes(u) ? to_check(r, u) : 0;
  if (check)
    for (unsigned c = 0; c < n_dispatchers; ++c) {
      if (!(u->chiplets & (1u << c))) continue;
      for (unsigned o = 0; o < n_dispatchers; ++o)
        if (o != c && (check & (1u << o)) && overlaps(r->lo[o], r->hi[o], u->lo[c], u->hi[c])) {
          changed |= row_state(r, o) != S;
          set_row_state(r, o, S);
        }
    }
  for (unsigned c = 0; c < n_dispatchers; ++c) {
    if (!(u->chiplets & (1u << c))) continue;
    unsigned s = row_state(r, c);
    if (s == NP) {
      r->lo[c] = u->lo[c];
      r->hi[c] = u->hi[c];
    } else if (u->lo[c] < r->lo[c] || u->hi[c] > r->hi[c]) {
      if (u->lo[c] < r->lo[c]) r->lo[c] = u->lo[c];
      if (u->hi[c] > r->hi[c]) r->hi[c] = u->hi[c];
      changed = true;
    }
    unsigned now = writes(u) || s == D ? D : V;
    changed |= now != s;
    set_row_state(r, c, now);
  }
  return changed;
}

/* The baseline's acquire, after the table's chiplets are made current: the
 * kernel's data is unknown, so every L2 starts empty and memory current. */
static void fall_back(uint16_t header) {
  kernel_fell_back = true;
  uint32_t all = (1u << n_dispatchers) - 1;
  if (AQL_HEADER_ACQUIRE_SCOPE(header) != AQL_SCOPE_NONE) {
    l1_acquire();
    l2_commands(all, (debug & CP_DEBUG_SKIP_ACQUIRE) ? 0 : all);
  }
  untracked = all; /* from now on the L2s hold data the table does not know */
  ++cct_generation;
}

/* The decision for the next kernel, made while the previous one runs
 * (kernel_prepare) from the table as that kernel left it: valid while the
 * table's generation is unchanged. uses[] holds the kernel's uses. */
static struct {
  unsigned n;
  uint32_t wb, inv, generation;
} plan;

/* The rules over the kernel's uses (uses[0..n)) against the table as it is,
 * without changing it; false if the table cannot follow them (a use that
 * covers a row only in part, or no room for the new rows). */
static bool plan_commands(unsigned n) {
  struct uses_slot *slot = uses_slot;
  if (slot && slot->planned && slot->plan_generation == cct_generation) { /* the table is as it was then */
    plan.n = n;
    plan.wb = slot->wb;
    plan.inv = slot->inv;
    plan.generation = cct_generation;
    return true;
  }
  uint32_t wb = 0, inv = untracked;
  unsigned missing = 0;
  for (unsigned i = 0; i < n; ++i) {
    const struct use *u = &uses[i];
    const struct cct_row *row = NULL;
    for (unsigned k = 0; k < cct_rows && !row; ++k) {
      const struct cct_row *r = &cct[k];
      if (r->base == u->base && r->end == u->end) row = r;
      else if (r->base < u->end && u->base < r->end) return false;
    }
    if (row) {
      decide(row, u, &wb, &inv);
      continue;
    }
    ++missing; /* a new row: no chiplet holds it yet */
    for (unsigned j = 0; j < i; ++j) /* two of the kernel's structures overlap in part */
      if (uses[j].base < u->end && u->base < uses[j].end && (uses[j].base != u->base || uses[j].end != u->end))
        return false;
  }
  if (cct_rows + missing > CCT_ROWS) return false;
  plan.n = n;
  plan.wb = wb;
  plan.inv = inv;
  plan.generation = cct_generation;
  if (slot) {
    slot->planned = true;
    slot->wb = wb;
    slot->inv = inv;
    slot->plan_generation = cct_generation;
  }
  return true;
}

/* Home L2s: one command to every chiplet's L2 (DISP_CACHE_WRITEBACK or
 * DISP_CACHE_WB_INVALIDATE); a write-back when no kernel ran since the last
 * one is skipped (nothing can be dirty). */
static void homes_command(uint32_t op) {
  if (op == DISP_CACHE_WRITEBACK && !homes_dirty) return;
  uint32_t ops[CP_MAX_DISPATCHERS];
  for (unsigned c = 0; c < n_dispatchers; ++c)
    ops[c] = DISP_CACHE_TO_RELEASE | (homes_dirty ? op : (op & ~DISP_CACHE_WRITEBACK));
  chiplet_commands((1u << n_dispatchers) - 1, ops);
  homes_dirty = false;
}

/* Home L2s: a kernel's acquire. L1s as always; the L2s only at System scope
 * (the host may have written memory behind them). */
static void homes_kernel_acquire(uint16_t header) {
  unsigned scope = AQL_HEADER_ACQUIRE_SCOPE(header);
  if (scope != AQL_SCOPE_NONE) l1_acquire();
  if (scope == AQL_SCOPE_SYSTEM && !(debug & CP_DEBUG_SKIP_ACQUIRE)) homes_command(DISP_CACHE_WB_INVALIDATE);
  homes_dirty = true;
}

/* While the previous kernel runs: reads the next dispatch's modes and
 * decides its commands. False if the launch must decide itself. */
static bool kernel_prepare(uint16_t header, const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups) {
  unsigned n = 0;
  if (l2_homes()) return false; /* nothing to decide: homes_kernel_acquire */
  if (AQL_HEADER_ACQUIRE_SCOPE(header) == AQL_SCOPE_SYSTEM) return false; /* the table is cleared first */
  return read_uses(modes, n_modes, workgroups, &n) && plan_commands(n);
}

/* The launch's acquire: L1s always; the L2 commands the table asks for,
 * decided now unless a plan prepared ahead is still current. The kernel is
 * recorded in the table after its dispatchers have started (kernel_started). */
static void kernel_acquire(uint16_t header, const struct access_mode *modes, uint32_t n_modes, uint32_t workgroups,
                           bool prepared) {
  kernel_fell_back = false;
  record_pending = uses_unread = false;
  if (l2_homes()) {
    homes_kernel_acquire(header);
    return;
  }
  unsigned scope = AQL_HEADER_ACQUIRE_SCOPE(header);
  bool decide_now = !prepared || plan.generation != cct_generation;
  if (decide_now && cct_rows == 0 && !untracked) {
    /* No chiplet holds anything (the first kernel, or all were invalidated):
     * no L2 command can be needed, whatever the modes say, so the kernel
     * starts without waiting for them; kernel_started reads them. */
    if (scope != AQL_SCOPE_NONE) l1_acquire();
    unread.modes = modes;
    unread.n_modes = n_modes;
    unread.workgroups = workgroups;
    uses_unread = true;
    return;
  }
  unsigned n = 0;
  if (decide_now && !read_uses(modes, n_modes, workgroups, &n)) {
    fall_back(header);
    return;
  }
  /* L1s first: a write-back L1 may still hold the previous kernel's writes,
   * which must reach the L2 before the L2 is written back. */
  if (scope != AQL_SCOPE_NONE) l1_acquire();
  if (decide_now) {
    if (scope == AQL_SCOPE_SYSTEM) l2_clear_all();
    if (!plan_commands(n)) {
      /* Table full, or a structure seen with other bounds: start over empty. */
      l2_clear_all();
      cct_rows = 0;
      ++cct_generation;
      if (!plan_commands(n)) { /* two of this kernel's structures overlap in part */
        fall_back(header);
        return;
      }
    }
  }
  uint32_t wb = plan.wb, inv = plan.inv;
  if (debug & CP_DEBUG_SKIP_RELEASE) wb = 0;
  if (debug & CP_DEBUG_SKIP_ACQUIRE) inv = 0;
  if (wb | inv) l2_commands(wb, inv);
  record_pending = true;
}

/* With the kernel's dispatchers started: what it leaves in the table.
 * l2_commands may have removed rows; find_row re-creates them empty, which is
 * what a removed row meant. */
static void kernel_started(void) {
  if (uses_unread) {
    uses_unread = false;
    unsigned n = 0;
    /* Against the empty table plan_commands only checks the uses; a kernel
     * the table cannot follow gets what fall_back leaves (its L2 commands
     * had nothing to do on empty L2s): untracked, the baseline's release. */
    if (!read_uses(unread.modes, unread.n_modes, unread.workgroups, &n) || !plan_commands(n)) {
      kernel_fell_back = true;
      untracked = (1u << n_dispatchers) - 1;
      ++cct_generation;
      return;
    }
    record_pending = true;
  }
  if (!record_pending) return;
  record_pending = false;
  struct uses_slot *slot = uses_slot;
  if (slot && slot->record_unchanged && slot->unchanged_generation == cct_generation)
    return; /* the same kernel was recorded against this very table, and changed nothing */
  bool changed = false;
  for (unsigned i = 0; i < plan.n; ++i) {
    unsigned rows = cct_rows;
    struct cct_row *r = find_row(&uses[i]);
    if (!r) { /* cannot happen: plan_commands checked the room */
      untracked |= uses[i].chiplets;
      changed = true;
      continue;
    }
    bool created = cct_rows != rows;
    changed |= record(r, &uses[i]) || created;
  }
  if (changed) {
    ++cct_generation;
  } else if (slot) {
    slot->record_unchanged = true;
    slot->unchanged_generation = cct_generation;
  }
}

/* A barrier-AND's acquire: the host may have written any buffer. */
static void acquire(uint16_t header) {
  if (AQL_HEADER_ACQUIRE_SCOPE(header) == AQL_SCOPE_NONE) return;
  l1_acquire();
  if (debug & CP_DEBUG_SKIP_ACQUIRE) return;
  if (l2_homes()) homes_command(DISP_CACHE_WB_INVALIDATE);
  else l2_clear_all();
}

/* At a packet's end. After a kernel the table followed, an Agent-scope release
 * is elided (lazy: a later kernel's launch writes back what another chiplet
 * needs); a System-scope one, and a barrier's, make memory current for the
 * host. After a fallback kernel, the baseline's release. */
static void release(uint16_t header) {
  unsigned scope = AQL_HEADER_RELEASE_SCOPE(header);
  if (scope == AQL_SCOPE_NONE || (debug & CP_DEBUG_SKIP_RELEASE)) return;
  bool barrier = AQL_HEADER_TYPE(header) == AQL_TYPE_BARRIER_AND;
  if (l2_homes()) {
    if (scope == AQL_SCOPE_SYSTEM || barrier) homes_command(DISP_CACHE_WRITEBACK);
    return;
  }
  if (kernel_fell_back) { /* the baseline's release: every L2 written back */
    kernel_fell_back = false;
    l2_commands((1u << n_dispatchers) - 1, 0);
    return;
  }
  if (scope == AQL_SCOPE_SYSTEM || barrier) l2_commands(chiplets_in(D) | untracked, 0);
}
