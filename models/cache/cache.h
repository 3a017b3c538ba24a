// One cache engine behind the four cache block types (l1v_cache,
// scalar_cache, instruction_cache, l2_cache): a set-associative array holding
// real copies of lines, MSHRs, banks and ports, write-through or write-back,
// in an approximately-timed TLM shell. docs/CACHES.md has the model, the timing
// equations and the statistics.
//
// Sockets: in[] (targets; several requesters may share one cache), out (the
// next level), ctrl (optional; CacheCommand maintenance).
//
// Processes (Activities run by platform/scheduler.h; none runs while the
// cache is idle):
//   accept_method   takes arrived requests on the clock grid: at most `ports`
//                   per cycle, one per bank per cycle, while fewer than
//                   queue_depth are unanswered and an MSHR (or MSHR target) is
//                   free for a miss. Acceptance is the tag lookup; END_REQ is
//                   sent then, so a request that cannot be looked up waits
//                   without END_REQ (back-pressure). A request arriving on
//                   a clock edge with none waiting is accepted (or not) by
//                   the same rules inside nb_transport_fw (accept_at_once).
//   respond_method  sends BEGIN_RESP in ready-time order, one in flight per in[]
//                   (the shared AtMultiTargetPort, models/mem/at_multi_target_port.h,
//                   which keeps that exclusion and checks the requesters' phases).
//                   Requesters that set GpuAccess::early_response are instead
//                   answered as soon as the answer is known, annotated with its
//                   time (respond_early); their queue places free at that time.
//   out_method      sends fills, forwarded requests and writebacks on `out`,
//                   one per cycle, one BEGIN_REQ awaiting END_REQ at a time
//                   (the shared AtInitiatorPort, models/mem/at_initiator_port.h).
//   down_method     takes responses from `out`: installs fills and answers the
//                   requests waiting on them.
//   maint_method    runs maintenance commands from ctrl.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/cache/atomic_homes.h"
#include "models/cache/cache_bdi.h"
#include "models/cache/cache_array.h"
#include "models/cache/cache_config.h"
#include "models/cache/hmg_homes.h"
#include "models/noc/chiplet_fabric.h"
#include "models/cache/zero_cache.h"
#include "common/due_queue.h"
#include "common/flat_map.h"
#include "models/mem/at_initiator_port.h"
#include "models/mem/at_multi_target_port.h"
#include "models/mem/gpu_access.h"
#include "models/mem/protocol_checker.h"
#include "models/mem/socket_table.h"
#include "models/mem/timed_queue.h"
#include "models/mem/tlm_helpers.h"
#include "platform/block.h"
#include "platform/registry.h"
#include "platform/scheduler.h"

namespace tessera {

class Cache : public Block {
 public:
  SC_HAS_PROCESS(Cache);
  using TargetSocket = tlm_utils::simple_target_socket_tagged<Cache>;

  // An in[] socket: a TLM target socket whose forward path calls the cache
  // itself. A simple socket's goes through a member-function pointer and its
  // checks, some 25 host instructions on every call, for its conversions
  // between blocking and non-blocking calls, which the cache does not need
  // (it takes b_transport itself). Its AT calls go through in_port_.
  class InSocket : public tlm::tlm_target_socket<>, private tlm::tlm_fw_transport_if<> {
   public:
    InSocket(const char* name, Cache& cache, int port);

