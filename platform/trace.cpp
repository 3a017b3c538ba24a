#include "platform/trace.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>

#include <nlohmann/json.hpp>

#include "platform/errors.h"
#include "platform/netlist_names.h"
#include "platform/output_file.h"
#include "platform/platform.h"
#include "platform/stats.h"

namespace tessera {
namespace {

struct KindName {
  const char* name;
  TraceKinds kinds;
};
constexpr KindName kKindNames[] = {
    {"launch", TraceKinds(TraceKind::Launch)},       {"cp", TraceKinds(TraceKind::Cp)},
    {"dispatch", TraceKinds(TraceKind::Dispatch)},   {"workgroup", TraceKinds(TraceKind::Workgroup)},
    {"wave", TraceKinds(TraceKind::Wave)},           {"stall", TraceKinds(TraceKind::Stall)},
    {"memory", TraceKinds(TraceKind::Memory)},       {"counter", TraceKinds(TraceKind::Counter)},
    {"all", kAllTraceKinds},
};
// What a pattern without kinds selects: everything a block records.
constexpr TraceKinds kBlockKinds = kAllTraceKinds & ~TraceKinds(TraceKind::Launch);

std::string kind_list() {
  std::string s;
  for (const KindName& k : kKindNames) s += (s.empty() ? "" : ", ") + std::string(k.name);
  return s;
}

TraceKinds parse_kinds(const std::string& spec, const std::string& text) {
  TraceKinds kinds = 0;
  size_t from = 0;
  for (;;) {
    const size_t comma = text.find(',', from);
    const std::string name = text.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    const auto it = std::find_if(std::begin(kKindNames), std::end(kKindNames),
                                 [&](const KindName& k) { return name == k.name; });
    if (it == std::end(kKindNames))
      throw UsageError("bad --trace-filter \"" + spec + "\": unknown event kind \"" + name + "\" (kinds: " +
                       kind_list() + ")");
    kinds |= it->kinds;
    if (comma == std::string::npos) return kinds;
    from = comma + 1;
  }
}

// A block pattern as in --set ("chiplet[*].cu[0..3]"); "*" also stands for
// any one name. Checked here so that a typo is refused before the run.
void check_pattern(const std::string& spec, const std::string& pattern) {
  if (pattern.empty()) return;
  for (const std::string& seg : split_path(pattern)) {
    if (seg == "*") continue;
    try {
      parse_segment(seg, SegmentSyntax{true, true, false});
    } catch (const UserError& e) {
      throw UsageError("bad --trace-filter \"" + spec + "\": " + e.what());
    }
  }
}

// A pattern selects the blocks it names and every block inside them: its
// segments match the first segments of the path.
bool pattern_matches(const std::string& pattern, const std::string& path) {
  if (pattern.empty()) return true;
  const std::vector<std::string> want = split_path(pattern), have = split_path(path);
  if (want.size() > have.size()) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (want[i] != "*" && !segment_matches(parse_segment(want[i], SegmentSyntax{true, true, false}), have[i]))
      return false;
  return true;
}

// Whole nanoseconds, printed as microseconds with up to three decimals.
// Perfetto keeps nanoseconds and rounds each "ts" and "dur" on its own: times
// finer than that (a 1.8 GHz clock) could then make a slice end 1 ns after
// the slice that encloses it. Rounding begin and end to the nanosecond here
// keeps nesting and order exact.
void print_us(std::FILE* out, uint64_t ns) {
  char frac[4];
  std::snprintf(frac, sizeof frac, "%03llu", static_cast<unsigned long long>(ns % 1000));
  int n = 3;
  while (n > 0 && frac[n - 1] == '0') --n;
  frac[n] = 0;
  std::fprintf(out, "%llu%s%s", static_cast<unsigned long long>(ns / 1000), n ? "." : "", frac);
}

void print_number(std::FILE* out, double v, bool hex) {
  if (hex)
    std::fprintf(out, "\"0x%llx\"", static_cast<unsigned long long>(v));
  else if (v == std::floor(v) && std::fabs(v) < 9e15)
    std::fprintf(out, "%.0f", v);
  else
    std::fprintf(out, "%.6g", v);
}

}  // namespace

Tracer::Tracer(TraceOptions options) : options_(std::move(options)) {
  for (const std::string& spec : options_.filters) {
    const size_t colon = spec.find(':');
    Filter f;
    f.pattern = spec.substr(0, colon);
    if (f.pattern == "*") f.pattern.clear();
    if (spec.empty())
      throw UsageError("bad --trace-filter \"" + spec + "\": name blocks (a pattern such as 'cu[*]'), kinds (':" +
                       "wave,stall'), or both");
    check_pattern(spec, f.pattern);
    f.kinds = colon == std::string::npos ? kBlockKinds : parse_kinds(spec, spec.substr(colon + 1));
    filters_.push_back(f);
  }
  const double resolution = sc_core::sc_get_time_resolution().to_seconds();
  tick_us_ = resolution * 1e6;
  tick_ps_ = resolution >= 1e-12 ? static_cast<uint64_t>(std::llround(resolution * 1e12)) : 0;
  interval_ticks_ = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(options_.interval_seconds / resolution)));
}

