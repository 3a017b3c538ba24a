// Calibration of a netlist: runs the calibration microbenchmarks
// (sw/workloads/calib.h) on its timing platform and sets each measured figure
// beside what the netlist's parameters imply and, where the netlist's
// "reference" section names one, the published figure (docs/TIMING.md,
// "Calibration"). `tessera calibrate` prints the result; the calibration tests
// hold the reference netlists to their references with it.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/netlist.h"

namespace tessera {

struct CalibrationFigure {
  std::string name;  // a reference figure name: "l1_latency", "dram_bandwidth", ...
  std::string how;   // how it was measured
  ReferenceUnit unit = ReferenceUnit::Cycles;
  double measured = 0;
  std::optional<double> implied;  // what the parameters add up to, where there is a formula
  std::string implied_how;        // the formula, or why there is none
  std::optional<ReferenceFigure> reference;
};

struct CalibrationOptions {
  std::string netlist_file;
  std::vector<Override> overrides;  // --set
  std::string kernel_dir;           // where the calib_*.hsaco are
  std::function<void(const std::string&)> progress;  // one line per measurement started
  // Measure only these figures (empty: all). Round trips come as a group:
  // naming any of l1/l2/dram/remote/remote_l2/l3_latency measures all of them (l3 on
  // chiplet netlists with an l3_cache).
  std::vector<std::string> only;
  // Keep the platform's statistics over every launch of the calibration
  // (CalibrationReport::stats), e.g. to see where a stream's bandwidth goes.
  bool keep_stats = false;
};

struct CalibrationReport {
  std::string netlist_file;
  double clock_hz = 0;
  std::vector<CalibrationFigure> figures;
  std::vector<ReferenceFigure> unmeasured;  // references no measurement covers yet
  json stats;  // the platform's statistics, with CalibrationOptions::keep_stats
};

// Builds the platform and measures every figure it has: round trips, streams,
// throughputs. Throws UserError/NetlistError for a bad netlist and
// runtime::DeviceError if a microbenchmark's output differs from its CPU
// reference. Elaborates SystemC, so it runs once per process.
CalibrationReport calibrate(const CalibrationOptions& options);

// The figures a calibration can be asked for (CalibrationOptions::only).
std::vector<std::string> calibration_figure_names();

// Whether `measured` meets reference `ref` within the tolerance stated for its
// figure (tolerance_text), e.g. latencies within 5 %.
bool meets_reference(const std::string& figure, double measured, double ref);
std::string tolerance_text(const std::string& figure);

// The arithmetic and the chain layouts behind the round trips, shared with
// the term-by-term calibration tests (tests/timing/calibration_test.cpp).
namespace calibration {

// Cycles through a crossbar (or the chiplet network within a chiplet) for a
// request (no data: 1 cycle per link) and a response of `line` bytes (line /
// width cycles per link, at least 1; width 0 is unlimited), plus the switch's
// `latency` each way.
struct CrossbarCycles {
  double request, response;
};
CrossbarCycles crossbar_cycles(const Netlist& net, const std::string& xbar, double line);

// The instances a chase from one CU goes through.
struct Hierarchy {
  std::string l1, l2, xbar, dram;
};

// The round trips the parameters add up to (docs/TIMING.md, "Round trips"),
// with the terms in words: `l1`, `l2`, `dram` are the cycles of one chase link
// (chase_link of the memory latencies `memory_*`, request issued to response
// back at the CU), `issue_period` the CU's issue turns.
struct RoundTrips {
  double l1, l2, dram;
  std::string how_l1, how_l2, how_dram;
  double memory_l1 = 0, memory_l2 = 0, memory_dram = 0;
  double issue_period = 1;
};
RoundTrips implied_round_trips(const Netlist& net, const Hierarchy& h);

// One link of a pointer chase whose load takes `memory` cycles (issued to
// response back) on a CU with issue turns every `period` cycles: the response
// is usable the cycle after it arrives, the chase's s_waitcnt issues in the
// wave's first turn from then, the dependent load one turn later:
// period x ceil((memory + 1) / period) + period, which with period 1 is
// memory + 2. A `memory` that is not a whole number of cycles (DRAM timings
// off the clock grid) rounds up first.
double chase_link(double memory, double period);

// The issue_period of the compute unit beside vector L1 `l1` (the first
// compute_unit under the same parent instance).
double issue_period_beside(const Netlist& net, const std::string& l1);

// The DRAM chain of a single die: links in L2 slice 0's channel, visiting its
// banks in turn, each bank's next link in another row (every link a row
// conflict). `slices` slices interleave 128 B chunks; banks every `bank_bytes`.
std::vector<uint32_t> dram_chain(uint32_t slices, uint32_t banks, uint32_t bank_bytes);

// The DRAM chain of chiplet `home` (whose controller is `dram`) for addresses
// from `base` (a multiple of chiplets x 4 KiB pages): links homed there, all in
// channel 0, visiting its banks in turn, each in another row than the one it
// left open. Throws UserError if the mapping gives too few banks or rows.
std::vector<uint32_t> chiplet_dram_chain(const Netlist& net, const std::string& dram, uint64_t base, uint32_t home,
                                         uint32_t chiplets, uint32_t line, uint32_t span, size_t links);

// Links a message crosses from chiplet `from` to `to` of `n`: a ring the
// shorter way, a mesh of rows of `columns` X then Y, a central switch two, a
// full connection one.
uint32_t chiplet_hops(const std::string& topology, uint32_t from, uint32_t to, uint32_t n, uint32_t columns);

}  // namespace calibration
}  // namespace tessera
