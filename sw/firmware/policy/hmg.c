/* The kernel-boundary policy for L2s kept coherent by hardware (coherence
 * "hmg" on every L2 slice, docs/CPELIDE.md "HMG"): included by aql_cp.c in
 * place of policy/baseline.c (AQL_CP_POLICY), built as aql_cp_hmg.elf.
 *
 * The L2s write through to memory and a write invalidates the other chiplets'
 * copies, so no kernel boundary between kernels needs an L2 command:
 * - acquire: the CU-side caches are invalidated at every kernel start, as
 *   they are under every policy; the L2s only at System scope, because the
 *   host writes memory directly and no directory sees those writes;
 * - release: at System scope (a kernel or barrier the host waits on) the L2s
 *   get a write-back, which finds nothing dirty and answers once their
 *   write-throughs are answered; at Agent scope nothing: every store of a
 *   finished kernel has reached memory, as a wave ends only when its memory
 *   requests are answered and an L2 answers a store when memory has it.
 * CP_DEBUG_SKIP_ACQUIRE and CP_DEBUG_SKIP_RELEASE skip the L2 parts, as in
 * the baseline. */

static void acquire(uint16_t header) {
  if (AQL_HEADER_ACQUIRE_SCOPE(header) == AQL_SCOPE_NONE) return;
  cache_command(DISP_CACHE_INVALIDATE | DISP_CACHE_TO_ACQUIRE);
  if (AQL_HEADER_ACQUIRE_SCOPE(header) == AQL_SCOPE_SYSTEM && !(debug & CP_DEBUG_SKIP_ACQUIRE))
    cache_command(DISP_CACHE_INVALIDATE | DISP_CACHE_TO_RELEASE);
}

static void release(uint16_t header) {
  if (AQL_HEADER_RELEASE_SCOPE(header) != AQL_SCOPE_SYSTEM || (debug & CP_DEBUG_SKIP_RELEASE)) return;
  cache_command(DISP_CACHE_WRITEBACK | DISP_CACHE_TO_RELEASE);
}
