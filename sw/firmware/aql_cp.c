/* aql_cp: the command processor's AQL packet processor. It serves the queues
 * the host programs in the CP's queue registers and never halts:
 *   kernel dispatch  the policy's acquire, one contiguous range of workgroups
 *                    per dispatcher, wait for all ranges, the policy's release
 *                    (the baseline, policy/baseline.c: invalidate the CU-side
 *                    caches, then L2; write back L2, keeping clean copies);
 *   barrier-AND      completes once its dependency signals are all 0;
 *   vendor-specific  format TESSERA_ACCESS_MODES: the access modes of the
 *                    buffers of the queue's next kernel dispatch.
 * A queue's packets complete in order: the slot is marked INVALID, the read
 * index advances, the completion signal is decremented and the host notified.
 * When no queue can make progress the core sleeps until an interrupt.
 * docs/FIRMWARE.md describes the protocol; cp_regs.h the registers. */
#include <stdbool.h>
#include <stdio.h>

#include "tessera/cp_fw.h"

#define MAX_ACCESS_MODES 32u

struct access_mode {
  uint64_t base, size;
  uint32_t mode;     /* ACCESS_* */
  uint32_t chiplets; /* mask of chiplets; 0: all */
};

struct queue {
  uint32_t read;  /* packets before it are done; mirrors CP_QUEUE_READ */
  uint32_t modes; /* entries of access_modes[q] for the next kernel dispatch */
};

static struct queue queues[CP_MAX_QUEUES];
/* In .preserve, which the start-up code leaves as it is: clearing these 6 KiB
 * byte by byte would cost some 25 000 instructions at boot. An entry is always
 * written before it is read. */
static struct access_mode access_modes[CP_MAX_QUEUES][MAX_ACCESS_MODES] __attribute__((section(".preserve")));
static unsigned n_queues, n_dispatchers;
static uint32_t debug;       /* CP_REG_DEBUG, fixed by the netlist */
static uint64_t dispatch_id; /* kernel dispatches so far, over all queues */
static bool doorbell_seen;   /* wait_irqs() acknowledged a doorbell */
/* Lines the cache commands of the current packet touched (for the trace). */
static uint32_t boundary_lines_invalidated, boundary_lines_written_back;

#define TRACE (debug & CP_DEBUG_TRACE)

static uint32_t all_dispatchers(void) {
  uint32_t mask = 0;
  for (unsigned d = 0; d < n_dispatchers; ++d) mask |= CP_IRQ_DISPATCHER(d);
  return mask;
}

/* Sleeps until every line of `mask` has been raised. Each line is
 * acknowledged as soon as it is seen, so the next command's interrupt can be
 * told apart. A pending doorbell is acknowledged as well, or SLEEP would return
 * at once for the rest of a long kernel; doorbell_seen makes the main loop look
 * at the queues again before it sleeps, so that doorbell is not lost. */
static void wait_irqs(uint32_t mask) {
  uint32_t seen = 0;
  for (;;) {
    uint32_t ack = CP_REG(CP_REG_IRQ_PENDING) & ((mask & ~seen) | CP_IRQ_DOORBELL);
    if (ack) CP_REG(CP_REG_IRQ_ACK) = ack;
    if (ack & CP_IRQ_DOORBELL) doorbell_seen = true;
    seen |= ack & mask;
    if (seen == mask) return;
    CP_REG(CP_REG_SLEEP) = 1;
  }
}

/* One cache command on every dispatcher. A dispatcher runs one command at a
 * time, so all must finish before the next command is issued. */
static void cache_command(uint32_t op) {
  for (unsigned d = 0; d < n_dispatchers; ++d) CP_DREG(d, DISP_REG_CACHE_OP) = op;
  wait_irqs(all_dispatchers());
  if (TRACE) /* only when tracing: each register read costs time */
    for (unsigned d = 0; d < n_dispatchers; ++d) {
      boundary_lines_invalidated += CP_DREG(d, DISP_REG_LINES_INV);
      boundary_lines_written_back += CP_DREG(d, DISP_REG_LINES_WB);
    }
}