   private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d) override {
      return cache_.in_port_.nb_transport_fw(cache_, port_, t, ph, d);
    }
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& d) override { cache_.in_b_transport(port_, t, d); }
    unsigned int transport_dbg(tlm::tlm_generic_payload& t) override { return cache_.in_dbg(port_, t); }
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& t, tlm::tlm_dmi& dmi) override;

    Cache& cache_;
    const int port_;
  };

  Cache(const BlockContext& ctx, const CacheConfig& cfg);
  ~Cache() override;

  std::vector<std::unique_ptr<InSocket>> in;
  tlm_utils::simple_initiator_socket<Cache> out;
  TargetSocket ctrl;

  tlm::tlm_initiator_socket<>* initiator_socket(const std::string& name, int index) override;
  tlm::tlm_target_socket<>* target_socket(const std::string& name, int index) override;
  std::string summary() const override;
  void describe_pending(std::vector<std::string>& lines) const override;

  const CacheConfig& config() const { return cfg_; }
  const CacheArray& array() const { return array_; }
  // The zero cache carved out of this cache, or null (zero_fraction 0).
  const ZeroCache* zero_cache() const { return zero_.get(); }
  // Whether the cache holds any of `length` bytes at `addr` (within one line) dirty.
  bool holds_dirty(uint64_t addr, uint64_t length) const;
  // coherence hmg: an invalidation from the directory of `line`'s home
  // (another chiplet's write, or a directory eviction) drops the line, and
  // any fill of it in flight is used for its requests but not kept.
  void hmg_invalidate(uint64_t line);
  // The bytes of [addr, addr+len) this cache holds, copied out of its lines
  // into `dst` / from `src` into its lines (dirty state, LRU order and
  // statistics untouched); whether any line was held. The debug transport's
  // and the host's view of cached data (a dirty line is newer than memory).
  // Write-backs sent below and not yet answered hold bytes memory may not
  // have yet: they count as held, under the lines (older than a line held
  // again), and a write updates them too, so that they do not land stale.
  bool read_cached(uint64_t addr, uint8_t* dst, uint64_t len) const;
  bool write_cached(uint64_t addr, const uint8_t* src, uint64_t len);

 private:
  // A request from in[port].
  struct Upstream {
    tlm::tlm_generic_payload* trans = nullptr;
    int port = 0;
    sc_core::sc_time arrived;
    bool stalled = false;  // already counted as an MSHR stall
    uint64_t blocked_at = ~uint64_t{0};  // array_epoch_ when it last found no MSHR
    const GpuAccess* ext = nullptr;      // trans's GpuAccess (looked up once, on arrival)
  };
  enum class Op { Read, Write, Atomic, Ignore };
  // Work waiting on a fill, applied in arrival order when the line arrives:
  // a request to answer, or (write-through) the bytes of a write that was
  // forwarded while the fill was outstanding.
  struct MshrEntry {
    bool patch = false;
    Upstream up;
    unsigned offset = 0;
    std::vector<uint8_t> bytes, enables;
  };
  struct Mshr {
    uint64_t line = 0;
    unsigned targets = 0;     // requests (not patches) waiting
    bool install = true;      // false: an atomic passed the line; answer, do not keep it
    bool waiting_wb = false;  // the fill waits for a writeback of the same line
    std::vector<MshrEntry> entries;
  };
  enum class DownKind { Fill, Forward, Writeback };
  // A transaction this cache sends on `out` (pooled; its payload is itself).
  struct DownTxn : tlm::tlm_generic_payload {
    DownTxn();
    GpuAccess* ext;
    std::vector<uint8_t> data, enables;
    DownKind kind = DownKind::Fill;
    bool busy = false;  // taken from the pool (sent, or about to be)
    int mshr = -1;
    Upstream up;  // Forward: the request to answer
    uint64_t line = 0;
    uint64_t seq = 0;  // Writeback: the order it was sent in (for_writebacks_in_flight)
  };
  enum class MaintState { Idle, Draining, Walking, Responding };

  // ---- cache.cpp: sockets, acceptance, responses
  // The client of in_port_ (AtMultiTargetPort).
  friend class AtMultiTargetPort;
  tlm::tlm_sync_enum begin_req(int port, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  // Out of line: inlined into the in[] sockets' forward path, it would make
  // every BEGIN_REQ's entry there heavier.
  [[gnu::noinline]] void end_resp(int port, tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  // A report of what should not happen, out of line (see warn_refused()).
  [[gnu::cold, gnu::noinline]] void fill_failed(const DownTxn& d, uint64_t line) const;
  tlm::tlm_sync_enum accept_at_once(Upstream u, tlm::tlm_phase& ph, sc_core::sc_time& d);
  enum class Admission { Accepted, PortsUsed, QueueFull, BankBusy, NoMshr };
  Admission admit(Upstream& u, const sc_core::sc_time& now);
  void start_cycle(const sc_core::sc_time& now);  // the port and bank counters belong to `now`'s cycle
  void accept_method();
  void respond_method();
  void respond(const Upstream& u, const sc_core::sc_time& when);
  // Sends BEGIN_RESP annotated with `when` - now to a requester that takes
  // early responses; its place in the queue frees at `when`.
  void respond_early(const Upstream& u, const sc_core::sc_time& when);
  void early_answered(const Upstream& u, const sc_core::sc_time& when);
  void retire();
  // Queue places of early responses whose time has come, freed at their times.
  void release_early(uint64_t now) {
    if (!early_due_.empty() && early_due_.front().when <= now) release_due(now);
  }
  void release_due(uint64_t now);
  // Inline: every request changes the occupancy twice.
  void set_occupancy(unsigned n, uint64_t at) {  // at: an sc_time value
    const uint64_t held = at - occupancy_since_;
    occupancy_hist_.sample(occupancy_, picoseconds_of_ticks(held));
    occupancy_ = n;
    occupancy_since_ = at;
  }
  void end_of_simulation() override;
  // Times inside the cache are kept as sc_time values (ticks) where they need
  // arithmetic: sc_time::from_value is a library call.
  // The first clock edge at or after time value v.
  uint64_t align_ticks(uint64_t v) const {
    const uint64_t p = period_ticks_;
    if (p == 0 || v % p == 0) return v;  // on an edge already, as most times asked about are
    return (v + p - 1) / p * p;
  }
  sc_core::sc_time align(const sc_core::sc_time& t) const {  // next clock edge at or after t
    const uint64_t v = align_ticks(t.value());
    return v == t.value() ? t : sc_core::sc_time::from_value(v);
  }
  // The first clock edge at or after `d` from now, as a time value.
  uint64_t align_due(const sc_core::sc_time& d) const { return align_ticks(sim_now().value() + d.value()); }
  unsigned bank_of(uint64_t line) const;
  void before_end_of_elaboration() override;

  // ---- cache_lookup.cpp: what a request does to the array
  Op classify(const tlm::tlm_generic_payload& t, const GpuAccess* ext) const;
  bool bypasses(const tlm::tlm_generic_payload& t, const GpuAccess* ext) const;
  bool passes_miss(uint64_t line);
  // An error status for a malformed request, or TLM_OK_RESPONSE.
  tlm::tlm_response_status check(const tlm::tlm_generic_payload& t, Op op, const GpuAccess* ext) const;
  std::string why_refused(tlm::tlm_response_status status) const;
  // The tag lookup of an accepted request. false: blocked (no MSHR or MSHR
  // target free); nothing changed then.
  bool lookup(Upstream& u, const sc_core::sc_time& now);
  // The first error response's warning. Out of line, as is
  // fill_failed(): the strings they build would otherwise cost their hot
  // callers (lookup) a heavier entry and exit on every call.
  [[gnu::cold, gnu::noinline]] void warn_refused(const tlm::tlm_generic_payload& t, tlm::tlm_response_status status);
  bool lookup_write(Upstream& u, uint64_t line, int idx, const sc_core::sc_time& now);
  bool lookup_atomic(Upstream& u, uint64_t line, int idx, const sc_core::sc_time& now);
  // Adds `u` to the MSHR of `line`, opening one; false if none/no target is free.
  // A mask line's key (ZeroCache) counts its miss in the zero cache's counters.
  bool miss_target(Upstream& u, uint64_t line, const sc_core::sc_time& now);
  Mshr* mshr_of(uint64_t line);
  Mshr& open_mshr(int index, uint64_t line);
  int free_mshr() const;
  // MSHR i's bit in mshr_free_bits_.
  void set_mshr_free(size_t i, bool free) {
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (free)
      mshr_free_bits_[i / 64] |= bit;
    else
      mshr_free_bits_[i / 64] &= ~bit;
  }
  void count_request(const tlm::tlm_generic_payload& t, const GpuAccess* ext);
  // Copies the requested bytes of `line_data` into a read's buffer.
  void read_from_line(tlm::tlm_generic_payload& t, const uint8_t* line_data);
  void write_into_line(const tlm::tlm_generic_payload& t, uint8_t* line_data);
  void atomic_on_line(tlm::tlm_generic_payload& t, uint8_t* line_data);
  // Records this cache as the home of an atomic's line, and reports another
  // cache that holds bytes the atomic updates dirty (see AtomicHomes).
  void take_atomic_home(const tlm::tlm_generic_payload& t, const GpuAccess& ext);
  // Makes room for `line` and installs it; a dirty victim's data is returned
  // in `wb` (wb_line set) for the caller to write back.
  // A dirty victim's writeback: its line, data and byte enables (empty: the whole line).
  struct Victim {
    uint64_t line = 0;
    std::vector<uint8_t> data, enables;
    bool empty() const { return data.empty(); }
  };
  int install_line(uint64_t line, Victim& wb);
  // The writeback of line `idx`, which must be dirty; the line becomes clean.
  Victim take_dirty(int idx);
  // Records that `t` wrote into line `idx` (its bytes become dirty).
  void mark_written(int idx, const tlm::tlm_generic_payload& t);
  void complete_fill(DownTxn& d, const sc_core::sc_time& now);
  // An MSHR entry holding the bytes `t` writes into `line`, applied when the fill arrives.
  static MshrEntry patch_entry(const tlm::tlm_generic_payload& t, uint64_t line);

  // ---- cache_zero.cpp: the zero cache's requests (ZeroMask queries and mask
  // writebacks), stores that update masks, mask fills
  bool lookup_zero_mask(Upstream& u, const sc_core::sc_time& now);
  bool zero_miss(Upstream& u, uint64_t key, const sc_core::sc_time& now);
  // The name of the shared zero cache the cache at `path` would belong to.
  static std::string zero_group(const std::string& path);
  // A store of zeros to whole words at a write-back, write-allocate cache
  // with a zero cache: only the mask line takes it (see docs/CACHES.md).
  bool zero_only_store(const tlm::tlm_generic_payload& t, const GpuAccess* ext) const;
  bool lookup_zero_store(Upstream& u, uint64_t line, int idx, const sc_core::sc_time& now);
  // The bytes of a zero-only store, written where data lives without moving
  // them in time: this cache's copy, a fill or writeback of the line in
  // flight, and (debug transport) the levels below.
  void write_zeros_functionally(const tlm::tlm_generic_payload& t, uint64_t line, int idx);
  // A store or owner atomic that changed data: its mask line, if present, changes too.
  void store_updates_mask(const tlm::tlm_generic_payload& t, Op op);
  void install_mask_line(Mshr& m, const sc_core::sc_time& now);
  void send_mask_fill(DownTxn& d, uint64_t key);
  // A dirty mask line's writeback: mask bytes moved, no data byte enabled.
  Victim mask_victim(uint64_t key) const;
  void zero_mask_lt(tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  // Where a writeback of `line` (a data line, or a mask line's key) goes, and as what.
  uint64_t writeback_address(uint64_t line) const;
  AccessKind writeback_kind(uint64_t line) const;
  void count_writeback(uint64_t line);
  void apply_entry(MshrEntry& e, uint8_t* line_data, int idx, const sc_core::sc_time& now);

  // ---- cache_hmg.cpp: coherence hmg (docs/CPELIDE.md, "HMG")
  void setup_hmg();
  // A fill of `line` is sent: this chiplet becomes a sharer in the home's directory.
  void hmg_fetch(uint64_t line);
  // A write's bytes leave for memory (write-through traffic).
  void hmg_wrote_through(uint64_t bytes);
  // A write (or atomic) of `line` went through to memory: the other sharers'
  // copies are invalidated, and a fill of the line that waited for the write
  // may go; returns how long the answer waits for the invalidations'
  // acknowledgements.
  sc_core::sc_time hmg_written(uint64_t line);
  // The platform's chiplet network, which carries the invalidations.
  void connect_hmg();
  // Invalidates `lines` lines from `first` at every chiplet of `sharers`, by
  // messages from `home` over the chiplet network; returns when the last
  // acknowledgement is back at the home.
  sc_core::sc_time hmg_send_invalidations(unsigned home, uint64_t sharers, uint64_t first, unsigned lines);
  // The request sent below for `line` (a writeback, or an hmg write) was
  // answered: a fill of the line that waited for it may go.
  void below_done(uint64_t line);

  // ---- cache_downstream.cpp: the out side
  DownTxn* new_down(DownKind kind);
  void free_down(DownTxn* d);
  void send_down(DownTxn* d, const sc_core::sc_time& when);
  void send_fill(int mshr, const sc_core::sc_time& when);
  void forward(const Upstream& u, const sc_core::sc_time& when);
  void send_writeback(Victim& wb, const sc_core::sc_time& when);
  void copy_request(const tlm::tlm_generic_payload& from, DownTxn& to);
  tlm::tlm_sync_enum out_bw(tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  // The client of out_port_ (AtInitiatorPort).
  friend class AtInitiatorPort;
  void request_taken(int, tlm::tlm_generic_payload& t, const sc_core::sc_time& d, bool on_call);
  void end_req(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d, bool on_call);
  tlm::tlm_sync_enum begin_resp(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d, bool target_done,
                                bool on_call);
  bool expects(tlm::tlm_generic_payload&) const { return true; }  // out carries only the cache's own
  void out_method();
  void down_method();
  void forward_done(DownTxn& d, const sc_core::sc_time& now);
  void writeback_done(DownTxn& d);

  // ---- cache_maintenance.cpp: ctrl
  tlm::tlm_sync_enum ctrl_fw(int, tlm::tlm_generic_payload& t, tlm::tlm_phase& ph, sc_core::sc_time& d);
  void ctrl_b_transport(int, tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  unsigned int ctrl_dbg(int, tlm::tlm_generic_payload& t);
  void maint_method();
  bool maint_start();
  void maint_walk(const sc_core::sc_time& now);
  void maint_finish();
  void dropped_dirty(uint64_t lines);
  // Applies `op` to the array; calls `writeback(victim, k)` for each dirty line (k: lines walked before it).
  template <class F>
  uint64_t maint_apply(CacheOp op, CacheCommand& cmd, F writeback);

  // ---- cache_functional.cpp: b_transport and debug access
  void in_b_transport(int port, tlm::tlm_generic_payload& t, sc_core::sc_time& d);
  unsigned int in_dbg(int port, tlm::tlm_generic_payload& t);
  int fill_lt(uint64_t line, sc_core::sc_time& d, tlm::tlm_response_status& status);
  void writeback_lt(Victim& wb, sc_core::sc_time& d);
  bool full_line(const tlm::tlm_generic_payload& t) const;  // writes every byte of one line
  // Calls f(index, offset in line, offset in range, bytes) for each held line overlapping [addr, addr+len).
  template <class F>
  bool for_cached(uint64_t addr, uint64_t len, F f) const;
  // Calls f(writeback, offset in line, offset in range, bytes) for each write-back not yet
  // answered that overlaps [addr, addr+len), oldest first.
  template <class F>
  bool for_writebacks_in_flight(uint64_t addr, uint64_t len, F f) const;

  // ---- cache_bdi.cpp: BDI compression (cfg_.compression), docs/CABA.md
  void setup_compression();
  // hold: an answer to a whole-line read leaves compressed.
  void compress_answer(const Upstream& u);
  // A transaction about to leave on `out` with a whole line (a store, a
  // writeback): its wire encoding.
  void compress_down(DownTxn& d);
  // hardware: the compressor's delay, added to a compressed store's answer
  // (not to its departure, which would let later requests overtake it).
  sc_core::sc_time compress_delay(const DownTxn& d) const;
  // hardware: the decompressor's delay for an answer arriving on `out`.
  sc_core::sc_time decompress_delay(const tlm::tlm_generic_payload& t);
  // cu: the reads a compressed fill answers carry its encoding to the compute unit.
  void mark_for_cu(const DownTxn& d, Mshr& m);

  CacheConfig cfg_;
  CacheArray array_;
  std::unique_ptr<ZeroCache> zero_;  // null: no zero cache
  uint64_t period_ticks_;                        // the clock period as an sc_time value
  sc_core::sc_time hit_delay_, miss_delay_;      // hit_latency and miss_latency cycles
  sc_core::sc_time zero_hit_delay_;              // zero_hit_latency, or hit_latency
  XorFold bank_fold_;  // xor_index: log2(banks)-bit fields

  // The processes (see the top of this file), run by the scheduler.
  Activity accept_{this, &Cache::accept_method};
  Activity respond_{this, &Cache::respond_method};
  Activity out_{this, &Cache::out_method};
  Activity down_{this, &Cache::down_method};
  Activity maint_{this, &Cache::maint_method};

  // Upstream side.
  struct Arrival {
    tlm::tlm_generic_payload* trans;
    int port;
  };
  TimedQueue<Arrival> req_peq_;
  std::vector<Upstream> waiting_;  // arrived, END_REQ withheld, in arrival order
  Trigger accept_event_{accept_}, cycle_event_{accept_}, respond_event_{respond_};
  sc_core::sc_time cycle_;        // the cycle the counters below belong to
  uint64_t cycle_stamp_ = 0;      // increases with every cycle the accept logic runs in
  unsigned accepted_in_cycle_ = 0;
  std::vector<uint64_t> bank_stamp_;  // per bank: the cycle_stamp_ of its last lookup
  DueQueue<Upstream> responses_;  // by ready time
  AtMultiTargetPort in_port_{path(), "in"};  // per in[]: BEGIN_RESP sent, END_RESP awaited
  unsigned occupancy_ = 0;
  uint64_t occupancy_since_ = 0;  // an sc_time value
  // Early responses by due time, with their in[] port (each holds a queue
  // place until then), and the request being looked up by accept_method, whose
  // early answer goes out in place of its END_REQ.
  DueQueue<int> early_due_;
  const tlm::tlm_generic_payload* accepting_ = nullptr;
  bool accepted_early_ = false;
  sc_core::sc_time accepted_early_when_;

  // MSHRs.
  std::vector<Mshr> mshrs_;
  FlatMap<uint64_t, int> mshr_by_line_;
  // Bit i set: MSHR i is free. The lowest free one is taken, found without
  // walking the MSHRs themselves.
  std::vector<uint64_t> mshr_free_bits_;
  // Changes whenever a line is installed or an MSHR frees: a request blocked
  // for an MSHR is looked up again only then.
  uint64_t array_epoch_ = 0;

  // Downstream side.
  std::vector<std::unique_ptr<DownTxn>> down_pool_;
  std::vector<DownTxn*> down_free_;
  DueQueue<DownTxn*> out_queue_;  // by earliest send time
  AtInitiatorPort out_port_{path(), "out", false};  // BEGIN_REQ sent, END_REQ awaited
  uint64_t out_next_ = 0;             // next cycle a request may leave (an sc_time value)
  uint64_t out_cycle_ = 0;            // the cycle of the last request sent (an sc_time value)
  unsigned out_sent_ = 0;             // requests sent in that cycle (at most out_ports)
  Trigger out_event_{out_};
  TimedQueue<tlm::tlm_generic_payload*> down_peq_;
  unsigned down_outstanding_ = 0;     // queued or sent on out, response not yet processed
  FlatMap<uint64_t, unsigned> wb_in_flight_;  // line -> writebacks not yet answered
  uint64_t writeback_seq_ = 0;  // write-backs sent so far (DownTxn::seq)

  // Maintenance.
  TimedQueue<tlm::tlm_generic_payload*> ctrl_peq_;
  std::deque<tlm::tlm_generic_payload*> ctrl_waiting_;
  tlm::tlm_generic_payload* maint_cmd_ = nullptr;
  MaintState maint_state_ = MaintState::Idle;
  sc_core::sc_time maint_started_, maint_walk_end_;
  Trigger maint_event_{maint_};
  bool ctrl_bound_ = false;
  std::unique_ptr<tlm_utils::simple_initiator_socket<Cache>> ctrl_tie_;  // binds an unused ctrl

  Counter &hits_, &misses_, &mshr_merges_, &mshr_full_stalls_, &bypasses_, &forwarded_, &fills_, &evictions_,
      &writebacks_, &atomic_lanes_, &errors_, &bytes_from_below_, &bytes_to_below_, &bytes_read_, &bytes_written_;
  Counter &req_load_, &req_store_, &req_atomic_, &req_scalar_, &req_ifetch_, &req_writeback_, &req_fill_;
  Counter &maint_commands_, &lines_invalidated_, &lines_written_back_, &maint_cycles_, &dirty_lines_dropped_;
  Counter& atomic_conflicts_;
  Histogram &occupancy_hist_, &latency_hist_;
  bool error_logged_ = false;
  bool dropped_logged_ = false;  // an Invalidate discarded dirty data (said once)
  // The platform's record of where atomics were applied; null unless this
  // cache applies them itself (write-back, atomics here).
  AtomicHomes* atomic_homes_ = nullptr;
  // Compression's counters, null when it is off (then not registered).
  std::unique_ptr<CacheBdiStats> bdi_;
  uint64_t cu_fills_ = 0;  // compressed fills marked for the compute unit (compression cu)
  // coherence hmg: the platform's slices and directories, this slice's chiplet, its counters (null when off).
  struct HmgStats {
    explicit HmgStats(StatGroup& g);  // cache_hmg.cpp
    Counter &directory_hits, &directory_misses, &directory_evictions, &invalidations_sent, &invalidations_received,
        &write_through_bytes, &invalidation_wait_cycles;
  };
  HmgHomes* hmg_ = nullptr;
  ChipletFabric* hmg_network_ = nullptr;  // carries the invalidations and their acknowledgements
  unsigned hmg_chiplet_ = 0;
  std::unique_ptr<HmgStats> hmg_stats_;

  // Used at elaboration and on protocol errors only: kept after the state the
  // simulation touches.
  ProtocolChecker checker_{path()};
  SocketTable<tlm::tlm_target_socket<>> targets_;  // in[]; ctrl is looked up apart (binding it is optional)
  SocketTable<tlm::tlm_initiator_socket<>> initiators_;
};

}  // namespace tessera
