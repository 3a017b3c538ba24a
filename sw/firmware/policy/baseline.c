/* The baseline kernel-boundary policy of aql_cp (included by aql_cp.c, which
 * provides cache_command(), debug and the AQL header macros), and of launches
 * made without a command processor: models/cp/direct_policy.cpp compiles this
 * file for the host, so it must decide from its header and debug alone.
 *
 * A policy is this one file: it defines
 *   static void acquire(uint16_t header);  at a packet's start
 *   static void release(uint16_t header);  at its end, after its work
 * and decides there which cache commands (DISP_CACHE_*) the kernel boundary
 * costs. Another policy is another file in this directory, built into its own
 * firmware image (sw/firmware/CMakeLists.txt) and named in a netlist's
 * cp.firmware. */

/* Acquire at a packet's start: no CU may read data cached before it. L2 is
 * invalidated too because another chiplet may have written the data back to
 * memory since. CP_DEBUG_SKIP_ACQUIRE skips only the L2 part: the CU-side
 * caches always start clean, as kernel arguments and code change at every
 * launch. */
static void acquire(uint16_t header) {
  if (AQL_HEADER_ACQUIRE_SCOPE(header) == AQL_SCOPE_NONE) return;
  cache_command(DISP_CACHE_INVALIDATE | DISP_CACHE_TO_ACQUIRE);
  if (!(debug & CP_DEBUG_SKIP_ACQUIRE)) cache_command(DISP_CACHE_INVALIDATE | DISP_CACHE_TO_RELEASE);
}

/* Release at a packet's end: the host and the other chiplets see the results
 * in memory; L2 keeps clean copies for the next kernel. */
static void release(uint16_t header) {
  if (AQL_HEADER_RELEASE_SCOPE(header) == AQL_SCOPE_NONE || (debug & CP_DEBUG_SKIP_RELEASE)) return;
  cache_command(DISP_CACHE_WRITEBACK | DISP_CACHE_TO_RELEASE);
}