/* The kernel-boundary policy: acquire(header) at a packet's start and
 * release(header) at its end, from one file (policy/baseline.c unless the
 * build names another through AQL_CP_POLICY). It is compiled as part of this
 * file, so that it may use what is above (cache_command, debug, n_dispatchers)
 * and the access modes, and costs no call across files. */
#ifndef AQL_CP_POLICY
#define AQL_CP_POLICY "policy/baseline.c"
#endif
#include AQL_CP_POLICY

#ifdef POLICY_USES_ACCESS_MODES
/* A policy that uses access modes reads packets ahead, so their device-memory
 * reads are on its critical path: it reads a packet's fields from a copy in
 * SRAM, made with one copy-engine request instead of the 10-20 window accesses
 * (100 CP cycles each) that a packet's fields take. Copies are kept per ring
 * slot (PKT_COPIES consecutive slots: the running packet and those read ahead)
 * until the packet completes, and only while its header is valid: the host
 * writes the header last, and may rewrite the slot once the packet is done. */
#define PKT_COPIES 4u
static uint64_t pkt_copy_addr[PKT_COPIES]; /* the packet in each copy; 0: none */
/* The bytes in .preserve: they are read only where their address says they
 * were copied, and zeroing them at boot would cost some 1 000 instructions. */
static uint8_t pkt_copy_bytes[PKT_COPIES][AQL_PACKET_BYTES] __attribute__((section(".preserve"), aligned(8)));

static unsigned copy_slot(uint64_t pkt) { return (unsigned)(pkt / AQL_PACKET_BYTES) % PKT_COPIES; }
static const uint8_t *packet(uint64_t pkt) {
  unsigned i = copy_slot(pkt);
  if (pkt_copy_addr[i] == pkt) return pkt_copy_bytes[i];
  dev_copy(pkt_copy_bytes[i], pkt, AQL_PACKET_BYTES);
  uint16_t header;
  __builtin_memcpy(&header, pkt_copy_bytes[i], sizeof header);
  pkt_copy_addr[i] = AQL_HEADER_TYPE(header) == AQL_TYPE_INVALID ? 0 : pkt;
  return pkt_copy_bytes[i];
}
/* Copies the `count` packets from `pkt` on with one copy-engine request (one
 * latency instead of one per packet): they must be consecutive in the ring
 * and in the copies, and published (below the doorbell). */
static void copy_packets(uint64_t pkt, unsigned count) {
  unsigned first = copy_slot(pkt);
  dev_copy(pkt_copy_bytes[first], pkt, count * AQL_PACKET_BYTES);
  for (unsigned k = 0; k < count; ++k) {
    uint16_t header;
    __builtin_memcpy(&header, pkt_copy_bytes[first + k], sizeof header);
    pkt_copy_addr[first + k] = AQL_HEADER_TYPE(header) == AQL_TYPE_INVALID ? 0 : pkt + k * AQL_PACKET_BYTES;
  }
}
static void packet_done(uint64_t pkt) {
  unsigned i = copy_slot(pkt);
  if (pkt_copy_addr[i] == pkt) pkt_copy_addr[i] = 0;
}
/* A queue destroyed or re-created: its ring's memory may hold new packets. */
static void forget_packets(void) {
  for (unsigned i = 0; i < PKT_COPIES; ++i) pkt_copy_addr[i] = 0;
}
/* Inlined with their constant offsets, and the copy's alignment stated: AQL
 * fields are naturally aligned, so each read is one or two loads where an
 * unknown alignment would make it a call to memcpy. */