TraceKinds Tracer::kinds_for(const std::string& path) const {
  if (filters_.empty()) return kAllTraceKinds;
  TraceKinds k = 0;
  for (const Filter& f : filters_)
    if (pattern_matches(f.pattern, path)) k |= f.kinds;
  return k & kBlockKinds;
}

bool Tracer::keeps(TraceKind kind) const {
  if (filters_.empty()) return true;
  for (const Filter& f : filters_)
    if (f.kinds & TraceKinds(kind)) return true;
  return false;
}

uint32_t Tracer::track(const std::string& group, const std::string& row, bool lanes) {
  auto g = group_ids_.find(group);
  if (g == group_ids_.end()) {
    g = group_ids_.emplace(group, static_cast<uint32_t>(groups_.size())).first;
    groups_.push_back(group);
  }
  const auto key = std::make_pair(g->second, row);
  auto t = track_ids_.find(key);
  if (t == track_ids_.end()) {
    t = track_ids_.emplace(key, static_cast<uint32_t>(tracks_.size())).first;
    tracks_.push_back(Track{g->second, row, lanes});
  }
  return t->second;
}

uint32_t Tracer::text(const std::string& s) {
  auto it = text_ids_.find(s);
  if (it != text_ids_.end()) return it->second;
  texts_.push_back(s);
  return text_ids_.emplace(s, static_cast<uint32_t>(texts_.size() - 1)).first->second;
}

void Tracer::record(Event e, std::initializer_list<Arg> args, bool outline) {
  // (Before e's arguments are placed: a sample records counter events of its own.)
  if (counting_ && !sampling_) sample_counters(sc_core::sc_time_stamp().value());
  const bool full = options_.event_limit && events_.size() - outline_over_limit_ >= options_.event_limit;
  if (full && outline) ++outline_over_limit_;
  if (full && !outline) {
    if (!dropped_++)
      std::cerr << "tessera: trace: the limit of " << options_.event_limit << " events was reached at "
                << sc_core::sc_time_stamp().to_string() << " of simulated time; later events are left out of "
                << options_.file << " (--trace-limit N raises the limit, 0 removes it)\n";
    first_dropped_ts_ = std::min(first_dropped_ts_, e.ts);
    return;
  }
  e.first_arg = static_cast<uint32_t>(args_.size());
  e.args = static_cast<uint32_t>(args.size());
  args_.insert(args_.end(), args.begin(), args.end());
  events_.push_back(e);
}

void Tracer::add_slice(uint32_t track, uint32_t name, uint64_t begin, uint64_t end, std::initializer_list<Arg> args,
                       bool outline) {
  record(Event{begin, end > begin ? end - begin : 0, track, name, 0, 0, 'X'}, args, outline);
}

void Tracer::counter(uint32_t name, uint64_t ts, std::initializer_list<Arg> args) {
  record(Event{ts, 0, counter_track_, name, 0, 0, 'C'}, args, false);
}

