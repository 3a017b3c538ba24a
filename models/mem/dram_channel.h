// The timing of one DRAM channel: its banks with open-page row buffers, its
// data bus, and the scheduler that picks which queued request's command goes
// next. Plain C++ over sc_time; the dram_controller block owns one per channel,
// queues requests into it and asks it, at the times it names, what to issue.
//
// Commands and their timing (all in absolute simulated time):
//   ACT  opens a row in a closed bank; a column command may follow tRCD later.
//   PRE  closes the open row; no earlier than tRAS after that row's ACT; an
//        ACT may follow tRP later.
//   COL  a read or write of the request's bursts to the open row; its data
//        occupies the bus from COL + tCL for bursts * burst_time. A column is
//        issued only when its data can start on time (bus free by COL + tCL),
//        so data of back-to-back row hits streams without gaps.
// A request's outcome is a row hit (its row was open when it became the
// bank's next request), a miss (the bank was closed: ACT) or a conflict
// (another row was open: PRE + ACT). Unloaded latency from arrival to the end
// of the data: hit tCL + T, miss tRCD + tCL + T, conflict tRP + tRCD + tCL + T
// (plus any wait for tRAS), where T = bursts * burst_time.
//
// Schedulers:
//   fcfs    column commands strictly in arrival order; each bank is opened
//           ahead for its oldest queued request (so activates of later
//           requests overlap earlier data transfers).
//   frfcfs  first-ready FCFS: the oldest request whose row is open goes first;
//           a bank is opened for its oldest request only when no queued
//           request still hits the bank's open row.
// Further constraints, each off while its time is zero:
//   refresh   every tREFI the channel precharges all banks (once their tRAS
//             and write recovery allow and the bus is quiet), then refreshes
//             for tRFC: no ACT or column until then, every row closed after.
//             Per-bank (tRFCsb > 0, HBM2's REFSB): every tREFI / banks one
//             bank, in turn, is precharged (once its tRAS and write recovery
//             allow) and refreshed for tRFCsb; the other banks go on.
//   tWR       a bank's PRE no earlier than tWR after its last write data.
//   tRRD/tFAW ACT to ACT (any two banks) at least tRRD apart; at most four
//             ACTs in any tFAW window. By default each ACT is placed no
//             earlier than the ACT decided before it (`act_in_time_order`
//             false); with act_in_time_order an ACT takes the earliest time
//             the ACTs already placed allow, before them where a gap does, as
//             a command scheduler that issues ready ACTs first: a bank whose
//             PRE waits for tRAS then delays no other bank's ACT.
//   turnaround a read column no earlier than tWTR after the last write data;
//             a write's data no earlier than tRTW after the last read data.
//   bank groups banks are in `bank_groups` groups (bank % bank_groups);
//             a request's column no earlier than tCCD_L after the last column
//             to its group, tCCD_S after the last column to any group. A
//             request is one column access: its bursts stream back to back.
//   starvation FR-FCFS: once `starvation_cap` younger requests have gone
//             ahead of the channel's oldest, it goes next (its bank's row is
//             closed for it even if other requests still hit it).
// Not modelled: the command bus (any number of commands per instant), tRTP,
// tRREFD (REFSB to another bank's REFSB or ACT).
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "common/ring.h"

namespace tessera {

enum class RowOutcome : uint8_t { Hit, Miss, Conflict };

struct DramTiming {
  sc_core::sc_time tCL, tRCD, tRP, tRAS;
  sc_core::sc_time burst_time;  // one burst on the data bus
  uint64_t burst_bytes = 32;
  // Zero: the constraint is off.
  sc_core::sc_time tREFI, tRFC, tWR, tRRD, tFAW, tWTR, tRTW, tCCD_S, tCCD_L;
  sc_core::sc_time tRFCsb;  // > 0: per-bank refresh (tRFC unused), one bank every tREFI / banks
  unsigned bank_groups = 1;
  unsigned starvation_cap = 0;  // FR-FCFS only; 0: none
  bool act_in_time_order = false;  // ACTs fill gaps before ACTs decided earlier
};

struct DramRequest {
  uint64_t seq = 0;       // arrival order, for age comparisons
  unsigned bank = 0;
  uint64_t row = 0;
  unsigned bursts = 1;    // data-bus bursts the request occupies
  bool write = false;     // data towards the DRAM (bus turnaround, write recovery)
  void* user = nullptr;   // the owner's handle (the transaction)
  RowOutcome outcome = RowOutcome::Hit;
  // The owner's, handed back with the request when its column is issued (the
  // controller's: whether it answers early, and the arrival, an sc_time value).
  bool early = false;
  uint64_t arrived = 0;
  uint64_t after_data = 0;  // the owner's: time (an sc_time value) its answer waits after the data
};

struct DramIssued {
  DramRequest req;
  sc_core::sc_time data_start, data_end;
};

class DramChannel {
 public:
  enum class Policy { Fcfs, FrFcfs };

  DramChannel(const DramTiming& timing, unsigned banks, Policy policy);

  // Requests are pushed in arrival order (increasing seq).
  void push(const DramRequest& r);
  size_t queued() const { return queued_; }

  // Issues every command allowed at `now`, appending the requests whose column
  // command went out to `issued`. Returns the next time something may be
  // issued, or sc_max_time() when the queue is empty.
  sc_core::sc_time schedule(const sc_core::sc_time& now, std::vector<DramIssued>& issued);

  // Time the data bus carried data, in total.
  sc_core::sc_time bus_busy() const { return bus_busy_; }
  // Refreshes done so far.
  uint64_t refreshes() const { return refreshes_; }

 private:
  static constexpr uint64_t kNone = ~uint64_t{0};  // no request (a seq)

