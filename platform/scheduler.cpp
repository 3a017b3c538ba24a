#include "platform/scheduler.h"

#include <algorithm>

#include "platform/interrupt.h"

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
  size_t i = times_.size();
  while (i && times_[i - 1].time < time) --i;
  Bucket& b = i && times_[i - 1].time == time ? pool_[times_[i - 1].bucket] : open_bucket(i, time);
  b.entries.push_back(Entry{seq, trigger});
  if (running_ || time >= wake_at_) return;  // the running loop or the pending wake-up takes it
  wake_for(time);
}

// A bucket for `time` at position i of times_. Out of line, as is
// wake_for(): most notifications find their bucket and need no wake-up, and
// post() stays cheap when it does not carry these rarer paths.
[[gnu::noinline]] Scheduler::Bucket& Scheduler::open_bucket(size_t i, uint64_t time) {
  uint32_t index;
  if (free_.empty()) {
    index = static_cast<uint32_t>(pool_.size());
    pool_.emplace_back();
  } else {
    index = free_.back();
    free_.pop_back();
  }
  times_.insert(times_.begin() + static_cast<std::ptrdiff_t>(i), Slot{time, index});
  return pool_[index];
}

[[gnu::noinline]] void Scheduler::wake_for(uint64_t time) {
  const uint64_t now = this->now().value();
  wake_at_ = time;
  wake_.notify(sc_core::sc_time::from_value(time > now ? time - now : 0));
}

// Runs everything due now in notification order, including what those runs
// notify for now; then sleeps until the earliest pending trigger.
void Scheduler::run() {
  if (--poll_countdown_ == 0) run_poll();
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
  while (!times_.empty() && times_.back().time <= now) {
    const Slot slot = times_.back();
    Bucket& b = pool_[slot.bucket];  // fetched again after every run: a run may grow pool_
    if (b.next == b.entries.size()) {
      drop_earliest_bucket();
      continue;
    }
    const Entry e = b.entries[b.next++];  // a copy: the run may append to this bucket
    if (!live(e, slot.time)) continue;
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
  while (!times_.empty()) {
    const Slot slot = times_.back();
    const Bucket& b = pool_[slot.bucket];
    for (size_t i = b.next; i < b.entries.size(); ++i)
      if (live(b.entries[i], slot.time)) return slot.time;
    drop_earliest_bucket();
  }
  return Trigger::kNone;
}

void Scheduler::set_poll(uint64_t steps, std::function<void()> poll) {
  poll_ = std::move(poll);
  poll_steps_ = poll_ && steps ? steps : kInterruptSteps;
  poll_countdown_ = poll_steps_;
}

// Also where an interrupt (platform/interrupt.h) stops the simulation: between
// two time steps, with every block's state consistent.
[[gnu::noinline]] void Scheduler::run_poll() {
  poll_countdown_ = poll_steps_;
  if (poll_) poll_();
  if (interrupt_requested()) stop_simulation();
}

// The earliest bucket is done with; it serves a later time.
void Scheduler::drop_earliest_bucket() {
  const uint32_t index = times_.back().bucket;
  pool_[index].entries.clear();
  pool_[index].next = 0;
  free_.push_back(index);
  times_.pop_back();
}

}  // namespace tessera