void Tracer::attach(const Platform& platform) {
  group_rank_ = {{"host", 0}, {"counters", 1}};
  for (const auto& b : platform.blocks()) group_rank_.emplace(b->path(), group_rank_.size());
  for (const auto& b : platform.blocks()) {
    if (!(kinds_for(b->path()) & TraceKinds(TraceKind::Counter))) continue;
    const StatGroup* g = &b->stats();
    if (b->type_name() == "dram_controller") {
      dram_read_.sources.emplace_back(g, "bytes_read");
      dram_written_.sources.emplace_back(g, "bytes_written");
    } else if (b->type_name() == "l2_cache") {
      l2_hits_.sources.emplace_back(g, "hits");
      l2_misses_.sources.emplace_back(g, "misses");
    } else if (b->type_name() == "chiplet_network") {
      remote_.sources.emplace_back(g, "remote_bytes");
    }
  }
  counting_ = !dram_read_.sources.empty() || !l2_hits_.sources.empty() || !remote_.sources.empty();
  if (!counting_) return;
  counter_track_ = track("counters", "counters");
  // Perfetto names a counter track "<name> <argument>": "DRAM bytes read", "L2 hit rate %".
  dram_name_ = text("DRAM bytes");
  l2_rate_name_ = text("L2 hit");
  l2_lookups_name_ = text("L2");
  remote_name_ = text("inter-chiplet");
  read_label_ = text("read");
  written_label_ = text("written");
  rate_label_ = text("rate %");
  lookups_label_ = text("lookups");
  bytes_label_ = text("bytes");
  for (CounterSum* c : {&dram_read_, &dram_written_, &l2_hits_, &l2_misses_, &remote_}) c->last = sum(*c);
  last_sample_ = sc_core::sc_time_stamp().value();
  next_sample_ = (last_sample_ / interval_ticks_ + 1) * interval_ticks_;
}

uint64_t Tracer::nanoseconds(uint64_t ticks) const {
  if (!tick_ps_) return static_cast<uint64_t>(std::llround(double(ticks) * tick_us_ * 1e3));
  return (ticks * tick_ps_ + 500) / 1000;
}

uint64_t Tracer::sum(const CounterSum& c) const {
  uint64_t s = 0;
  for (const auto& [group, name] : c.sources) s += group->counter_value(name);
  return s;
}

// One value per track for [last_sample_, now), placed at the interval's start
// so that it spans the interval it counts.
void Tracer::sample_counters(uint64_t now) {
  if (!counting_ || now < next_sample_ || now <= last_sample_) return;
  sampling_ = true;
  auto delta = [&](CounterSum& c) {
    const uint64_t v = sum(c), d = v - c.last;
    c.last = v;
    return double(d);
  };
  const uint64_t at = last_sample_;
  if (!dram_read_.sources.empty()) {
    const double r = delta(dram_read_), w = delta(dram_written_);
    counter(dram_name_, at, {{read_label_, r}, {written_label_, w}});
  }
  if (!l2_hits_.sources.empty()) {
    const double h = delta(l2_hits_), m = delta(l2_misses_);
    counter(l2_lookups_name_, at, {{lookups_label_, h + m}});
    // No lookups: no rate (the track keeps its last value; "L2 lookups" shows the gap).
    if (h + m > 0) counter(l2_rate_name_, at, {{rate_label_, 100.0 * h / (h + m)}});
  }
  if (!remote_.sources.empty()) counter(remote_name_, at, {{bytes_label_, delta(remote_)}});
  last_sample_ = now;
  next_sample_ = (now / interval_ticks_ + 1) * interval_ticks_;
  sampling_ = false;
}

void Tracer::write() {
  if (counting_) {
    next_sample_ = 0;  // the last, partial interval
    sample_counters(sc_core::sc_time_stamp().value());
  }
  write_file_atomically(options_.file, [this](std::FILE* out) { write_to(out); }, options_.force, "trace file");
}

