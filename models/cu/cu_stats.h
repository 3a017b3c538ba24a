// The statistics of one compute unit, registered once in its StatGroup so
// that the cycle loop only adds to integers.
#pragma once
#include <array>

#include "models/cu/inst_class.h"
#include "models/cu/wave_slot.h"
#include "platform/stats.h"

namespace tessera {

struct CuStats {
  CuStats(StatGroup& g, unsigned max_waves);

  Counter& instructions;       // wave-instructions issued (timing mode)
  Counter& functional_instructions;
  std::array<Counter*, size_t(IssueClass::Count)> issued{};
  std::array<Counter*, size_t(Stall::Count)> stalled{};
  Counter& active_cycles;      // cycles with at least one resident wave
  Counter& ticks;              // cycles the CU's process ran (it sleeps through the others)
  Counter& waves_launched;
  Counter& workgroups;
  Counter& workgroups_functional;
  Counter& refusals;
  Counter& faults;
  Counter& vmem_requests;
  Counter& smem_requests;
  Counter& fetches;
  Counter& fetches_dropped;    // returned after a branch flushed the buffer
  Counter& values_at_execute;  // load line requests whose bytes were read at execute (load_values execute)
  Counter& lds_conflict_cycles;
  Counter& lds_busy_cycles;
  // LDS reads and the multicast unit (docs/IWMA.md).
  Counter& lds_reads;                // ds_read* issued
  Counter& lds_read_bytes;           // bytes the banks delivered for them (a merged access once)
  Counter& lds_reads_marked;         // reads the multicast unit saw (marked, allowed in the shape, all lanes)
  Counter& lds_reads_merged;         // pairs served by one access
  Counter& lds_multicast_fallbacks;  // matched by the table but not by the addresses: two reads
  Counter& lds_multicast_expired;    // waited their full time without a partner
  Counter& lds_multicast_released;   // served alone because no other wave could send a partner
  Counter& lds_multicast_table_full; // served at once: the table was full
  Counter& memory_errors;
  Counter& longest_wave;          // most instructions one wave issued (against limits().wave_instructions)
  Histogram& requests_per_vmem;   // coalesced line requests per vector memory instruction
  Histogram& vmem_latency;        // request sent to response, cycles
  Histogram& vmem_inst_latency;   // vector memory instruction issued to its last response, cycles
  Histogram& smem_latency;
  Histogram& fetch_latency;
  Histogram& resident;            // resident waves, weighted by cycles
};

}  // namespace tessera
