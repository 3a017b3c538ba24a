// CABA's Assist Warp Controller (docs/CABA.md, "Assist warps"): the table of
// live assist warps of one compute unit and their issue.
//
// A compressed fill of the vector L1 (its answers carry GpuAccess::
// cu_decompress and the fill's number) deploys one high-priority
// decompression assist warp, in the context of the wave of the first request
// it answers (its parent): the routine of the line's encoding in the Assist
// Warp Store runs on the line's real image in the registers the parent
// reserved for it. Every
// request the fill answers, and every L1 hit on the line meanwhile, completes
// only when the routine has ended (the line is then held uncompressed in the
// L1, as the paper keeps it, and later hits need no assist warp). The paper
// allows one instance of a routine per thread: a line's rebuild takes 3
// VGPRs in at most vmem_line / 2 lanes of the wave's reserved registers, so a
// wave runs assist_warps_per_wave of them at once (by default as many as the
// reserved registers hold, CuConfig::assist_per_register_set(), in disjoint
// registers and lanes, each with its own active mask: entries of the table);
// the others wait in the controller's queue.
//
// A vector store that writes a whole line is held in the store buffer (the
// paper's few dedicated L1 sets, assist_store_buffer lines) until a
// low-priority compression assist warp, one of the two entries of the
// low-priority partition, has chosen the line's encoding (`done` receives
// it), testing first the encoding chosen last; with the buffer full the line
// goes uncompressed (a buffer-full event). Before that, the kernel's
// compression policy (assist_compress_policy.h) may send it uncompressed
// without an assist warp.
//
// Issue: the CU calls issue() each cycle before its waves issue, so a
// high-priority assist warp goes into its parent's instruction stream ahead
// of the waves, and issue_idle() after them in a cycle where no wave issued:
// only then do the low-priority ones issue. at most one instruction per assist warp per cycle, each on
// the unit its class needs (a VALU op on the parent's SIMD, SALU, branch) and
// only if that unit is free; it takes the unit as a wave's instruction would.
// Dependencies are the scoreboard's. ds_bpermute_b32 (the routine's gathers)
// has the LDS latency but does not occupy the LDS pipeline, and s_waitcnt is
// satisfied by the scoreboard (simplifications, docs/CABA.md).
#pragma once
#include <cstdint>
#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/cu/assist_compress_policy.h"
#include "models/cu/assist_warp_store.h"
#include "models/cu/cu_config.h"
#include "models/cu/scoreboard.h"
#include "platform/stats.h"

namespace tessera {

enum class AssistPriority : uint8_t { High, Low, Count };

struct AssistWarpStats {
  explicit AssistWarpStats(StatGroup& g);
  Counter& started_decompress_high;  // assist warps started, by routine and priority
  Counter& finished_decompress_high;
  Counter& instructions_high;        // instructions the assist warps issued, by priority
  Counter& instructions_low;
  Counter& parent_wait_cycles;       // cycles loads waited for their lines' assist warps (from arrival to end)
  Counter& queued;                   // assist warps that waited for their parent's registers (one was live)
  Counter& fill_waiters;             // requests of a compressed fill served by another request's assist warp
  Counter& hits_waited;              // L1 hits on a line being rebuilt, which waited for its assist warp
  Counter& checked;                  // rebuilt lines compared with the line's bytes (assist_warp_check)
  Counter& started_compress_low;
  Counter& finished_compress_low;
  Counter& buffer_full;              // full-line stores sent uncompressed: the store buffer was full
  Counter& stores_waited;            // buffered stores that waited for a low-priority entry
  Counter& first_kept;               // compressed lines that fitted the encoding tested first
  std::vector<Counter*> lines_decompressed;  // by encoding
  std::vector<Counter*> lines_compressed;    // by the encoding the compression routine chose
};

// The CU's units an assist warp issues to: the first cycle each is free.
struct AssistUnits {
  std::vector<uint64_t>& simd_free;
  uint64_t& salu_free;
  uint64_t& branch_free;
};

class AssistWarpController {
 public:
  // `slots`: the CU's wave slots (an assist warp's parent is one of them).
  // `fail` reports a rebuilt line that differs from the line (with the check on).
  AssistWarpController(StatGroup& g, const CuConfig& cfg, unsigned slots, std::function<void(const std::string&)> fail);