#define PKT_FIELD(pkt) ((const uint8_t *)__builtin_assume_aligned(packet(pkt), 8))
static inline __attribute__((always_inline)) uint16_t pkt_read16(uint64_t pkt, unsigned off) {
  uint16_t v;
  __builtin_memcpy(&v, PKT_FIELD(pkt) + off, sizeof v);
  return v;
}
static inline __attribute__((always_inline)) uint32_t pkt_read32(uint64_t pkt, unsigned off) {
  uint32_t v;
  __builtin_memcpy(&v, PKT_FIELD(pkt) + off, sizeof v);
  return v;
}
static inline __attribute__((always_inline)) uint64_t pkt_read64(uint64_t pkt, unsigned off) {
  uint64_t v;
  __builtin_memcpy(&v, PKT_FIELD(pkt) + off, sizeof v);
  return v;
}
#else /* the baseline reads each field through the window */
#define pkt_read16(pkt, off) dev_read16((pkt) + (off))
#define pkt_read32(pkt, off) dev_read32((pkt) + (off))
#define pkt_read64(pkt, off) dev_read64((pkt) + (off))
#define packet_done(pkt) ((void)0)
#define forget_packets() ((void)0)
#endif

/* The first n access modes of queue q that are read-only (for the trace; the
 * baseline policy does not use the modes otherwise). */
static unsigned read_only_modes(unsigned q, uint32_t n) {
  unsigned count = 0;
  for (uint32_t i = 0; i < n; ++i) count += access_modes[q][i].mode == ACCESS_READ_ONLY;
  return count;
}

struct geometry {
  uint32_t grid[3], wg[3];
  uint32_t workgroups; /* product over the dimensions of ceil(grid / wg) */
};

/* Reads a dispatch's grid; returns why it is unusable, or NULL. */
static const char *read_geometry(uint64_t pkt, struct geometry *g) {
  unsigned dims = pkt_read16(pkt, AQL_KD_SETUP) & 3u;
  if (dims == 0) return "no dimensions";
  uint64_t total = 1;
  for (unsigned i = 0; i < 3; ++i) {
    g->grid[i] = g->wg[i] = 1; /* unused dimensions */
    if (i >= dims) continue;
    g->wg[i] = pkt_read16(pkt, AQL_KD_WORKGROUP_X + 2 * i);
    g->grid[i] = pkt_read32(pkt, AQL_KD_GRID_X + 4 * i);
    if (g->wg[i] == 0) return "zero workgroup size";
    if (g->grid[i] == 0) return "zero grid size";
    total *= g->grid[i] / g->wg[i] + (g->grid[i] % g->wg[i] != 0);
    if (total > UINT32_MAX) return "more than 2^32-1 workgroups";
  }
  g->workgroups = (uint32_t)total;
  return NULL;
}

#ifdef POLICY_USES_ACCESS_MODES /* defined after vendor_packet */
static bool read_ahead(unsigned q, uint32_t index);
static bool prepared_here(unsigned q, uint32_t index);
static void look_ahead(unsigned q, uint32_t index);
#endif

#ifdef POLICY_USES_ACCESS_MODES
/* The first workgroup of dispatcher d: d * workgroups / dispatchers, in 32
 * bits (one hardware division) when the product fits, where a 64-bit division
 * is a software routine of some 50 instructions. */
static uint32_t split_point(unsigned d, uint32_t workgroups) {
  if (workgroups <= UINT32_MAX / CP_MAX_DISPATCHERS) return d * workgroups / n_dispatchers;
  return (uint32_t)((uint64_t)d * workgroups / n_dispatchers);
}
#else
#define split_point(d, workgroups) ((uint32_t)((uint64_t)(d) * (workgroups) / n_dispatchers))
#endif

