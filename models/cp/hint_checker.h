// The hint checker (cp_core.check_hints): a wrong access-mode hint must not go
// unnoticed. It watches every compute unit's global-memory instructions
// (a CuObserver) and compares each access with the uses the host declared for
// the dispatch it belongs to (found by the dispatch's AQL packet address):
//   - an address in no declared buffer;
//   - a write (store or atomic) to a buffer declared read-only;
//   - an access by a chiplet outside the buffer's chiplet mask;
//   - for a partitioned buffer, an access outside the share of the chiplet
//     that runs the workgroup (the CP's split of the grid: chiplet c runs
//     workgroups [c*W/D, (c+1)*W/D); its share is the same fraction of the
//     buffer, widened to the table's 256-byte granules).
// Each kind of violation is reported once per launch and buffer, with its
// first address and a count. Scalar loads (kernel arguments, constants) and
// LDS accesses are not checked; private (scratch) memory would count as
// outside every buffer, which none of the hinted workloads uses.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/cu/cu_observer.h"
#include "platform/gpu_control.h"

namespace tessera {

class HintChecker : public CuObserver, public HintCheckControl {
 public:
  void watch(Block& block) override;
  void expect(uint64_t packet, const std::string& kernel, const std::vector<DeclaredUse>& uses,
              unsigned dispatchers) override;
  const std::vector<HintViolation>& violations() const override { return violations_; }

  void on_memory_response(const WaveSlot& w, const MemInst& m, uint64_t c) override;

 private:
  struct Expected {
    std::string kernel;
    std::vector<DeclaredUse> uses;
    unsigned dispatchers = 1;
    std::map<std::pair<size_t, std::string>, size_t> reported;  // (use, what) -> violations_ index
  };
  void check(Expected& e, uint64_t address, unsigned bytes, bool write, unsigned chiplet, uint64_t workgroups);
  void report(Expected& e, size_t use, const std::string& what, uint64_t address, unsigned chiplet);

  std::map<uint64_t, Expected> expected_;  // by packet address: a ring slot is reused only after completion
  std::vector<HintViolation> violations_;
};

}  // namespace tessera
