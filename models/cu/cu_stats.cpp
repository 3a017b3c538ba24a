#include "models/cu/cu_stats.h"

namespace tessera {

const char* stall_name(Stall s) {
  static const char* const names[] = {"none",       "waiting_memory", "waiting_lds", "waiting_smem",
                                      "barrier",    "no_instruction", "dependency",  "structural",
                                      "sleep",      "branch",         "launch",      "drain"};
  static_assert(sizeof(names) / sizeof(names[0]) == size_t(Stall::Count), "a name per stall reason");
  return names[size_t(s)];
}

CuStats::CuStats(StatGroup& g, unsigned max_waves)
    : instructions(g.counter("instructions", "wave-instructions issued in timing mode")),
      functional_instructions(g.counter("functional_instructions", "wave-instructions run in functional mode")),
      active_cycles(g.counter("active_cycles", "cycles with at least one resident wave")),
      ticks(g.counter("ticks", "cycles the CU's process ran; it sleeps through cycles where nothing can change")),
      waves_launched(g.counter("waves_launched", "waves launched in timing mode")),
      workgroups(g.counter("workgroups", "workgroups run in timing mode")),
      workgroups_functional(g.counter("workgroups_functional", "workgroups run in functional mode")),
      refusals(g.counter("refusals", "workgroups refused for lack of resources")),
      faults(g.counter("faults", "workgroups stopped by a wave fault")),
      vmem_requests(g.counter("vmem_requests", "line requests sent on vmem")),
      smem_requests(g.counter("smem_requests", "line requests sent on smem")),
      fetches(g.counter("fetches", "instruction fetches sent on ifetch")),
      fetches_dropped(g.counter("fetches_dropped", "fetches answered after a taken branch flushed the buffer")),
      values_at_execute(g.counter("values_at_execute",
                                  "load line requests whose bytes were read when the load executed (load_values execute)")),
      lds_conflict_cycles(g.counter("lds_conflict_cycles", "LDS cycles lost to bank conflicts")),
      lds_busy_cycles(g.counter("lds_busy_cycles", "cycles the LDS banks were busy")),
      lds_reads(g.counter("lds_reads", "ds_read* instructions issued")),
      lds_read_bytes(g.counter("lds_read_bytes", "bytes the LDS banks delivered for ds_read* (a multicast access once)")),
      lds_reads_marked(g.counter("lds_reads_marked", "ds_read* the multicast unit saw (marked, allowed in the "
                                                     "workgroup's shape, every lane active)")),
      lds_reads_merged(g.counter("lds_reads_merged", "pairs of ds_read* served by one LDS access (multicast)")),
      lds_multicast_fallbacks(g.counter("lds_multicast_fallbacks", "marked reads matched in the load request table "
                                                                   "whose addresses differed: served as two reads")),
      lds_multicast_expired(g.counter("lds_multicast_expired",
                                      "marked reads served alone after waiting lds_multicast_wait cycles")),
      lds_multicast_released(g.counter("lds_multicast_released", "marked reads served alone when no other wave of "
                                                                 "the workgroup could send a partner (barrier, end)")),
      lds_multicast_table_full(g.counter("lds_multicast_table_full",
                                         "marked reads served at once because the load request table was full")),
      memory_errors(g.counter("memory_errors",
                              "responses with an error status (the wave that needs the data or instructions faults)")),
      longest_wave(g.counter("longest_wave", "most instructions one wave issued (a wave past the wave_instructions "
                                             "limit is reported as spinning)")),
      requests_per_vmem(g.histogram("requests_per_vmem", "coalesced line requests per vector memory instruction", 1, 65)),
      vmem_latency(g.histogram("vmem_latency", "vector request sent to response, cycles", 16, 64)),
      vmem_inst_latency(g.histogram("vmem_inst_latency",
                                    "vector memory instruction (or lazy request group) issued to its last response, "
                                    "cycles: the request latency plus the wait to be sent",
                                    16, 64)),
      smem_latency(g.histogram("smem_latency", "scalar request sent to response, cycles", 16, 64)),
      fetch_latency(g.histogram("fetch_latency", "instruction fetch sent to response, cycles", 16, 64)),
      resident(g.histogram("resident_waves", "resident waves, weighted by cycles (occupancy)", 1, max_waves + 1)) {
  for (size_t i = 0; i < issued.size(); ++i) {
    const std::string n = issue_class_name(IssueClass(i));
    issued[i] = &g.counter("issued_" + n, "instructions issued of class " + n);
  }
  for (size_t i = 1; i < stalled.size(); ++i) {
    if (Stall(i) == Stall::Drain) continue;
    const std::string n = stall_name(Stall(i));
    stalled[i] = &g.counter("stall_" + n, "wave-cycles a resident wave did not issue because: " + n);
  }
}

}  // namespace tessera