void Tracer::write_to(std::FILE* out) {
  // Lanes: slices of a lane track, in time order, each on the first lane free at its start.
  std::vector<uint32_t> lane(events_.size(), 0), lanes_of(tracks_.size(), 1);
  std::vector<std::vector<size_t>> by_track(tracks_.size());
  for (size_t i = 0; i < events_.size(); ++i)
    if (tracks_[events_[i].track].lanes) by_track[events_[i].track].push_back(i);
  for (size_t t = 0; t < tracks_.size(); ++t) {
    auto& ev = by_track[t];
    std::stable_sort(ev.begin(), ev.end(), [&](size_t a, size_t b) { return events_[a].ts < events_[b].ts; });
    std::vector<uint64_t> free_at;  // per lane: the end of its last slice
    for (size_t i : ev) {
      size_t l = 0;
      while (l < free_at.size() && free_at[l] > events_[i].ts) ++l;
      if (l == free_at.size()) free_at.push_back(0);
      free_at[l] = events_[i].ts + events_[i].dur;
      lane[i] = static_cast<uint32_t>(l);
    }
    lanes_of[t] = std::max<uint32_t>(1, static_cast<uint32_t>(free_at.size()));
  }
  std::vector<uint32_t> first_tid(tracks_.size());
  uint32_t next_tid = 1;
  for (size_t t = 0; t < tracks_.size(); ++t) {
    first_tid[t] = next_tid;
    next_tid += lanes_of[t];
  }
  std::vector<std::string> quoted(texts_.size());
  for (size_t i = 0; i < texts_.size(); ++i) quoted[i] = nlohmann::json(texts_[i]).dump();
  auto q = [](const std::string& s) { return nlohmann::json(s).dump(); };

  nlohmann::ordered_json other = {{"generator", "tessera"},
                                  {"events", events_.size()},
                                  {"event_limit", options_.event_limit},
                                  {"events_dropped", dropped_},
                                  {"outline_events_over_limit", outline_over_limit_},
                                  {"counter_interval_us", double(interval_ticks_) * tick_us_}};
  if (!options_.filters.empty()) other["filters"] = options_.filters;
  if (dropped_) {
    other["limit_reached"] = "the event limit was reached: " + std::to_string(dropped_) +
                             " events were left out (launches, packets, ranges and the CP's awake slices are "
                             "all kept); the trace is complete only before the earliest of them";
    other["complete_until_us"] = double(first_dropped_ts_) * tick_us_;
  }
  // (No "displayTimeUnit": viewers differ on whether it changes the unit "ts" is
  // read in; without it, every viewer reads microseconds.)
  std::fprintf(out, "{\"otherData\":%s,\n\"traceEvents\":[\n", other.dump().c_str());
  bool first = true;
  auto sep = [&] {
    std::fputs(first ? "" : ",\n", out);
    first = false;
  };
  for (size_t g = 0; g < groups_.size(); ++g) {
    sep();
    std::fprintf(out, "{\"ph\":\"M\",\"pid\":%zu,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":%s}},\n", g + 1,
                 q(groups_[g]).c_str());
    const auto rank = group_rank_.find(groups_[g]);
    std::fprintf(out, "{\"ph\":\"M\",\"pid\":%zu,\"tid\":0,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%zu}}",
                 g + 1, rank == group_rank_.end() ? group_rank_.size() + g : rank->second);
  }
  for (size_t t = 0; t < tracks_.size(); ++t)
    for (uint32_t l = 0; l < lanes_of[t]; ++l) {
      const std::string name = tracks_[t].lanes ? tracks_[t].row + " #" + std::to_string(l) : tracks_[t].row;
      sep();
      std::fprintf(out, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":%s}},\n",
                   tracks_[t].group + 1, first_tid[t] + l, q(name).c_str());
      std::fprintf(out, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
                   tracks_[t].group + 1, first_tid[t] + l, first_tid[t] + l);
    }
  // Time order; at one time the longer slice first, so that it encloses the shorter.
  std::vector<size_t> order(events_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return events_[a].ts != events_[b].ts ? events_[a].ts < events_[b].ts : events_[a].dur > events_[b].dur;
  });
  for (size_t i : order) {
    const Event& e = events_[i];
    sep();
    std::fprintf(out, "{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"name\":%s,\"ts\":", e.phase, tracks_[e.track].group + 1,
                 first_tid[e.track] + lane[i], quoted[e.name].c_str());
    const uint64_t begin = nanoseconds(e.ts);
    print_us(out, begin);
    if (e.phase == 'X') {
      std::fputs(",\"dur\":", out);
      print_us(out, nanoseconds(e.ts + e.dur) - begin);
    }
    if (e.args) {
      std::fputs(",\"args\":{", out);
      for (uint32_t a = 0; a < e.args; ++a) {
        const Arg& arg = args_[e.first_arg + a];
        std::fprintf(out, "%s%s:", a ? "," : "", quoted[arg.label].c_str());
        print_number(out, arg.value, arg.hex);
      }
      std::fputc('}', out);
    }
    std::fputc('}', out);
  }
  std::fputs("\n]}\n", out);
}

}  // namespace tessera
