/* Firmware-only helpers on top of cp_regs.h: register blocks of queues and
 * dispatchers, and device-memory access through the CP's 16 MiB window.
 *
 * The window shows device memory [base, base + CP_DEVMEM_SIZE) at
 * CP_DEVMEM_BASE, where base (CP_REG_DEVMEM_LO/HI) is a multiple of
 * CP_DEVMEM_SIZE. dev_*() move the window only when the address lies outside
 * the current one, so consecutive accesses to one packet, descriptor or signal
 * cost no extra register writes. An access never straddles two windows as
 * long as it is naturally aligned, which every AQL field is. 64-bit accesses
 * are two 32-bit ones (low word first): the window takes at most 4 bytes.
 * dev_copy() moves a whole block (a packet, a table of entries) at once. */
#ifndef TESSERA_CP_FW_H
#define TESSERA_CP_FW_H

#include "tessera/cp_regs.h"

#define CP_QREG(q, r) CP_REG(CP_QUEUE_REG(q, r))
#define CP_DREG(d, r) CP_REG(DISP_REG(d, r))

#define CP_DEVMEM_MASK ((uint64_t)CP_DEVMEM_SIZE - 1)

/* Device address shown by the window; starts as an address that is never a
 * window base, so the first access programs the registers. Each translation
 * unit has its own copy: use dev_*() from one source file only, or the copies
 * disagree about where the window is. */
static uint64_t cp_devmem_window = ~(uint64_t)0;

static inline uintptr_t dev_ptr(uint64_t addr) {
  uint64_t base = addr & ~CP_DEVMEM_MASK;
  if (base != cp_devmem_window) {
    CP_REG(CP_REG_DEVMEM_LO) = (uint32_t)base;
    CP_REG(CP_REG_DEVMEM_HI) = (uint32_t)(base >> 32);
    cp_devmem_window = base;
  }
  return CP_DEVMEM_BASE + (uintptr_t)(addr & CP_DEVMEM_MASK);
}

static inline uint16_t dev_read16(uint64_t addr) { return *(volatile uint16_t *)dev_ptr(addr); }
static inline uint32_t dev_read32(uint64_t addr) { return *(volatile uint32_t *)dev_ptr(addr); }
static inline void dev_write16(uint64_t addr, uint16_t v) { *(volatile uint16_t *)dev_ptr(addr) = v; }
static inline void dev_write32(uint64_t addr, uint32_t v) { *(volatile uint32_t *)dev_ptr(addr) = v; }

static inline uint64_t dev_read64(uint64_t addr) {
  uint32_t lo = dev_read32(addr);
  return ((uint64_t)dev_read32(addr + 4) << 32) | lo;
}

static inline void dev_write64(uint64_t addr, uint64_t v) {
  dev_write32(addr, (uint32_t)v);
  dev_write32(addr + 4, (uint32_t)(v >> 32));
}

/* Copies `bytes` (at most CP_COPY_MAX_BYTES) of device memory at `src` into
 * SRAM at `dst` with the copy engine: one device-memory latency for the whole
 * block instead of one per 32-bit access. The compiler barrier keeps reads of
 * `dst` after the copy. */
static inline void dev_copy(void *dst, uint64_t src, uint32_t bytes) {
  CP_REG(CP_REG_COPY_SRC_LO) = (uint32_t)src;
  CP_REG(CP_REG_COPY_SRC_HI) = (uint32_t)(src >> 32);
  CP_REG(CP_REG_COPY_DST) = (uint32_t)(uintptr_t)dst;
  CP_REG(CP_REG_COPY_BYTES) = bytes;
  __asm__ volatile("" ::: "memory");
}

#endif /* TESSERA_CP_FW_H */