static void kernel_dispatch(unsigned q, uint32_t index, uint64_t pkt, uint16_t header) {
  struct queue *qs = &queues[q];
  uint32_t n_modes = qs->modes;
  qs->modes = 0; /* the access modes apply to this dispatch only */

  struct geometry g;
  const char *bad = read_geometry(pkt, &g);
  uint64_t kernel_object = pkt_read64(pkt, AQL_KD_KERNEL_OBJECT);
  if (!bad && kernel_object == 0) bad = "kernel_object 0";
  if (!bad && n_dispatchers == 0) bad = "no dispatchers";
  if (bad) {
    printf("aql_cp: queue %u packet %lu: bad kernel dispatch (%s), completed without running\n", q,
           (unsigned long)index, bad);
    return;
  }

  uint64_t id = dispatch_id++;
  boundary_lines_invalidated = boundary_lines_written_back = 0;
  uint64_t t0 = cp_cycles();
#ifdef POLICY_USES_ACCESS_MODES /* the policy acts on the dispatch's access modes and grid split */
  kernel_acquire(header, access_modes[q], n_modes, g.workgroups, prepared_here(q, index));
#else
  acquire(header);
#endif
  uint64_t t1 = cp_cycles();

  /* Dispatcher d runs workgroups [d*total/D, (d+1)*total/D). */
  uint32_t started = 0;
  for (unsigned d = 0; d < n_dispatchers; ++d) {
    uint32_t first = split_point(d, g.workgroups);
    uint32_t end = split_point(d + 1, g.workgroups);
    if (end == first) continue;
    CP_DREG(d, DISP_REG_PACKET_LO) = (uint32_t)pkt;
    CP_DREG(d, DISP_REG_PACKET_HI) = (uint32_t)(pkt >> 32);
    CP_DREG(d, DISP_REG_QUEUE_LO) = CP_QREG(q, CP_QUEUE_DESC_LO);
    CP_DREG(d, DISP_REG_QUEUE_HI) = CP_QREG(q, CP_QUEUE_DESC_HI);
    CP_DREG(d, DISP_REG_ID_LO) = (uint32_t)id;
    CP_DREG(d, DISP_REG_ID_HI) = (uint32_t)(id >> 32);
    CP_DREG(d, DISP_REG_WG_FIRST) = first;
    CP_DREG(d, DISP_REG_WG_COUNT) = end - first;
    CP_DREG(d, DISP_REG_START) = 1;
    started |= CP_IRQ_DISPATCHER(d);
  }
#ifdef POLICY_USES_ACCESS_MODES
  /* While the kernel runs: the policy records it, and prepares the next
   * dispatch of the queue if the host has already written it. */
  kernel_started();
  look_ahead(q, index);
#endif
  wait_irqs(started);
  uint64_t t2 = cp_cycles();

  /* A wave fault (DISP_STATUS_FAULT) reaches the host through the dispatcher;
   * a packet the dispatcher refused is only visible here. */
  for (unsigned d = 0; d < n_dispatchers; ++d)
    if ((started & CP_IRQ_DISPATCHER(d)) && (CP_DREG(d, DISP_REG_STATUS) & DISP_STATUS_BAD_PACKET))
      printf("aql_cp: queue %u packet %lu: dispatcher %u refused the packet\n", q, (unsigned long)index, d);

  release(header);
  CP_REG(CP_REG_LAUNCHES) = CP_REG(CP_REG_LAUNCHES) + 1;

  if (TRACE) {
    uint64_t t3 = cp_cycles();
    printf("aql_cp: queue %u packet %lu: dispatch %lu grid %lux%lux%lu wg %lux%lux%lu = %lu workgroups, "
           "kernarg %lu B, %lu access modes (%u read-only); cycles %lu (acquire %lu, kernel %lu, release %lu); "
           "L2 and CU-side lines invalidated %lu, written back %lu\n",
           q, (unsigned long)index, (unsigned long)id, (unsigned long)g.grid[0], (unsigned long)g.grid[1],
           (unsigned long)g.grid[2], (unsigned long)g.wg[0], (unsigned long)g.wg[1], (unsigned long)g.wg[2],
           (unsigned long)g.workgroups, (unsigned long)dev_read32(kernel_object + KD_KERNARG_SIZE),
           (unsigned long)n_modes, read_only_modes(q, n_modes), (unsigned long)(t3 - t0), (unsigned long)(t1 - t0),
           (unsigned long)(t2 - t1), (unsigned long)(t3 - t2), (unsigned long)boundary_lines_invalidated,
           (unsigned long)boundary_lines_written_back);
  }
}

