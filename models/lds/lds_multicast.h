// The LDS multicast unit (IWMA): merges two marked LDS reads from different
// waves of one workgroup that read the same per-lane addresses into their
// destination registers into one LDS access that writes both waves'
// registers (docs/IWMA.md).
//
// A load request table holds marked reads waiting for a partner. Each entry
// keeps its workgroup, its wave (the pipeline tag), the instruction as encoded
// (opcode, address and destination registers, offsets: the key), the first
// active lane's address (the fingerprint the paper's table holds), and the
// full address vector. A new read whose key and fingerprint match an entry
// of the same workgroup and another wave takes that entry out of the table;
// then the full address vectors (and active lanes) are compared: equal, the
// two reads merge; different (the static marks were wrong), both are served
// as ordinary reads and the caller reports it. A read that matches nothing
// waits in the table, unless the table is full, in which case it is served
// as an ordinary read at once (the paper's full-table rule). A waiting read
// leaves the table as an ordinary read when its wait ends (`wait` cycles
// after it arrived) or when the caller knows no partner can come (release).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/lds/lds_bank_model.h"
#include "models/lds/lds_pipeline.h"

namespace tessera::lds {

// The static marks the unit reads (inst_marks.h, set by the "lds_multicast"
// marker from the kernel analysis): bit 16 a ds_read* marked for multicast,
// bit 17 marked for pairs of waves only (multicast_pair), bits 18-27 the
// sources of its address (analysis::Sources).
constexpr uint32_t kMulticastMark = 1u << 16;
constexpr uint32_t kMulticastPairMark = 1u << 17;
constexpr unsigned kMulticastSourcesShift = 18;
uint32_t multicast_mark(const analysis::InstructionMark& m);
// Whether a read with marks `bits` may be multicast in a workgroup of `shape`
// (analysis::multicast) that has more than one wave.
bool multicast_allowed(uint32_t bits, const analysis::WorkgroupShape& shape);
// Registers the marker (once per process; later calls do nothing).
void register_multicast_marker();

// A marked read offered to the unit.
struct MulticastRead {
  const void* group = nullptr;  // its workgroup: only reads of one workgroup merge
  LdsPipeline::Tag tag;         // its wave (owner) and instruction, given back when it is served
  uint64_t key = 0;             // the instruction as encoded: opcode, registers, offsets
  LdsRequest request;           // active lanes and per-lane addresses
};

// A read held in the table, with its own copy of the addresses.
class HeldRead {
 public:
  void hold(const MulticastRead& r, uint64_t deadline);
  const void* group() const { return group_; }
  const LdsPipeline::Tag& tag() const { return tag_; }
  uint64_t key() const { return key_; }
  uint32_t fingerprint() const { return fingerprint_; }
  uint64_t deadline() const { return deadline_; }
  // The request, pointing into this entry's addresses (valid while it lives).
  LdsRequest request() const;
  // Whether `r` reads exactly the same lanes and addresses.
  bool same_addresses(const LdsRequest& r) const;

 private:
  const void* group_ = nullptr;
  LdsPipeline::Tag tag_;
  uint64_t key_ = 0, exec_ = 0, deadline_ = 0;
  uint32_t fingerprint_ = 0;
  unsigned addresses_per_lane_ = 1, bytes_ = 4;
  std::array<std::array<uint32_t, 64>, 2> addr_{};
};

// The first active lane's first address (0 with no active lane).
uint32_t fingerprint(const LdsRequest& r);

class LdsMulticast {
 public:
  // `table`: entries of the load request table (0: every read is served at
  // once); `wait`: cycles a read may wait for its partner.
  LdsMulticast(unsigned table, unsigned wait);

  enum class Outcome {
    Waiting,   // kept in the table: no bank access yet
    Merged,    // `partner` (out of the table now) and this read share one access
    Mismatch,  // `partner` matched by key and fingerprint but not by address: both are ordinary reads
    TableFull, // an ordinary read
  };
  Outcome offer(const MulticastRead& r, uint64_t c, HeldRead& partner);

  // The oldest waiting read whose wait has ended by cycle c, taken out.
  bool pop_expired(uint64_t c, HeldRead& out);
  // A waiting read of workgroup `group`, taken out (no partner can come).
  bool pop_group(const void* group, HeldRead& out);
  // The cycle the next wait ends; LdsPipeline::kNone with none waiting.
  uint64_t next_deadline() const;
  size_t waiting() const { return used_; }

 private:
  void take(size_t i, HeldRead& out);
  unsigned wait_;
  std::vector<HeldRead> table_;  // entries [0, used_) in arrival order
  size_t used_ = 0;
};

}  // namespace tessera::lds
