// Whether a whole-line store gets a compression assist warp (docs/CABA.md,
// "Turning compression off"). The paper disables compression "for
// applications where memory bandwidth is not a bottleneck ... statically or
// dynamically within the framework", and lets the application programmer
// enable or disable the helper routines. Two policies, both per kernel:
//
// - static: the kernels named in the CU's `assist_compress_off` never get a
//   compression assist warp; their stores go uncompressed at once.
// - dynamic: a saturating counter per kernel (`assist_compress_counter` its
//   maximum, where it starts) counts the compression routine's outcomes, up
//   for a line it compressed and down for one it left uncompressed. At zero,
//   the kernel's stores go uncompressed without an assist warp, except one in
//   `assist_compress_sample`, which is compressed to re-sample the data: a
//   compressed sample counts up and turns compression back on. A counter
//   maximum of 0 turns the dynamic policy off (every store is compressed).
//
// A store the policy skips is sent uncompressed, as a store that finds the
// store buffer full: the data are the same either way, only its size on the
// links differs.
#pragma once
#include <string>
#include <unordered_map>
#include <vector>

#include "models/cu/cu_config.h"
#include "platform/stats.h"

namespace tessera {

class AssistCompressPolicy {
 public:
  AssistCompressPolicy(StatGroup& g, const CuConfig& cfg);

  // A whole-line store of `kernel`: true when it gets a compression assist
  // warp; false when it goes uncompressed at once (counted as skipped).
  bool deploy(const std::string& kernel);
  // The compression routine of one of `kernel`'s lines chose an encoding:
  // `compressed` unless it left the line uncompressed.
  void outcome(const std::string& kernel, bool compressed);

  // The kernel's counter (its maximum before any outcome), for tests.
  unsigned counter(const std::string& kernel) const;

 private:
  struct Kernel {
    unsigned counter = 0;
    unsigned skipped = 0;  // stores skipped since the last sample
  };
  Kernel& state(const std::string& kernel);

  const unsigned max_, sample_;
  std::vector<std::string> off_;  // the static switch: kernels never compressed
  std::unordered_map<std::string, Kernel> kernels_;
  Counter& static_skipped_;
  Counter& policy_skipped_;
  Counter& sampled_;
  Counter& turned_off_;
  Counter& turned_on_;
};

// The kernel names of a comma- or space-separated list.
std::vector<std::string> kernel_list(const std::string& list);

}  // namespace tessera