/* Barrier-AND: false while a dependency signal is not 0 (the queue waits). */
static bool barrier_and(unsigned q, uint32_t index, uint64_t pkt, uint16_t header) {
  unsigned deps = 0;
  for (unsigned i = 0; i < AQL_BARRIER_DEPS; ++i) {
    uint64_t signal = pkt_read64(pkt, AQL_BARRIER_DEP(i));
    if (signal == 0) continue;
    if (dev_read64(signal + SIGNAL_VALUE) != 0) return false;
    ++deps;
  }
  acquire(header);
  release(header);
  if (TRACE) printf("aql_cp: queue %u packet %lu: barrier-and, %u dependencies\n", q, (unsigned long)index, deps);
  return true;
}

static void unsupported(unsigned q, uint32_t index, uint16_t header) {
  printf("aql_cp: queue %u packet %lu: unsupported packet (header 0x%04x), completed without effect\n", q,
         (unsigned long)index, header);
}

#ifdef POLICY_USES_ACCESS_MODES
/* n access-mode entries at device address `entry`, with one copy-engine request
 * (MAX_ACCESS_MODES entries fit one). */
static void read_entries(struct access_mode *out, uint64_t entry, uint32_t n) {
  static uint8_t raw[MAX_ACCESS_MODES * ACCESS_ENTRY_BYTES] __attribute__((section(".preserve"), aligned(8)));
  if (n == 0) return;
  dev_copy(raw, entry, n * ACCESS_ENTRY_BYTES);
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t *e = raw + i * ACCESS_ENTRY_BYTES;
    __builtin_memcpy(&out[i].base, e, 8);
    __builtin_memcpy(&out[i].size, e + 8, 8);
    __builtin_memcpy(&out[i].mode, e + 16, 4);
    __builtin_memcpy(&out[i].chiplets, e + 20, 4);
  }
}
#endif

/* Vendor-specific: only TESSERA_ACCESS_MODES. Its entries are added to the
 * queue's table, which the next kernel dispatch of the queue consumes. */
static void vendor_packet(unsigned q, uint32_t index, uint64_t pkt, uint16_t header) {
  if (pkt_read16(pkt, AQL_VENDOR_FORMAT) != TESSERA_ACCESS_MODES) {
    unsupported(q, index, header);
    return;
  }
#ifdef POLICY_USES_ACCESS_MODES
  if (read_ahead(q, index)) return; /* its entries were read while the previous kernel ran */
#endif
  struct queue *qs = &queues[q];
  uint32_t count = pkt_read32(pkt, AQL_VENDOR_COUNT);
  uint64_t entry = pkt_read64(pkt, AQL_VENDOR_ENTRIES);
  uint32_t room = MAX_ACCESS_MODES - qs->modes;
  uint32_t n = count < room ? count : room;
#ifdef POLICY_USES_ACCESS_MODES
  read_entries(&access_modes[q][qs->modes], entry, n);
  qs->modes += n;
#else
  for (uint32_t i = 0; i < n; ++i, entry += ACCESS_ENTRY_BYTES) {
    struct access_mode *m = &access_modes[q][qs->modes++];
    m->base = dev_read64(entry);
    m->size = dev_read64(entry + 8);
    m->mode = dev_read32(entry + 16);
    m->chiplets = dev_read32(entry + 20);
  }
#endif
  if (n < count)
    printf("aql_cp: queue %u packet %lu: %lu access modes, only %u kept\n", q, (unsigned long)index,
           (unsigned long)count, (unsigned)MAX_ACCESS_MODES);
  if (TRACE) printf("aql_cp: queue %u packet %lu: %lu access modes\n", q, (unsigned long)index, (unsigned long)n);
}

#ifdef POLICY_USES_ACCESS_MODES
/* Look-ahead, as AQL allows: while a kernel runs, the packets the host has
 * already published after it are visible. The access-mode packets that follow
 * the running kernel are read then (ahead[q].first .. end), and the next
 * kernel dispatch, if it is there, is handed to the policy to prepare
 * (kernel_prepare), so that its launch costs only the cache commands. */
static struct look {
  bool valid;
  uint32_t first, end; /* access-mode packets [first, end) already read */
  uint32_t dispatch;   /* the dispatch prepared, if prepared */
  bool prepared;
} ahead[CP_MAX_QUEUES];
static unsigned last_prepared_queue; /* the policy keeps one plan: the latest */

