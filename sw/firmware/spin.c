/* Proves the checks on firmware that makes no progress. What it does forever
 * comes from the netlist's debug_flags (CP_REG_DEBUG):
 *   0  reads the scratch register (a poll that never ends: the model faults it
 *      after limits' firmware_polls reads in a row)
 *   1  writes HOST_NOTIFY (with no host waiting: counted as polls too)
 *   2  writes dispatcher 0's START register (each refused start is warned
 *      about; identical warnings past the cap are only counted) */
#include "tessera/cp_regs.h"

int main(void) {
  const uint32_t mode = CP_REG(CP_REG_DEBUG);
  for (;;) {
    if (mode == 0) (void)CP_REG(CP_REG_SCRATCH);
    if (mode == 1) CP_REG(CP_REG_HOST_NOTIFY) = 1;
    if (mode == 2) CP_REG(DISP_REG(0, DISP_REG_START)) = 1;
  }
}
