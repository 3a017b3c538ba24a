/* For a test of the idle platform: prints a line, then sleeps. With no
 * interrupt source the core sleeps for ever, the state of a queue-serving
 * firmware waiting for work; the halt is reached only if something wakes it. */
#include <stdio.h>

#include "tessera/cp_regs.h"

int main(void) {
  printf("sleeping\n");
  CP_REG(CP_REG_SLEEP) = 1;
  cp_halt(0);
}
