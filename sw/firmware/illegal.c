/* Proves the trap report: prints a line, then executes an all-zero instruction
 * word, which RISC-V defines as illegal. The CP has no trap handler, so the
 * model stops the run with an illegal-instruction fault. */
#include <stdio.h>

#include "tessera/cp_regs.h"

int main(void) {
  printf("about to execute an illegal instruction\n");
  __asm__ volatile(".word 0x00000000");
  printf("unreachable\n");
  cp_halt(0);
}
