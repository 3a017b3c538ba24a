// Calibration of a netlist: runs the calibration microbenchmarks
// (sw/workloads/calib.h) on its timing platform and sets each measured figure
// beside what the netlist's parameters imply and, where the netlist's
// "reference" section names one, the published figure (docs/TIMING.md,
// "Calibration"). `tessera calibrate` prints the result; the calibration tests
// hold the reference netlists to their references with it.
#pragma once
#include <algorithm>
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
  // naming any of l1/l2/dram/remote_latency measures all four.
  std::vector<std::string> only;
};

struct CalibrationReport {
  std::string netlist_file;
  double clock_hz = 0;
  std::vector<CalibrationFigure> figures;
  std::vector<ReferenceFigure> unmeasured;  // references no measurement covers yet
};

// Builds the platform and measures every figure it has: round trips, streams,
// throughputs. Throws UserError/NetlistError for a bad netlist and
// runtime::DeviceError if a microbenchmark's output differs from its CPU
// reference. Elaborates SystemC, so it runs once per process.
CalibrationReport calibrate(const CalibrationOptions& options);

// Whether `measured` meets reference `ref` within the tolerance stated for its
// figure (tolerance_text), e.g. latencies within 5 %.
bool meets_reference(const std::string& figure, double measured, double ref);
std::string tolerance_text(const std::string& figure);

}  // namespace tessera
