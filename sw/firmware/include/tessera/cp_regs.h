/* Register map of the command processor (CP), shared by the firmware running on
 * the CP core and by the models (models/cp/cp_core.cpp, models/cp/dispatcher.cpp),
 * so that they cannot drift apart. Plain C, usable from C and C++.
 *
 * Address space seen by the CP core:
 *   [0, sram_size)                       private SRAM: code, data, stack
 *   [CP_MMIO_BASE, +CP_MMIO_SIZE)        the CP's own registers, then one block of
 *                                        dispatcher registers per dispatcher
 *   [CP_DEVMEM_BASE, +CP_DEVMEM_SIZE)    a window onto device memory (queues,
 *                                        packets, kernel descriptors, signals)
 * Every other address is unmapped: an access to it is a firmware fault.
 * Registers are 32 bits wide and must be accessed with 32-bit loads and stores,
 * except CP_CONSOLE, which also accepts byte stores. The device-memory window
 * takes 1-, 2- and 4-byte accesses. */
#ifndef TESSERA_CP_REGS_H
#define TESSERA_CP_REGS_H

#define CP_MMIO_BASE 0x10000000u
#define CP_MMIO_SIZE 0x2000u

/* ---- CP registers: offsets from CP_MMIO_BASE ---- */
#define CP_REG_ID          0x00u /* R:  CP_ID_VALUE, identifies the register map version */
#define CP_REG_CONSOLE     0x04u /* W:  low byte is written to the host console */
#define CP_REG_TIMER_LO    0x08u /* R:  current CP cycle, low word; reading it latches the high word */
#define CP_REG_TIMER_HI    0x0Cu /* R:  high word of the cycle latched by the last CP_REG_TIMER_LO read */
#define CP_REG_SCRATCH     0x10u /* RW: free for the firmware (status, progress markers); 0 at reset */
#define CP_REG_HALT        0x14u /* W:  ends the firmware run; the value written is its exit code */
#define CP_REG_IRQ_PENDING 0x18u /* R:  pending interrupt lines (CP_IRQ_*), set until acknowledged */
#define CP_REG_IRQ_ACK     0x1Cu /* W:  write 1s to clear those pending lines */
#define CP_REG_SLEEP       0x20u /* W:  the core sleeps until an interrupt line is pending (returns at once
                                  *     if one already is); time passes, no instructions run */
#define CP_REG_HOST_NOTIFY 0x24u /* W:  tell the host that a completion signal changed (the value is
                                  *     the signal's queue, for the trace); the host's wait re-checks */
#define CP_REG_DISPATCHERS 0x28u /* R:  number of dispatcher register blocks (dispatchers bound) */
#define CP_REG_QUEUES      0x2Cu /* R:  number of queue register blocks (CP_MAX_QUEUES) */
#define CP_REG_DEVMEM_LO   0x30u /* RW: device address shown at CP_DEVMEM_BASE, low word */
#define CP_REG_DEVMEM_HI   0x34u /* RW: high word; the address must be a multiple of CP_DEVMEM_SIZE */
#define CP_REG_DEBUG       0x38u /* R:  the netlist's debug_flags (CP_DEBUG_*), for experiments */
#define CP_REG_LAUNCHES    0x3Cu /* RW: kernel launches completed; the firmware counts, the model reports */

/* Interrupt lines (bits of CP_REG_IRQ_PENDING). */
#define CP_IRQ_DOORBELL     (1u << 0)       /* the host rang a queue's doorbell */
#define CP_IRQ_DISPATCHER(d) (1u << (8 + (d))) /* dispatcher d finished a range or a cache command */

/* Debug flags (CP_REG_DEBUG), set by the cp_core parameter debug_flags. Firmware
 * may honour them to show what a missing synchronisation costs in correctness. */
#define CP_DEBUG_SKIP_RELEASE (1u << 0) /* do not write back caches at kernel end */
#define CP_DEBUG_SKIP_ACQUIRE (1u << 1) /* do not invalidate the L2s at kernel start (CU-side caches still are) */
#define CP_DEBUG_TRACE        (1u << 2) /* print each packet on the console */

/* Queues: CP_MAX_QUEUES blocks of CP_QUEUE_STRIDE bytes from CP_QUEUE_BASE. The
 * host programs the ring and rings the doorbell; the firmware publishes how far
 * it has read. Indices count packets from 0 and never wrap (the slot is
 * index % size). */
