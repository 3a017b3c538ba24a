/* The smallest useful firmware: identifies the register map, prints through the
 * console (picolibc printf), records progress in the scratch register, reads the
 * cycle timer and halts with exit code 0. */
#include <stdio.h>

#include "tessera/cp_regs.h"

int main(void) {
  if (CP_REG(CP_REG_ID) != CP_ID_VALUE) {
    printf("unexpected CP id 0x%08lx\n", (unsigned long)CP_REG(CP_REG_ID));
    cp_halt(2);
  }
  uint64_t start = cp_cycles();
  printf("hello from the command processor\n");
  unsigned sum = 0;
  for (unsigned i = 1; i <= 100; ++i) sum += i * i;
  CP_REG(CP_REG_SCRATCH) = sum;
  uint64_t end = cp_cycles();
  printf("sum of squares 1..100 = %u\n", sum);
  printf("timer advanced: %s\n", end > start ? "yes" : "no");
  /* picolibc's start-up code spins after main returns, so firmware ends by
   * writing the halt register. */
  cp_halt(0);
}
