// Traces: a record of what the platform did over time, written as Chrome
// trace-event JSON (the format ui.perfetto.dev and chrome://tracing open).
//
// One Tracer per platform, created only when a trace was asked for
// (`--trace FILE`). Blocks reach it through Block::tracer(), which is null
// when tracing is off or the trace filter leaves the block out, so a hook
// costs a null-pointer test when off. A hook records a finished slice
// (begin and end known) or a counter value; nothing is written until the end.
//
// Events are kept in memory up to a limit (--trace-limit, 1,000,000 by
// default); later ones are dropped, counted, and said on stderr and in the
// file's metadata, except the few outline slices (launches, packets, ranges). The file is written sorted by time, so timestamps rise on
// every track; overlapping slices of one track (requests in flight, resident
// workgroups) are laid out on numbered lanes, "vmem #0", "vmem #1", ...
// docs/TIMING.md, "Traces", describes the content.
#pragma once
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <systemc>

namespace tessera {

class Platform;
class StatGroup;

// What a trace holds, selectable with --trace-filter.
enum class TraceKind : uint32_t {
  Launch = 1u << 0,     // kernel launches, as the host sees them (the timing device)
  Cp = 1u << 1,         // the command processor: firmware awake, AQL packets per queue
  Dispatch = 1u << 2,   // workgroup ranges per dispatcher
  Workgroup = 1u << 3,  // workgroups resident on each compute unit
  Wave = 1u << 4,       // wave lifetimes per wave slot
  Stall = 1u << 5,      // why a resident wave did not issue, per interval
  Memory = 1u << 6,     // memory requests: the CUs' and the DRAM controllers'
  Counter = 1u << 7,    // counter tracks: DRAM bytes, L2 hit rate, inter-chiplet bytes
};
using TraceKinds = uint32_t;
constexpr TraceKinds kAllTraceKinds = (1u << 8) - 1;

struct TraceOptions {
  std::string file;                  // empty: no trace
  bool force = false;                // replace an existing file
  std::vector<std::string> filters;  // --trace-filter, "PATTERN[:KIND,...]" each
  uint64_t event_limit = 1000000;    // 0: no limit
  double interval_seconds = 1e-6;    // counter tracks: one value per interval

  bool enabled() const { return !file.empty(); }
};

class Tracer {
 public:
  // Throws UsageError for a bad filter.
  explicit Tracer(TraceOptions options);
  Tracer(const Tracer&) = delete;
  Tracer& operator=(const Tracer&) = delete;

  const TraceOptions& options() const { return options_; }
  // The kinds kept for a block at `path` (0: none, the block gets no tracer).
  TraceKinds kinds_for(const std::string& path) const;
  // Kinds that belong to no block (Launch, Counter): kept?
  bool keeps(TraceKind platform_kind) const;

  // A track: one row of slices in the viewer, grouped under `group` (a block
  // path). With `lanes`, overlapping slices are spread over numbered rows.
  uint32_t track(const std::string& group, const std::string& row, bool lanes = false);
  // An interned text: slice names and argument labels.
  uint32_t text(const std::string& s);

  // Arguments shown with a slice; `hex` prints the value as "0x...".
  struct Arg {
    uint32_t label;
    double value;
    bool hex = false;
  };
  // A slice from `begin` to `end` (sc_time values, in ticks of the time resolution).
  void slice(uint32_t track, uint32_t name, uint64_t begin, uint64_t end, std::initializer_list<Arg> args = {}) {
    add_slice(track, name, begin, end, args, false);
  }
  // A slice of the run's outline (launches, packets, ranges, the CP awake: a
  // few per launch), kept even past the event limit so that a truncated trace
  // still shows the whole run's shape.
  void outline(uint32_t track, uint32_t name, uint64_t begin, uint64_t end, std::initializer_list<Arg> args = {}) {
    add_slice(track, name, begin, end, args, true);
  }
  // Convenience for blocks that count in cycles of `period`.
  void slice_cycles(uint32_t track, uint32_t name, uint64_t begin, uint64_t end, const sc_core::sc_time& period,
                    std::initializer_list<Arg> args = {}) {
    slice(track, name, begin * period.value(), end * period.value(), args);
  }

  // Call once, after elaboration: blocks are shown in netlist order (after
  // the host's and the counters' tracks), and counter tracks sum over them.
  void attach(const Platform& platform);
  // Samples the counters if an interval has ended by `now` (called from every record).
  void sample_counters(uint64_t now);

  uint64_t events() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }

  // Samples the counters a last time and writes the file: a temporary file
  // beside it, renamed over it when complete. Throws UserError on failure.
  void write();

 private:
  struct Event {
    uint64_t ts, dur;    // ticks
    uint32_t track, name;
    uint32_t first_arg, args;
    char phase;          // 'X' slice, 'C' counter
  };
  struct Track {
    uint32_t group;      // index in groups_
    std::string row;
    bool lanes;
  };
  struct Filter {
    std::string pattern;  // empty: every block
    TraceKinds kinds;
  };
  // A counter track: the sum of some counters over blocks of some types.
  struct CounterSum {
    std::vector<std::pair<const StatGroup*, std::string>> sources;  // group, counter name
    uint64_t last = 0;
  };
  void record(Event e, std::initializer_list<Arg> args, bool outline);
  void add_slice(uint32_t track, uint32_t name, uint64_t begin, uint64_t end, std::initializer_list<Arg> args,
                 bool outline);
  uint64_t sum(const CounterSum& c) const;
  uint64_t nanoseconds(uint64_t ticks) const;  // rounded to the nearest
  void counter(uint32_t name, uint64_t ts, std::initializer_list<Arg> args);
  void write_to(std::FILE* out);

  TraceOptions options_;
  std::vector<Filter> filters_;
  double tick_us_;                       // microseconds per tick
  uint64_t tick_ps_;                     // picoseconds per tick (0: finer than a picosecond)
  uint64_t interval_ticks_;
  std::vector<std::string> groups_;
  std::map<std::string, uint32_t> group_ids_;
  std::map<std::string, size_t> group_rank_;  // sort index by group name
  std::vector<Track> tracks_;
  std::map<std::pair<uint32_t, std::string>, uint32_t> track_ids_;
  std::vector<std::string> texts_;
  std::map<std::string, uint32_t> text_ids_;
  std::vector<Event> events_;
  std::vector<Arg> args_;
  uint64_t dropped_ = 0;
  uint64_t outline_over_limit_ = 0;       // outline slices kept past the limit
  uint64_t first_dropped_ts_ = UINT64_MAX;  // the earliest event not kept
  // Counter tracks.
  bool counting_ = false;
  uint64_t next_sample_ = 0, last_sample_ = 0;
  CounterSum dram_read_, dram_written_, l2_hits_, l2_misses_, remote_;
  uint32_t counter_track_ = 0, dram_name_ = 0, l2_rate_name_ = 0, l2_lookups_name_ = 0, remote_name_ = 0;
  uint32_t read_label_ = 0, written_label_ = 0, rate_label_ = 0, lookups_label_ = 0, bytes_label_ = 0;
  bool sampling_ = false;  // inside sample_counters (its own records must not sample again)
};

}  // namespace tessera
