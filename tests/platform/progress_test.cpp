// Progress reports: lines at the asked interval while the scheduler runs,
// the simulation unchanged, and the --progress option's values.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include <systemc>

#include "platform/errors.h"
#include "platform/progress.h"
#include "platform/scheduler.h"

using sc_core::SC_NS;
using sc_core::sc_time;
using tessera::Activity;
using tessera::ProgressReporter;

namespace {

// One process that runs every nanosecond `steps` times.
struct Ticker : sc_core::sc_module {
  SC_HAS_PROCESS(Ticker);
  Ticker(sc_core::sc_module_name n, unsigned steps) : sc_core::sc_module(n), left(steps) { SC_METHOD(start); }
  void start() { tick.notify(sc_time(1, SC_NS)); }
  void run() {
    ++ran;
    if (--left) tick.notify(sc_time(1, SC_NS));
  }
  unsigned left, ran = 0;
  Activity tick{this, &Ticker::run};
};

}  // namespace

TEST_CASE("progress: lines come while the simulation runs and change nothing in it", "[progress]") {
  Ticker t("ticker", 100000);
  std::ostringstream out;
  double last_wall = -1;
  bool wall_grows = true;
  {
    // An interval shorter than any poll: every poll (each few thousand time steps) reports.
    ProgressReporter progress(1e-9, [&](double wall) {
      wall_grows = wall_grows && wall > last_wall;
      last_wall = wall;
      return "at " + std::to_string(static_cast<long>(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5)) + " ns";
    }, out);
    sc_core::sc_start();
    CHECK(progress.reports() >= 10);
    CHECK(progress.reports() <= 100000 / 1000);
  }
  CHECK(wall_grows);
  CHECK(t.ran == 100000);
  CHECK(sc_core::sc_time_stamp() == sc_time(100000, SC_NS));
  const std::string text = out.str();
  CHECK(text.rfind("progress: at ", 0) == 0);
  CHECK(text.find("\nprogress: at ") != std::string::npos);
}

namespace {

// Runs 20,000 time steps with a reporter at `interval` that must stay silent.
void check_silent(double interval) {
  Ticker t("ticker", 20000);
  std::ostringstream out;
  ProgressReporter progress(interval, [](double) { return std::string("never"); }, out);
  sc_core::sc_start();
  CHECK(t.ran == 20000);
  CHECK(progress.reports() == 0);
  CHECK(out.str().empty());
}

}  // namespace

TEST_CASE("progress: an interval of 0 reports nothing", "[progress]") { check_silent(0); }

TEST_CASE("progress: --progress takes seconds, 0 for none, and rejects anything else", "[progress]") {
  CHECK(tessera::progress_interval(std::string("0")) == 0.0);
  CHECK(tessera::progress_interval(std::string("2.5")) == 2.5);
  for (const char* bad : {"", "-1", "x", "5s", "inf", "nan"})
    CHECK_THROWS_AS(tessera::progress_interval(std::string(bad)), tessera::UsageError);
}

TEST_CASE("progress: an interval longer than the run reports nothing", "[progress]") { check_silent(1e300); }