  // The L1's compressed fill number `fill` of the line at `addr` (its bytes
  // `line`, read through the caches) answered a load of the wave in slot
  // `parent` on `simd`. The fill's first answer deploys the assist warp that
  // rebuilds the line from its image; `done` runs from issue() when the
  // routine has ended, for this and every other answer of the fill. Returns
  // false when the request needs no wait: the line does not compress, or
  // this fill's line has already been rebuilt.
  bool decompress(unsigned parent, unsigned simd, uint64_t addr, uint64_t fill, const std::vector<uint8_t>& line,
                  std::function<void()> done, uint64_t c);
  // A load served from the line at `addr` without a compressed fill (an L1
  // hit): while that line is being rebuilt it waits for the routine (`done`,
  // true); otherwise false, nothing to wait for.
  bool wait_rebuild(uint64_t addr, std::function<void()> done);

  // A store of wave slot `parent` on `simd`, running `kernel` (a name that
  // outlives the store), writes the whole line at `addr` (`line`): compress
  // it at low priority; `done` runs from issue_idle() with the encoding the
  // routine chose. False when it goes uncompressed at once: the kernel's
  // policy skips it or the store buffer is full.
  bool compress(const std::string& kernel, unsigned parent, unsigned simd, uint64_t addr,
                const std::vector<uint8_t>& line, std::function<void(bdi::Encoding)> done, uint64_t c);

  // Cycle c: each live high-priority assist warp issues its next instruction
  // if its operands are ready and its unit is free.
  void issue(uint64_t c, AssistUnits& units);
  // Cycle c, in which no wave issued: the low-priority ones likewise.
  void issue_idle(uint64_t c, AssistUnits& units);

  bool busy() const { return live_ != 0 || low_live_ != 0; }
  const AssistWarpStore& store() const { return store_; }
  const AssistCompressPolicy& policy() const { return policy_; }

 private:
  // One entry of the table: a live assist warp.
  struct Entry {
    bool live = false;
    unsigned parent = 0, simd = 0;  // parent wave slot and its SIMD
    AssistRoutine routine = AssistRoutine::Decompress;
    AssistPriority priority = AssistPriority::High;
    // Its registers (the parent's reserved ones): live in v0 (image) and s1
    // (line size), live out v2 (the line); EXEC is its active mask and the
    // wave's PC its position in the routine.
    std::unique_ptr<isa::Wave> wave;
    Scoreboard board;
    uint64_t ready_at = 0;          // no issue before (branch latency)
    uint64_t arrived = 0;           // the cycle the compressed line arrived
    uint64_t addr = 0;
    bdi::Encoding encoding = bdi::Encoding::uncompressed;  // the line's; compression: the one tested first
    std::vector<uint8_t> line;      // the line's bytes, for the check
    std::function<void()> done;
    std::function<void(bdi::Encoding)> compressed;  // low priority: told the encoding
    const std::string* kernel = nullptr;            // low priority: the storing wave's kernel
  };
  struct Waiting {
    unsigned parent, simd;
    uint64_t addr, arrived;
    std::vector<uint8_t> line;
    std::function<void()> done;
    std::function<void(bdi::Encoding)> compressed;  // a buffered store: told the encoding
    const std::string* kernel = nullptr;            // a buffered store: its kernel
  };
  // The last compressed fill of a line (by line address) and the requests
  // waiting for its rebuild.
  struct Fill {
    uint64_t id = 0;
    bool rebuilding = false;
    std::vector<std::function<void()>> waiting;
  };

  void start(Entry& e, Waiting&& w);
  bool issue_one(Entry& e, uint64_t c, AssistUnits& units);
  void finish(Entry& e, uint64_t c);
  void finish_compress(Entry& e, uint64_t c);
  void start_compress(Entry& e, Waiting&& w);
  void rebuilt(uint64_t addr);

  const CuConfig& cfg_;
  AssistWarpStore store_;
  AssistWarpStats st_;
  AssistCompressPolicy policy_;
  std::function<void(const std::string&)> fail_;
  std::vector<Entry> table_;        // assist_warps_per_wave entries per parent wave slot
  std::deque<Waiting> waiting_;     // behind a live assist warp of the same parent
  std::unordered_map<uint64_t, Fill> fills_;  // by line address
  unsigned live_ = 0;
  std::vector<Entry> low_;          // the low-priority partition (2 entries)
  unsigned low_live_ = 0;
  std::deque<Waiting> stores_;      // buffered stores waiting for a low-priority entry
  // The encoding the last compression assist warp chose: the next one tests
  // it first (uncompressed: every encoding).
  bdi::Encoding last_chosen_ = bdi::Encoding::uncompressed;
};

}  // namespace tessera
