// The scheduler that runs the timing blocks' processes: SystemC's event rules
// (one pending notification per trigger, the earlier kept; zero delay means
// after what is due now; next_trigger's timeout ends when the process runs),
// and a defined order among processes due at the same time.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <systemc>

#include "platform/scheduler.h"

using sc_core::SC_NS;
using sc_core::SC_ZERO_TIME;
using sc_core::sc_time;
using tessera::Activity;
using tessera::Trigger;

namespace {

// Two processes that record when they run; each test drives them from a
// SystemC method at time 0.
struct Pair : sc_core::sc_module {
  SC_HAS_PROCESS(Pair);
  explicit Pair(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(start);
  }
  void a_run() { log.push_back("a@" + now()); if (a_then) { auto f = a_then; a_then = nullptr; f(*this); } }
  void b_run() { log.push_back("b@" + now()); }
  void start() { script(*this); }
  std::string joined() const {
    std::string out;
    for (const std::string& s : log) out += s + " ";
    return out;
  }
  static std::string now() { return std::to_string(static_cast<int>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5)); }

  Activity a{this, &Pair::a_run}, b{this, &Pair::b_run};
  Trigger a_other{a};
  std::vector<std::string> log;
  void (*script)(Pair&) = nullptr;
  void (*a_then)(Pair&) = nullptr;  // what a does the first time it runs
};

std::string run(void (*script)(Pair&), void (*a_then)(Pair&) = nullptr) {
  Pair p("pair");
  p.script = script;
  p.a_then = a_then;
  sc_core::sc_start();
  return p.joined();
}

}  // namespace

TEST_CASE("scheduler: processes due together run in the order they were notified", "[scheduler]") {
  CHECK(run([](Pair& p) {
          p.b.notify(sc_time(5, SC_NS));
          p.a.notify(sc_time(5, SC_NS));
          p.a_other.notify(sc_time(2, SC_NS));
        }) == "a@2 b@5 a@5 ");
}

TEST_CASE("scheduler: a zero delay runs after everything already due at that time", "[scheduler]") {
  // a runs at 3 and notifies itself and b for now: b (notified before, for 3)
  // runs first, then a again, then the zero-delay b is not a second run of b
  // because b's notification for 3 is still pending when it is made.
  CHECK(run([](Pair& p) {
          p.a.notify(sc_time(3, SC_NS));
          p.b.notify(sc_time(3, SC_NS));
        },
            [](Pair& p) {
              p.a.notify(SC_ZERO_TIME);
              p.b.notify(SC_ZERO_TIME);
            }) == "a@3 b@3 a@3 ");
}

TEST_CASE("scheduler: a trigger keeps the earlier of two notifications", "[scheduler]") {
  CHECK(run([](Pair& p) {
          p.a.notify(sc_time(7, SC_NS));
          p.a.notify(sc_time(4, SC_NS));  // replaces 7
          p.a.notify(sc_time(9, SC_NS));  // ignored
          p.b.notify(sc_time(8, SC_NS));
        }) == "a@4 b@8 ");
}

TEST_CASE("scheduler: separate triggers of one process each wake it", "[scheduler]") {
  CHECK(run([](Pair& p) {
          p.a.notify(sc_time(4, SC_NS));
          p.a_other.notify(sc_time(6, SC_NS));
        }) == "a@4 a@6 ");
}

TEST_CASE("scheduler: a cancelled trigger does not run its process", "[scheduler]") {
  CHECK(run([](Pair& p) {
          p.a.notify(sc_time(4, SC_NS));
          p.b.notify(sc_time(5, SC_NS));
          p.a.event().cancel();
        }) == "b@5 ");
}

TEST_CASE("scheduler: a next_trigger timeout ends when the process runs earlier", "[scheduler]") {
  // The timeout at 5 is dropped by the run at 4; the one set then (at 4 + 3) stands.
  CHECK(run([](Pair& p) {
          p.a.next_trigger(sc_time(5, SC_NS));
          p.a.notify(sc_time(4, SC_NS));
        },
            [](Pair& p) { p.a.next_trigger(sc_time(3, SC_NS)); }) == "a@4 a@7 ");
}

TEST_CASE("scheduler: notifications from SystemC processes during the run are taken", "[scheduler]") {
  // start() runs at 0 outside the scheduler; a later SystemC method notifies
  // for a time before the scheduler's pending wake-up.
  struct Late : sc_core::sc_module {
    SC_HAS_PROCESS(Late);
    Late(sc_core::sc_module_name n, Pair& p) : sc_core::sc_module(n), pair(p) {
      SC_METHOD(poke);
      sensitive << at_;
      dont_initialize();
      at_.notify(sc_time(2, SC_NS));
    }
    void poke() { pair.b.notify(sc_time(1, SC_NS)); }
    Pair& pair;
    sc_core::sc_event at_;
  };
  Pair p("pair");
  Late late("late", p);
  p.script = [](Pair& q) { q.a.notify(sc_time(20, SC_NS)); };
  sc_core::sc_start();
  CHECK(p.joined() == "b@3 a@20 ");
  CHECK(sc_core::sc_time_stamp() == sc_time(20, SC_NS));
}

TEST_CASE("scheduler: a poll runs once every N time steps and changes nothing", "[scheduler]") {
  // Four times with due processes (1, 2, 3, 5): a poll every second one runs twice.
  unsigned polls = 0;
  tessera::Scheduler::instance().set_poll(2, [&] { ++polls; });
  CHECK(run([](Pair& p) {
          p.a_other.notify(sc_time(1, SC_NS));
          p.a.notify(sc_time(2, SC_NS));
          p.b.notify(sc_time(3, SC_NS));
        },
            [](Pair& p) { p.a_other.notify(sc_time(4, SC_NS)); }) == "a@1 a@2 b@3 a@5 ");
  CHECK(polls == 2);
}
