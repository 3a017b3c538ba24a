// The netlist's optional "reference" section: published figures the platform
// is meant to reproduce (a round trip, a bandwidth, an issue rate), each with
// the citation it comes from. `tessera calibrate` prints them beside what it
// measures; the calibration tests hold the reference netlists to them.
//
//   "reference": {
//     "source": "LazyGPU (ISCA 2025), Table 2",       default citation
//     "l1_latency": "60 cycles",
//     "dram_bandwidth": {"value": "256 GB/s", "source": "another citation"}
//   }
#pragma once
#include <string>
#include <vector>

#include "platform/params.h"

namespace tessera {

enum class ReferenceUnit { Cycles, BytesPerSecond, BytesPerCycle, PerCycle };

struct ReferenceFigure {
  std::string name;    // one of reference_figure_names()
  double value = 0;    // cycles, B/s, B/cycle or instructions per cycle
  ReferenceUnit unit = ReferenceUnit::Cycles;
  std::string source;  // the citation
};

// The figures a reference section may name, in the order calibrate prints them.
const std::vector<std::string>& reference_figure_names();
ReferenceUnit reference_unit(const std::string& figure);
const char* reference_unit_text(ReferenceUnit u);  // "cycles", "B/s", "B/cycle", "per cycle"

// Validates and reads the section at JSON path `path`. Throws NetlistError
// naming the key for an unknown figure, a bad value or unit, or a figure
// without a source.
std::vector<ReferenceFigure> read_reference(const json& section, const std::string& path);

}  // namespace tessera