#define CP_QUEUE_BASE      0x40u
#define CP_QUEUE_STRIDE    0x20u
#define CP_MAX_QUEUES      8u
#define CP_QUEUE_RING_LO   0x00u /* R: device address of the ring buffer */
#define CP_QUEUE_RING_HI   0x04u
#define CP_QUEUE_SIZE      0x08u /* R: packets in the ring (a power of two); 0: queue not created */
#define CP_QUEUE_DOORBELL  0x0Cu /* R: the host's write index: packets [0, doorbell) have been written */
#define CP_QUEUE_READ      0x10u /* RW: the firmware's read index: packets before it are done */
#define CP_QUEUE_DESC_LO   0x14u /* R: device address of the queue descriptor (the ABI's queue pointer) */
#define CP_QUEUE_DESC_HI   0x18u
#define CP_QUEUE_REG(q, r) (CP_QUEUE_BASE + (q) * CP_QUEUE_STRIDE + (r))

/* The copy engine: device memory into the private SRAM in one request, as a
 * CP's packet fetcher reads whole lines. Writing CP_REG_COPY_BYTES copies
 * [src, src + bytes) to SRAM [dst, dst + bytes) and stalls the core for
 * devmem_latency cycles plus one cycle per further 64-byte line, instead of
 * devmem_latency per 32-bit access through the window. */
#define CP_REG_COPY_SRC_LO 0x140u /* RW: device address to copy from, low word */
#define CP_REG_COPY_SRC_HI 0x144u /* RW: high word */
#define CP_REG_COPY_DST    0x148u /* RW: SRAM address to copy to */
#define CP_REG_COPY_BYTES  0x14Cu /* W:  copies this many bytes (1 .. CP_COPY_MAX_BYTES); done when the store ends */
#define CP_COPY_MAX_BYTES  4096u
#define CP_COPY_LINE_BYTES 64u

/* Where the chiplets' L2s cache lines, found by the platform from the netlist's
 * bindings: 1 when each chiplet's L2 holds only the lines homed on its chiplet
 * and serves the other chiplets' requests for them (the chiplet network's
 * requests reach an L2), 0 when a chiplet's L2 keeps the lines its own compute
 * units touch, wherever they are homed. */
#define CP_REG_L2_HOMES    0x150u /* R:  1 or 0, as above */

/* ---- dispatcher registers: CP_DISP_BASE + d * CP_DISP_STRIDE + offset ---- */
#define CP_DISP_BASE        0x1000u
#define CP_DISP_STRIDE      0x100u
#define CP_MAX_DISPATCHERS  16u
#define DISP_REG_CUS        0x00u /* R:  compute units bound to this dispatcher */
#define DISP_REG_PACKET_LO  0x04u /* RW: device address of the AQL kernel-dispatch packet */
#define DISP_REG_PACKET_HI  0x08u
#define DISP_REG_QUEUE_LO   0x0Cu /* RW: device address of the queue descriptor (queue pointer) */
#define DISP_REG_QUEUE_HI   0x10u
#define DISP_REG_ID_LO      0x14u /* RW: dispatch id (the ABI's dispatch id) */
#define DISP_REG_ID_HI      0x18u
#define DISP_REG_WG_FIRST   0x1Cu /* RW: first workgroup of the range (linear index, x fastest) */
#define DISP_REG_WG_COUNT   0x20u /* RW: workgroups in the range */
#define DISP_REG_START      0x24u /* W:  start dispatching the range; an interrupt when it has finished */
#define DISP_REG_CACHE_OP   0x28u /* W:  DISP_CACHE_* op | DISP_CACHE_TO_*: a cache command to every cache on
                                   *     that side; an interrupt when all have acknowledged */
#define DISP_REG_STATUS     0x2Cu /* R:  DISP_STATUS_* bits */
#define DISP_REG_WG_DONE    0x30u /* R:  workgroups of the last range that have finished */
#define DISP_REG_LINES_WB   0x34u /* R:  lines written back by the last cache command */
#define DISP_REG_LINES_INV  0x38u /* R:  lines invalidated by the last cache command */
#define DISP_REG(d, r) (CP_DISP_BASE + (d) * CP_DISP_STRIDE + (r))

#define DISP_CACHE_INVALIDATE    1u
#define DISP_CACHE_WRITEBACK     2u /* write back dirty lines, keep them as clean copies */
#define DISP_CACHE_WB_INVALIDATE 3u
#define DISP_CACHE_TO_ACQUIRE    (0u << 8) /* the caches on the dispatcher's acquire[] sockets (L1V, scalar, I) */
#define DISP_CACHE_TO_RELEASE    (1u << 8) /* the caches on its release[] sockets (L2); a write-back
                                              * first writes back the acquire side's write-back caches */

