// `tessera calibrate NETLIST [--set PATH=VALUE]... [--only FIGURE,...] [--json FILE] [--stats FILE] [--force]`:
// runs the calibration microbenchmarks on the netlist's timing platform and
// prints, for each figure, what was measured, what the netlist's parameters
// imply and the published reference its "reference" section names
// (platform/calibration.h, docs/TIMING.md "Calibration").
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "platform/calibration.h"
#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/options.h"
#include "platform/output_file.h"
#include "platform/simulation.h"
#include "sw/runtime/device.h"

namespace tessera {
namespace {

// A figure in the unit people read it in: GB/s for bandwidths.
std::string shown(double v, ReferenceUnit u) {
  char b[48];
  switch (u) {
    case ReferenceUnit::Cycles: std::snprintf(b, sizeof b, "%.1f cycles", v); break;
    case ReferenceUnit::BytesPerSecond: std::snprintf(b, sizeof b, "%.1f GB/s", v / 1e9); break;
    case ReferenceUnit::BytesPerCycle: std::snprintf(b, sizeof b, "%.1f B/cycle", v); break;
    case ReferenceUnit::PerCycle: std::snprintf(b, sizeof b, "%.3f /cycle", v); break;
  }
  return b;
}

std::string percent_of(double measured, double of) {
  char b[24];
  std::snprintf(b, sizeof b, " (%.0f %%)", 100 * measured / of);
  return b;
}

void print_table(const CalibrationReport& r) {
  std::printf("calibration of %s (default clock %.4g GHz)\n\n", r.netlist_file.c_str(), r.clock_hz / 1e9);
  std::printf("%-17s %-16s %-24s %-24s %s\n", "figure", "measured", "implied", "reference", "meets reference");
  for (const CalibrationFigure& f : r.figures) {
    const std::string implied = f.implied ? shown(*f.implied, f.unit) + percent_of(f.measured, *f.implied) : "-";
    std::string ref = "-", meets = "-";
    if (f.reference) {
      ref = shown(f.reference->value, f.unit) + percent_of(f.measured, f.reference->value);
      meets = std::string(meets_reference(f.name, f.measured, f.reference->value) ? "yes" : "NO") + " (" +
              tolerance_text(f.name) + ")";
    }
    std::printf("%-17s %-16s %-24s %-24s %s\n", f.name.c_str(), shown(f.measured, f.unit).c_str(), implied.c_str(),
                ref.c_str(), meets.c_str());
  }
  std::printf("\nhow each figure was measured, and what the parameters add up to:\n");
  for (const CalibrationFigure& f : r.figures)
    std::printf("  %-17s %s; implied: %s\n", f.name.c_str(), f.how.c_str(), f.implied_how.c_str());
  bool any_source = false;
  for (const CalibrationFigure& f : r.figures)
    if (f.reference) {
      if (!any_source) std::printf("\nreferences:\n");
      any_source = true;
      std::printf("  %-17s %s\n", f.name.c_str(), f.reference->source.c_str());
    }
  for (const ReferenceFigure& u : r.unmeasured)
    std::printf("  %-17s %s: %s (no measurement of this figure yet)\n", u.name.c_str(),
                shown(u.value, u.unit).c_str(), u.source.c_str());
  std::fflush(stdout);
}

json to_json(const CalibrationReport& r) {
  json out = {{"netlist", r.netlist_file}, {"clock_hz", r.clock_hz}, {"figures", json::array()},
              {"unmeasured_references", json::array()}};
  for (const CalibrationFigure& f : r.figures) {
    json j = {{"figure", f.name}, {"unit", reference_unit_text(f.unit)}, {"measured", f.measured},
              {"how", f.how},     {"implied_how", f.implied_how}};
    j["implied"] = f.implied ? json(*f.implied) : json(nullptr);
    if (f.reference)
      j["reference"] = {{"value", f.reference->value},
                        {"source", f.reference->source},
                        {"tolerance", tolerance_text(f.name)},
                        {"meets", meets_reference(f.name, f.measured, f.reference->value)}};
    out["figures"].push_back(j);
  }
  for (const ReferenceFigure& u : r.unmeasured)
    out["unmeasured_references"].push_back(
        {{"figure", u.name}, {"unit", reference_unit_text(u.unit)}, {"value", u.value}, {"source", u.source}});
  return out;
}

// The figures named by --only, comma-separated; an unknown name is a usage error.
std::vector<std::string> figure_names(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream in(list);
  for (std::string name; std::getline(in, name, ',');) {
    const std::vector<std::string> known = calibration_figure_names();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string all;
      for (const std::string& k : known) all += (all.empty() ? "" : ", ") + k;
      throw UsageError("--only: no figure '" + name + "'; figures: " + all);
    }
    names.push_back(name);
  }
  if (names.empty()) throw UsageError("--only: name at least one figure");
  return names;
}

int run_calibrate(const std::vector<std::string>& args) {
  const auto parsed =
      cli::parse_args(args,
                      {{"--set", true, true},
                       {"--only", true, false},
                       {"--json", true, false},
                       {"--stats", true, false},
                       {"--force", false, false}},
                      1, 1);
  CalibrationOptions o;
  o.netlist_file = parsed.positional[0];
  for (const auto& s : parsed.values("--set")) o.overrides.push_back(parse_override(s));
  o.kernel_dir = TESSERA_KERNEL_BINARY_DIR;
  o.progress = [](const std::string& what) { std::cerr << "calibrate: " << what << std::endl; };
  if (auto only = parsed.value("--only")) o.only = figure_names(*only);
  const auto json_file = parsed.value("--json");
  const auto stats_file = parsed.value("--stats");
  const bool force = parsed.flag("--force");
  // Refuse before spending minutes on the run, and check again when writing.
  if (json_file) check_output_path(*json_file, force, "calibration file");
  if (stats_file) check_output_path(*stats_file, force, "statistics file");
  o.keep_stats = stats_file.has_value();
  CalibrationReport report;
  try {
    report = calibrate(o);
  } catch (const runtime::DeviceError& e) {
    std::cerr << "tessera calibrate: " << o.netlist_file << ": device error: " << e.what() << '\n';
    return cli::kFailure;
  }
  print_table(report);
  if (json_file) {
    write_file_atomically(*json_file, to_json(report).dump(2) + "\n", force, "calibration file");
    std::cout << "\nwritten to " << *json_file << '\n';
  }
  if (stats_file) {
    write_stats_file(*stats_file, report.stats, force);
    std::cout << "statistics written to " << *stats_file << '\n';
  }
  return cli::kOk;
}

TESSERA_REGISTER_COMMAND(calibrate_command,
                         cli::Command{"calibrate", "measure a netlist's latencies, bandwidths and issue rates",
                                      "usage: tessera calibrate NETLIST [--set PATH=VALUE]... [--only FIGURE,...]\n"
                                      "                         [--json FILE] [--stats FILE] [--force]\n\n"
                                      "Runs the calibration microbenchmarks (the calib_* workloads) on NETLIST's\n"
                                      "timing platform: pointer chases to the L1, the L2 and DRAM (and to another\n"
                                      "chiplet's memory on chiplet netlists), read streams from DRAM and the L2,\n"
                                      "VALU, SALU, MFMA and LDS throughput on one CU, and the issue rate of one\n"
                                      "wave. Prints each measured figure, what the netlist's parameters imply, and\n"
                                      "the published figure its \"reference\" section names, with whether the\n"
                                      "measurement meets it. Progress goes to stderr. Every microbenchmark's output\n"
                                      "is checked against its CPU reference: exits 1 if one differs.\n\n"
                                      "  --set PATH=VALUE   override a parameter, e.g. --set 'l2[*].size=1 MiB'\n"
                                      "  --only FIGURE,...  measure only these figures (names as in the table;\n"
                                      "                     the round trips come as one group)\n"
                                      "  --json FILE        also write the table as JSON (refuses to replace FILE)\n"
                                      "  --stats FILE       write the platform's statistics over every launch of\n"
                                      "                     the calibration (refuses to replace FILE)\n"
                                      "  --force            allow --json and --stats to replace existing files\n",
                                      run_calibrate});

}  // namespace
}  // namespace tessera
