/* Proves the fault report: prints a line, then loads from an address that is
 * neither SRAM, the register window nor the device-memory window. The model
 * stops the run and reports the PC, the registers and the faulting address
 * 0x40000000. */
#include <stdio.h>

#include "tessera/cp_regs.h"

#define UNMAPPED_ADDRESS 0x40000000u

int main(void) {
  printf("about to read unmapped address 0x%08x\n", UNMAPPED_ADDRESS);
  volatile uint32_t *bad = (volatile uint32_t *)(uintptr_t)UNMAPPED_ADDRESS;
  uint32_t value = *bad;
  printf("unreachable: read 0x%08lx\n", (unsigned long)value);
  cp_halt(0);
}