/* Whether access-mode packet `index` of queue q was read by the look-ahead. */
static bool read_ahead(unsigned q, uint32_t index) {
  const struct look *a = &ahead[q];
  return a->valid && (int32_t)(index - a->first) >= 0 && (int32_t)(a->end - index) > 0;
}
/* Whether dispatch `index` of queue q was prepared (and the plan is still
 * that one's); ends the queue's look-ahead. */
static bool prepared_here(unsigned q, uint32_t index) {
  struct look *a = &ahead[q];
  bool yes = a->valid && a->prepared && a->dispatch == index && last_prepared_queue == q;
  a->valid = false; /* one dispatch per look-ahead */
  return yes;
}

static bool is_access_modes(uint64_t pkt, uint16_t header) {
  return AQL_HEADER_TYPE(header) == AQL_TYPE_VENDOR_SPECIFIC && pkt_read16(pkt, AQL_VENDOR_FORMAT) == TESSERA_ACCESS_MODES;
}

/* Called with kernel `index` of queue q running (its access modes consumed). */
static void look_ahead(unsigned q, uint32_t index) {
  struct look *a = &ahead[q];
  a->valid = true;
  a->prepared = false;
  a->first = a->end = index + 1;
  uint32_t size = CP_QREG(q, CP_QUEUE_SIZE);
  uint64_t ring = ((uint64_t)CP_QREG(q, CP_QUEUE_RING_HI) << 32) | CP_QREG(q, CP_QUEUE_RING_LO);
  /* The published packets after the running one (an access-mode packet and
   * the next dispatch, typically) in one copy: at most the copies other than
   * the running packet's, without wrapping around the ring or the copies. */
  uint32_t published = CP_QREG(q, CP_QUEUE_DOORBELL) - (index + 1);
  if ((int32_t)published > 0 && published < size) {
    uint64_t next = ring + (uint64_t)((index + 1) % size) * AQL_PACKET_BYTES;
    unsigned count = published < PKT_COPIES - 1 ? published : PKT_COPIES - 1;
    if (count > PKT_COPIES - copy_slot(next)) count = PKT_COPIES - copy_slot(next);
    if (count > size - (index + 1) % size) count = size - (index + 1) % size;
    if (count > 1) copy_packets(next, count);
  }
  for (uint32_t i = index + 1; (int32_t)(CP_QREG(q, CP_QUEUE_DOORBELL) - i) > 0 && i - index < size; ++i) {
    uint64_t pkt = ring + (uint64_t)(i % size) * AQL_PACKET_BYTES;
    uint16_t header = pkt_read16(pkt, 0);
    if (is_access_modes(pkt, header)) {
      vendor_packet(q, i, pkt, header); /* adds its entries to the queue's table */
      a->end = i + 1;
      continue;
    }
    struct geometry g;
    if (AQL_HEADER_TYPE(header) == AQL_TYPE_KERNEL_DISPATCH && !read_geometry(pkt, &g)) {
      a->dispatch = i;
      a->prepared = kernel_prepare(header, access_modes[q], queues[q].modes, g.workgroups);
      last_prepared_queue = q;
    }
    return; /* anything else (a barrier, a packet still being written) ends the look-ahead */
  }
}
#endif

/* Runs one packet; false if it cannot complete yet. */
static bool process(unsigned q, uint32_t index, uint64_t pkt, uint16_t header) {
  switch (AQL_HEADER_TYPE(header)) {
    case AQL_TYPE_KERNEL_DISPATCH:
      kernel_dispatch(q, index, pkt, header);
      return true;
    case AQL_TYPE_BARRIER_AND:
      return barrier_and(q, index, pkt, header);
    case AQL_TYPE_VENDOR_SPECIFIC:
      vendor_packet(q, index, pkt, header);
      return true;
    default:
      unsupported(q, index, header);
      return true;
  }
}

