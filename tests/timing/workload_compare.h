// Runs a workload of the suite on a reference device and on a timing device
// and checks that the results are the same bytes (shared by the timing tests
// of the single-chip and the chiplet netlists).
#pragma once
#include <catch2/catch.hpp>

#include <string>

#include "platform/timing_device.h"
#include "sw/workloads/compare.h"
#include "tests/timing/kernel_dir.h"

namespace tessera::test {

inline uint64_t seed_for(size_t size) { return 0x51ed0000ull + size; }

// Workloads whose instruction count depends on timing, though their result
// does not: bfs tests whether a neighbour is still unvisited, and whether
// another workgroup has labelled it already depends on when each one ran.
inline bool same_instructions_expected(const std::string& name) { return name != "bfs"; }

inline void compare_run(const workloads::Workload& w, runtime::Device& reference, TimingDevice& timing, size_t size,
                        bool functional_netlist) {
  const std::string& name = w.name;
  const workloads::Result want = w.run(reference, size, seed_for(size));
  REQUIRE(want.passed);
  workloads::Result got;
  try {
    got = w.run(timing, size, seed_for(size));
  } catch (const std::exception& e) {
    FAIL(name << " size " << size << " on the timing device: " << e.what());
  }
  INFO(name << " " << got.shape << ": " << got.message);
  CHECK(got.passed);
  CHECK(got.launches == want.launches);
  // The same instructions ran: wave-instruction counts agree exactly.
  if (same_instructions_expected(name) || functional_netlist)
    CHECK(got.stats.wave_instructions == want.stats.wave_instructions);
  CHECK(got.stats.workgroups == want.stats.workgroups);
  if (!functional_netlist) CHECK(got.stats.cycles > 0);
  REQUIRE(got.outputs.size() == want.outputs.size());
  for (size_t i = 0; i < got.outputs.size(); ++i) {
    INFO("output " << got.outputs[i].name);
    CHECK(got.outputs[i].bytes == want.outputs[i].bytes);
  }
}

}  // namespace tessera::test