#define DISP_STATUS_BUSY        (1u << 0) /* a range is being dispatched or is still running */
#define DISP_STATUS_CACHE_BUSY  (1u << 1) /* a cache command is outstanding */
#define DISP_STATUS_FAULT       (1u << 2) /* a wave of the last range faulted (the host gets the report) */
#define DISP_STATUS_BAD_PACKET  (1u << 3) /* the last START named no loaded kernel or a bad geometry */

/* ---- the device-memory window ---- */
#define CP_DEVMEM_BASE 0x20000000u
#define CP_DEVMEM_SIZE 0x01000000u /* 16 MiB */

/* ---- AQL (HSA) packet layout, as the firmware reads it ---- */
#define AQL_PACKET_BYTES 64u
#define AQL_TYPE_VENDOR_SPECIFIC 0u
#define AQL_TYPE_INVALID         1u
#define AQL_TYPE_KERNEL_DISPATCH 2u
#define AQL_TYPE_BARRIER_AND     3u
#define AQL_HEADER_TYPE(h)          ((h) & 0xffu)
#define AQL_HEADER_BARRIER(h)       (((h) >> 8) & 1u)
#define AQL_HEADER_ACQUIRE_SCOPE(h) (((h) >> 9) & 3u)
#define AQL_HEADER_RELEASE_SCOPE(h) (((h) >> 11) & 3u)
#define AQL_SCOPE_NONE   0u
#define AQL_SCOPE_AGENT  1u
#define AQL_SCOPE_SYSTEM 2u
/* Kernel dispatch: byte offsets. */
#define AQL_KD_SETUP          2u
#define AQL_KD_WORKGROUP_X    4u /* 3 x uint16 */
#define AQL_KD_GRID_X         12u /* 3 x uint32 */
#define AQL_KD_PRIVATE_SIZE   24u
#define AQL_KD_GROUP_SIZE     28u
#define AQL_KD_KERNEL_OBJECT  32u /* uint64: device address of the 64-byte kernel descriptor */
#define AQL_KD_KERNARG        40u
#define AQL_COMPLETION_SIGNAL 56u /* uint64, every packet type: 0 or a signal */
/* Barrier-AND: five dependency signals (0: none); the packet completes when all are 0. */
#define AQL_BARRIER_DEP(i)    (8u + 8u * (i))
#define AQL_BARRIER_DEPS      5u
/* Vendor-specific packet of format TESSERA_ACCESS_MODES: the access modes of the
 * buffers of the next kernel dispatch of the queue (see docs/FIRMWARE.md). */
#define AQL_VENDOR_FORMAT     2u  /* uint16 */
#define AQL_VENDOR_COUNT      4u  /* uint32: entries */
#define AQL_VENDOR_ENTRIES    8u  /* uint64: device address of the entries */
#define TESSERA_ACCESS_MODES  0x4d41u /* "AM" */
#define ACCESS_ENTRY_BYTES    24u /* uint64 base, uint64 size, uint32 mode, uint32 chiplet mask (0: all) */
#define ACCESS_READ_ONLY      1u
#define ACCESS_READ_WRITE     2u
#define ACCESS_MODE_MASK      0xffu
#define ACCESS_PARTITIONED    0x100u /* flag: each chiplet touches its share of the buffer, in proportion
                                      * to its workgroups (contiguous split), not the whole buffer */

/* Signals: a 64-byte block as HSA's amd_signal_t; the value is the int64 at +8. */
#define SIGNAL_VALUE 8u

/* Kernel descriptor fields the firmware may read (offsets in the 64-byte descriptor). */
#define KD_GROUP_SEGMENT_FIXED_SIZE   0u
#define KD_PRIVATE_SEGMENT_FIXED_SIZE 4u
#define KD_KERNARG_SIZE               8u

#define CP_ID_VALUE 0x43500002u /* "CP", map version 2 */

#ifndef __ASSEMBLER__
#include <stdint.h>

#define CP_REG(off) (*(volatile uint32_t *)(uintptr_t)(CP_MMIO_BASE + (off)))

#ifdef __riscv
/* Helpers for the firmware (compiled only for the CP core). */
static inline void cp_console_putc(char c) { CP_REG(CP_REG_CONSOLE) = (uint8_t)c; }

static inline uint64_t cp_cycles(void) {
  uint32_t lo = CP_REG(CP_REG_TIMER_LO);
  uint32_t hi = CP_REG(CP_REG_TIMER_HI);
  return ((uint64_t)hi << 32) | lo;
}

static inline __attribute__((noreturn)) void cp_halt(uint32_t code) {
  CP_REG(CP_REG_HALT) = code;
  for (;;) {
  }
}
#endif /* __riscv */
#endif /* __ASSEMBLER__ */

#endif /* TESSERA_CP_REGS_H */