  // Requests wait in their bank's queue: what the scheduler asks of a bank
  // (its oldest request, a request for its open row) is then found among
  // that bank's few requests, not by walking the whole channel's queue.
  struct Bank {
    bool open = false;
    bool dirty = false;    // on dirty_
    bool opening = false;  // on opening_
    uint64_t row = 0;
    sc_core::sc_time ready;   // the open row accepts column commands from then
    sc_core::sc_time act_at;  // last ACT, for tRAS
    sc_core::sc_time write_recovered;  // its last write's data end + tWR: PRE no earlier
    // The oldest queued request's row, kept beside the bank's state: the
    // scheduler reads it whenever it decides for the bank, and the queue's
    // own storage is elsewhere in memory.
    uint64_t front_row = 0;
    // FR-FCFS: the oldest queued request for the open row (the bank's
    // candidate for the next column): its seq, kNone if none (or the bank is
    // closed), and its position in `queue`. Kept up to date as requests come
    // and go, so that neither picking a column nor deciding whether to keep
    // the row open walks the queue.
    uint64_t hit_seq = kNone;
    size_t hit = 0;
    Ring<DramRequest> queue;  // arrival order
  };
  struct Pick {  // a request whose column command may go now
    unsigned bank;
    size_t index;  // in the bank's queue
  };

  // The request whose column command goes next, if any (its row open and ready).
  bool pick_column(const sc_core::sc_time& now, Pick& pick) const;
  // The earliest time its column may go: the data bus, turnaround, tCCD.
  sc_core::sc_time column_time(const Pick& pick, const sc_core::sc_time& now) const;
  // Applies the refreshes due by `now`: closes every row, blocks the banks until the last one ends.
  void refresh(const sc_core::sc_time& now);
  // Per-bank refresh due at `due`: bank `bi` only.
  void refresh_bank(unsigned bi, const sc_core::sc_time& due);
  sc_core::sc_time refresh_interval() const;
  // The time an ACT wanted at `at` (decided at `now`) may go under tRRD and tFAW; records it.
  sc_core::sc_time activate_at(sc_core::sc_time at, const sc_core::sc_time& now);
  // act_in_time_order: the earliest time from `at` that the ACTs placed so far allow.
  sc_core::sc_time activate_in_gap(sc_core::sc_time at, const sc_core::sc_time& now);
  // FR-FCFS with a starvation cap: the bank of the channel's oldest request once it has been passed too often.
  int starving_bank() const;
  unsigned group_of(unsigned bank) const { return bank % t_.bank_groups; }
  void issue_column(const Pick& pick, const sc_core::sc_time& now, std::vector<DramIssued>& issued);
  // Opens banks for the requests the policy lets go ahead. Returns the
  // earliest time after `now` a bank with requests finishes opening
  // (sc_max_time() if none).
  sc_core::sc_time prepare_banks(const sc_core::sc_time& now);
  // Opens the row of the bank's oldest request.
  void open_row(Bank& bank, const sc_core::sc_time& now);
  void mark_dirty(unsigned bank) {
    if (banks_[bank].dirty) return;
    banks_[bank].dirty = true;
    dirty_.push_back(bank);
  }
  // FR-FCFS: finds the bank's oldest request for its open row at or after position `from`.
  void find_hit(Bank& b, size_t from);
  static bool hits_front(const Bank& b) { return b.open && b.row == b.front_row; }
  static void note_front(Bank& b) {
    if (!b.queue.empty()) b.front_row = b.queue.front().row;
  }

  DramTiming t_;
  Policy policy_;
  sc_core::sc_time never_;         // sc_max_time(), a library call, asked for on every schedule
  std::vector<Bank> banks_;
  std::vector<unsigned> busy_;     // banks with queued requests, in no particular order
  // FCFS: the bank of every queued request, in arrival order. Columns go in
  // arrival order, so the front is the bank of the oldest request, the only
  // one that may go next, and it is the one that leaves.
  Ring<unsigned> order_;
  // Which banks prepare_banks must look at. A bank's decision (open a row for
  // its oldest request or not) changes only when its oldest request or its
  // requests for the open row change (a request into an empty bank, a column
  // issued) or when a row it was opening becomes ready; every other bank
  // would decide as it did last time, so only these are visited.
  std::vector<unsigned> dirty_;    // banks to decide again
  std::vector<unsigned> opening_;  // banks whose row is ready only after the time prepare_banks last ran
  sc_core::sc_time opening_ready_;  // the earliest of their ready times (never_: none)
  size_t queued_ = 0;
  sc_core::sc_time bus_free_;      // data bus free from then
  sc_core::sc_time bus_busy_;
  sc_core::sc_time next_refresh_;  // the next refresh is due then (tREFI > 0)
  uint64_t refreshes_ = 0;
  unsigned next_refresh_bank_ = 0;  // per-bank refresh: the bank whose turn is next
  sc_core::sc_time last_read_end_, last_write_end_;  // data ends, for turnaround
  bool any_read_ = false, any_write_ = false;
  sc_core::sc_time acts_[4];       // the last four ACTs, oldest at acts_next_ (tFAW)
  unsigned acts_next_ = 0;
  sc_core::sc_time last_act_;      // the latest ACT (tRRD)
  uint64_t acts_count_ = 0;
  std::vector<sc_core::sc_time> act_times_;  // act_in_time_order: placed ACTs in time order, recent ones
  sc_core::sc_time last_column_;   // the latest column command (tCCD_S)
  std::vector<sc_core::sc_time> group_column_;  // per bank group (tCCD_L)
  std::vector<uint8_t> group_used_;
  bool any_column_ = false;
  unsigned bypassed_ = 0;          // columns issued since the channel's oldest request became oldest
};

}  // namespace tessera
