// Scheduler: runs the blocks' processes from one SystemC method.
//
// A timing block's processes (an Activity each) would otherwise be SC_METHODs
// woken by timed sc_events: every wake-up then costs SystemC a timed-event
// heap entry ordered through a comparison callback, an event trigger and a
// process activation, some 600 host instructions, about a quarter of a
// memory-bound run. Here a block's process is an Activity, the events it is
// sensitive to are Triggers, and one SystemC method (spawned the first time
// it is needed) runs every Activity that is due at the current time from
// buckets of distinct times, then sleeps until the earliest pending Trigger.
//
// The rules are SystemC's:
// - A Trigger holds at most one pending notification; notifying it again
//   keeps the earlier of the two (sc_event::notify(delay)). A trigger due now
//   whose activity has not run yet also absorbs a zero-delay notification
//   (SystemC would run the process a second time, in the next delta).
// - A zero delay means later within the current time: after everything
//   already due now (a delta notification).
// - Activity::next_trigger(delay) wakes the activity after `delay` unless one
//   of its triggers wakes it first; either way the timeout ends when the
//   activity runs (SystemC's next_trigger(delay, event) with the activity's
//   events).
// Activities due at the same time run in the order they were notified (first
// notified, first run), so the order within a time step is the model's, not
// the SystemC kernel's.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

namespace tessera {

class Activity;

// An event that wakes one Activity.
class Trigger {
 public:
  explicit Trigger(Activity& activity) : activity_(&activity) {}
  Trigger(const Trigger&) = delete;
  Trigger& operator=(const Trigger&) = delete;

  void notify(const sc_core::sc_time& delay);
  void notify_at(uint64_t time);  // an absolute time, as an sc_time value
  void cancel() { pending_ = kNone; }
  bool pending() const { return pending_ != kNone; }

 private:
  friend class Scheduler;
  static constexpr uint64_t kNone = ~uint64_t{0};
  Activity* activity_;
  uint64_t pending_ = kNone;  // the time it is due at
  uint64_t seq_ = 0;          // its scheduler entry; older entries are stale
};

// One process of a block: a member function the scheduler calls when one of
// its triggers is due.
class Activity {
 public:
  template <class T>
  Activity(T* owner, void (T::*fn)()) : self_(*this), timeout_(*this), owner_(owner), call_(&invoke<T>) {
    static_assert(sizeof(fn) <= sizeof(fn_), "member function pointer too large");
    new (fn_) decltype(fn)(fn);
  }
  Activity(const Activity&) = delete;
  Activity& operator=(const Activity&) = delete;

  // The activity's own event.
  Trigger& event() { return self_; }
  void notify(const sc_core::sc_time& delay) { self_.notify(delay); }
  // Wake after `delay` unless a trigger comes first; ends when the activity runs.
  void next_trigger(const sc_core::sc_time& delay) { timeout_.notify(delay); }

 private:
  friend class Scheduler;
  template <class T>
  static void invoke(void* owner, const unsigned char* fn) {
    using Fn = void (T::*)();
    (static_cast<T*>(owner)->*(*reinterpret_cast<const Fn*>(fn)))();
  }
  void run() {
    timeout_.cancel();
    call_(owner_, fn_);
  }

  Trigger self_;
  Trigger timeout_;
  void* owner_;
  void (*call_)(void*, const unsigned char*);
  alignas(void*) unsigned char fn_[2 * sizeof(void*)];
};

class Scheduler {
 public:
  static Scheduler& instance() {
    if (!instance_) instance_ = new Scheduler();  // kept to the end of the process, as SystemC's kernel is
    return *instance_;
  }

  // Notifications made so far; the position of the next one among those due
  // at the same time.
  uint64_t next_seq() { return next_seq_++; }
  void post(uint64_t time, uint64_t seq, Trigger* trigger);
  // The current simulated time: from the SystemC kernel, or, while the
  // scheduler runs activities, from its own copy (a call into the kernel
  // less for every block that asks).
  const sc_core::sc_time& now() const { return running_ ? now_ : (now_ = sc_core::sc_time_stamp()); }
  // Calls `poll` once every `steps` simulated times the scheduler runs (an
  // empty function: never). For host-side work during long runs, such as
  // progress reports (platform/progress.h); `poll` must not notify triggers.
  void set_poll(uint64_t steps, std::function<void()> poll);

 private:
  struct Entry {
    uint64_t seq;
    Trigger* trigger;
  };
  // The entries due at one time, in notification order (sequence numbers
  // only grow, so appending keeps them sorted).
  struct Bucket {
    size_t next = 0;  // entries before it have run
    std::vector<Entry> entries;
  };
  // A distinct time with entries, and where they are in pool_. Plain data,
  // so that opening a time in the middle of times_ moves a few words.
  struct Slot {
    uint64_t time;
    uint32_t bucket;
  };
  Scheduler();
  void run();
  bool live(const Entry& e, uint64_t time) const { return e.trigger->pending_ == time && e.trigger->seq_ == e.seq; }
  Bucket& open_bucket(size_t i, uint64_t time);
  void wake_for(uint64_t time);
  uint64_t earliest_live();
  void drop_earliest_bucket();
  void run_poll();

  inline static Scheduler* instance_ = nullptr;
  // Times with entries, latest first, so that the earliest is at the back
  // and most notifications (a few cycles ahead) land near it.
  std::vector<Slot> times_;
  std::vector<Bucket> pool_;    // every bucket ever opened; times_ names those in use
  std::vector<uint32_t> free_;  // buckets of pool_ not in use, empty
  sc_core::sc_event wake_;
  uint64_t wake_at_ = Trigger::kNone;  // when wake_ is pending for
  uint64_t next_seq_ = 0;
  bool running_ = false;
  mutable sc_core::sc_time now_;
  // Time steps between looks for an interrupt when no poll is set.
  static constexpr uint64_t kInterruptSteps = 4096;
  // Time steps left until the next poll.
  uint64_t poll_countdown_ = kInterruptSteps;
  uint64_t poll_steps_ = kInterruptSteps;
  std::function<void()> poll_;
};

// The current simulated time, for the blocks' processes.
inline const sc_core::sc_time& sim_now() { return Scheduler::instance().now(); }

inline void Trigger::notify_at(uint64_t time) {
  if (pending_ <= time) return;
  Scheduler& s = Scheduler::instance();
  pending_ = time;
  seq_ = s.next_seq();
  s.post(time, seq_, this);
}

inline void Trigger::notify(const sc_core::sc_time& delay) {
  notify_at(sim_now().value() + delay.value());
}

}  // namespace tessera
