/* Register map of the command processor (CP), shared by the firmware running on
 * the CP core and by the model of that core (models/cp/cp_core.cpp), so that the
 * two cannot drift apart. Plain C, usable from C and C++.
 *
 * Address space seen by the CP core:
 *   [0, sram_size)                       private SRAM: code, data, stack
 *   [CP_MMIO_BASE, +CP_MMIO_SIZE)        the CP's own registers (below)
 * Every other address is unmapped: an access to it is a firmware fault.
 * Registers are 32 bits wide and must be accessed with 32-bit loads and stores,
 * except CP_CONSOLE, which also accepts byte stores. */
#ifndef TESSERA_CP_REGS_H
#define TESSERA_CP_REGS_H

#define CP_MMIO_BASE 0x10000000u
#define CP_MMIO_SIZE 0x1000u

/* Register offsets from CP_MMIO_BASE. */
#define CP_REG_ID       0x00u /* R:  CP_ID_VALUE, identifies the register map version */
#define CP_REG_CONSOLE  0x04u /* W:  low byte is written to the host console */
#define CP_REG_TIMER_LO 0x08u /* R:  current CP cycle, low word; reading it latches the high word */
#define CP_REG_TIMER_HI 0x0Cu /* R:  high word of the cycle latched by the last CP_REG_TIMER_LO read */
#define CP_REG_SCRATCH  0x10u /* RW: free for the firmware (status, progress markers); 0 at reset */
#define CP_REG_HALT     0x14u /* W:  ends the firmware run; the value written is its exit code */

#define CP_ID_VALUE 0x43500001u /* "CP", map version 1 */

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
