#include "platform/scheduler.h"

#include <algorithm>

#include <sysc/kernel/sc_dynamic_processes.h>

namespace tessera {

Scheduler::Scheduler() : wake_(sc_core::sc_gen_unique_name("tessera_scheduler_wake")) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&wake_);
  sc_core::sc_spawn([this] { run(); }, sc_core::sc_gen_unique_name("tessera_scheduler"), &opts);
}

void Scheduler::post(uint64_t time, uint64_t seq, Trigger* trigger) {
  // The bucket for `time`, searched from the earliest end.
  size_t i = buckets_.size();
  while (i && buckets_[i - 1].time < time) --i;
  Bucket& b = i && buckets_[i - 1].time == time ? buckets_[i - 1] : open_bucket(i, time);
  b.entries.push_back(Entry{seq, trigger});
  if (running_ || time >= wake_at_) return;  // the running loop or the pending wake-up takes it
  wake_for(time);
}

// A new bucket for `time` at position i. Out of line, as is wake_for(): most
// notifications find their bucket and need no wake-up, and post() stays
// cheap when it does not carry these rarer paths.
[[gnu::noinline]] Scheduler::Bucket& Scheduler::open_bucket(size_t i, uint64_t time) {
  std::vector<Entry> storage;
  if (!spare_.empty()) {
    storage = std::move(spare_.back());
    spare_.pop_back();
  }
  return *buckets_.insert(buckets_.begin() + static_cast<std::ptrdiff_t>(i), Bucket{time, 0, std::move(storage)});
}

[[gnu::noinline]] void Scheduler::wake_for(uint64_t time) {
  const uint64_t now = this->now().value();
  wake_at_ = time;
  wake_.notify(sc_core::sc_time::from_value(time > now ? time - now : 0));
}

// Runs everything due now in notification order, including what those runs
// notify for now; then sleeps until the earliest pending trigger.
void Scheduler::run() {
  now_ = sc_core::sc_time_stamp();
  const uint64_t now = now_.value();
  wake_at_ = Trigger::kNone;
  running_ = true;
  // Ends the running state on return, and also when an activity throws (a
  // SystemC error report): otherwise later notifications would not wake it.
  struct Running {
    bool& flag;
    ~Running() { flag = false; }
  } running{running_};
  while (!buckets_.empty() && buckets_.back().time <= now) {
    Bucket& b = buckets_.back();
    if (b.next == b.entries.size()) {
      drop_earliest_bucket();
      continue;
    }
    const Entry e = b.entries[b.next++];  // a copy: the run may append to this bucket
    if (!live(e, b.time)) continue;
    e.trigger->pending_ = Trigger::kNone;
    e.trigger->activity_->run();
  }
  const uint64_t next = earliest_live();
  if (next == Trigger::kNone) return;
  wake_at_ = next;
  wake_.notify(sc_core::sc_time::from_value(next - now));
}

// The earliest time with a live entry; buckets holding only stale entries (a
// trigger cancelled, or notified again for an earlier time) go.
uint64_t Scheduler::earliest_live() {
  while (!buckets_.empty()) {
    Bucket& b = buckets_.back();
    for (size_t i = b.next; i < b.entries.size(); ++i)
      if (live(b.entries[i], b.time)) return b.time;
    drop_earliest_bucket();
  }
  return Trigger::kNone;
}

// The earliest bucket is done with; its storage serves a later one.
void Scheduler::drop_earliest_bucket() {
  std::vector<Entry>& entries = buckets_.back().entries;
  entries.clear();
  spare_.push_back(std::move(entries));
  buckets_.pop_back();
}

}  // namespace tessera
