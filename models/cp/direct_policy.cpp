#include "models/cp/direct_policy.h"

#include "sw/firmware/include/tessera/cp_regs.h"

namespace tessera {
namespace baseline_policy {  // named: the names below must not meet another file's in a unity batch

// What the policy file expects of the firmware around it (aql_cp.c): the debug
// flags and a cache_command() that sends one command. Here the commands are
// collected; one policy call runs at a time (SystemC runs one process at a time).
uint32_t debug = 0;
std::vector<uint32_t>* commands = nullptr;

void cache_command(uint32_t op) { commands->push_back(op); }

#include "sw/firmware/policy/baseline.c"

template <typename Step>
std::vector<uint32_t> collect(Step step, uint16_t header, uint32_t debug_flags) {
  std::vector<uint32_t> out;
  debug = debug_flags;
  commands = &out;
  step(header);
  commands = nullptr;
  return out;
}

}  // namespace baseline_policy

uint16_t direct_launch_header() {
  return uint16_t(AQL_TYPE_KERNEL_DISPATCH | (AQL_SCOPE_SYSTEM << 9) | (AQL_SCOPE_SYSTEM << 11));
}

std::vector<uint32_t> baseline_acquire_commands(uint16_t header, uint32_t debug_flags) {
  return baseline_policy::collect(baseline_policy::acquire, header, debug_flags);
}

std::vector<uint32_t> baseline_release_commands(uint16_t header, uint32_t debug_flags) {
  return baseline_policy::collect(baseline_policy::release, header, debug_flags);
}

}  // namespace tessera