/* Hands the slot back and signals completion. The slot is released first, so
 * a host woken by the signal finds the read index already past the packet. */
static void complete(unsigned q, uint32_t index, uint64_t pkt) {
  uint64_t signal = pkt_read64(pkt, AQL_COMPLETION_SIGNAL); /* before the host may reuse the slot */
  packet_done(pkt);
  dev_write16(pkt, AQL_TYPE_INVALID);
  queues[q].read = index + 1;
  CP_QREG(q, CP_QUEUE_READ) = index + 1;
  if (signal) {
    uint64_t value = signal + SIGNAL_VALUE;
    dev_write64(value, dev_read64(value) - 1);
    CP_REG(CP_REG_HOST_NOTIFY) = q;
  }
}

/* Runs queue q until it is empty, blocked on a barrier or at a packet the host
 * is still writing; true if a packet completed. */
static bool serve_queue(unsigned q) {
  struct queue *qs = &queues[q];
  uint32_t size = CP_QREG(q, CP_QUEUE_SIZE);
  if (size == 0) { /* not created, or destroyed: a new queue starts at index 0 */
    if (qs->read != 0) forget_packets(); /* destroyed since the last look */
    qs->read = 0;
    qs->modes = 0;
#ifdef POLICY_USES_ACCESS_MODES
    ahead[q].valid = false;
#endif
    return false;
  }
  if (CP_QREG(q, CP_QUEUE_READ) != qs->read) { /* re-created by the host: its indices restart */
    qs->read = CP_QREG(q, CP_QUEUE_READ);
    qs->modes = 0;
#ifdef POLICY_USES_ACCESS_MODES
    ahead[q].valid = false;
#endif
    forget_packets();
  }
  uint64_t ring = ((uint64_t)CP_QREG(q, CP_QUEUE_RING_HI) << 32) | CP_QREG(q, CP_QUEUE_RING_LO);
  bool progress = false;
  /* Indices are 32 bits: compare by difference so that they may wrap. */
  while ((int32_t)(CP_QREG(q, CP_QUEUE_DOORBELL) - qs->read) > 0) {
    uint32_t index = qs->read;
    uint64_t pkt = ring + (uint64_t)(index % size) * AQL_PACKET_BYTES;
    uint16_t header = pkt_read16(pkt, 0);
    if (AQL_HEADER_TYPE(header) == AQL_TYPE_INVALID) break; /* the host writes the header last */
    if (!process(q, index, pkt, header)) break;
    complete(q, index, pkt);
    progress = true;
  }
  return progress;
}

static bool serve_queues(void) {
  bool progress = false;
  for (unsigned q = 0; q < n_queues; ++q) progress |= serve_queue(q);
  return progress;
}

static unsigned min_u(unsigned a, unsigned b) { return a < b ? a : b; }

int main(void) {
  if (CP_REG(CP_REG_ID) != CP_ID_VALUE) {
    printf("aql_cp: unexpected CP id 0x%08lx (expected 0x%08lx)\n", (unsigned long)CP_REG(CP_REG_ID),
           (unsigned long)CP_ID_VALUE);
    cp_halt(2);
  }
  n_dispatchers = min_u(CP_REG(CP_REG_DISPATCHERS), CP_MAX_DISPATCHERS);
  n_queues = min_u(CP_REG(CP_REG_QUEUES), CP_MAX_QUEUES);
  debug = CP_REG(CP_REG_DEBUG);
  if (TRACE) printf("aql_cp: %u queues, %u dispatchers, debug 0x%lx\n", n_queues, n_dispatchers, (unsigned long)debug);

  for (;;) {
    if (serve_queues()) continue;
    /* Idle. Acknowledge the doorbell, then look once more: a doorbell rung
     * after the acknowledgement stays pending and makes SLEEP return at once,
     * so no wake-up is lost. */
    CP_REG(CP_REG_IRQ_ACK) = CP_IRQ_DOORBELL;
    doorbell_seen = false;
    if (serve_queues() || doorbell_seen) continue;
    CP_REG(CP_REG_SLEEP) = 1;
  }
}
