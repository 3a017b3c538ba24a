/* picolibc stdio on the CP console register: printf and puts write bytes to
 * CP_REG_CONSOLE, which the model prints on the host's stdout. */
#include <stdio.h>

#include "tessera/cp_regs.h"

static int console_put(char c, FILE *file) {
  (void)file;
  cp_console_putc(c);
  return (unsigned char)c;
}

static FILE console = FDEV_SETUP_STREAM(console_put, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;
