// The kernel-boundary policy of a launch made without a command processor.
//
// There is one baseline policy: sw/firmware/policy/baseline.c, which the CP's
// firmware (aql_cp) is built with. A direct launch runs that same file,
// compiled for the host: its acquire() and release() are called with the
// launch's AQL header and the dispatcher's debug flags, and the cache commands
// they give (DISP_CACHE_* | DISP_CACHE_TO_*, sw/firmware/include/tessera/
// cp_regs.h) are returned in order for the dispatcher to carry out, as it
// carries out the firmware's writes to DISP_REG_CACHE_OP. The baseline policy
// decides from its arguments alone (it never waits on a command's result), so
// collecting its commands first and sending them afterwards is the same
// sequence the firmware sends.
#pragma once
#include <cstdint>
#include <vector>

namespace tessera {

// The AQL header of a direct launch: a kernel dispatch whose acquire and
// release are both of system scope, as the host runtime writes for a kernel
// whose results it reads back.
uint16_t direct_launch_header();

// The cache commands the baseline policy gives at a packet's start (acquire)
// and end (release), for a packet header and CP_DEBUG_* flags.
std::vector<uint32_t> baseline_acquire_commands(uint16_t header, uint32_t debug_flags);
std::vector<uint32_t> baseline_release_commands(uint16_t header, uint32_t debug_flags);

}  // namespace tessera
