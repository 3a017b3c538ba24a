// The reference netlists held to their "reference" sections and to what their
// parameters imply, through the same measurements `tessera calibrate` makes
// (platform/calibration.h), within the tolerances it states: latencies within
// 5 %, DRAM streams 85-100 % of the configured bandwidth, L2 streams and
// per-CU rates within 5 % of the parameters, one wave issuing at most 0.25
// instructions per cycle.
//
// Every reference figure of the reference netlists is held here but one:
// r9_nano_32b's DRAM stream, which measures 81 % of the paper's 256 GB/s
// (docs/TIMING.md, "Today's figures").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "platform/calibration.h"
#include "tests/timing/kernel_dir.h"

using namespace tessera;

namespace {

CalibrationReport measure(const std::string& netlist, const std::vector<std::string>& figures,
                          const std::vector<Override>& overrides = {}) {
  CalibrationOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + netlist + ".json";
  o.kernel_dir = tessera::test::kKernelDir;
  o.only = figures;
  o.overrides = overrides;
  return calibrate(o);
}

const CalibrationFigure& figure(const CalibrationReport& r, const std::string& name) {
  for (const auto& f : r.figures)
    if (f.name == name) return f;
  FAIL("no measurement of " << name);
  throw;
}

// Each figure against the netlist's reference, which must name it.
void check_references(const std::string& netlist, const std::vector<std::string>& figures) {
  const CalibrationReport r = measure(netlist, figures);
  for (const auto& name : figures) {
    const CalibrationFigure& f = figure(r, name);
    REQUIRE(f.reference);
    INFO(netlist << " " << name << ": measured " << f.measured << ", reference " << f.reference->value << " ("
                 << f.reference->source << "), tolerance " << tolerance_text(name));
    CHECK(meets_reference(name, f.measured, f.reference->value));
  }
}

// Each figure against what the netlist's parameters imply, within `tolerance`
// (the DRAM stream: at least 85 % of the configured bandwidth, at most all).
void check_implied(const std::string& netlist, const std::vector<std::string>& figures,
                   const std::vector<Override>& overrides = {}) {
  const CalibrationReport r = measure(netlist, figures, overrides);
  for (const auto& name : figures) {
    const CalibrationFigure& f = figure(r, name);
    REQUIRE(f.implied);
    INFO(netlist << " " << name << ": measured " << f.measured << ", implied " << *f.implied << " (" << f.implied_how
                 << ")");
    if (name == "dram_bandwidth") {
      CHECK(f.measured >= 0.85 * *f.implied);
      CHECK(f.measured <= *f.implied * 1.0001);
    } else {
      CHECK(std::abs(f.measured / *f.implied - 1) <= 0.05);
    }
  }
}

const std::vector<std::string> kRoundTrips = {"l1_latency", "l2_latency", "dram_latency"};
const std::vector<std::string> kRates = {"valu_rate", "mfma_rate", "lds_bandwidth"};

}  // namespace

TEST_CASE("calibration reference: r9_nano meets LazyGPU's round trips", "[timing][calibration][reference]") {
  check_references("r9_nano", {"l1_latency", "l2_latency", "dram_latency"});
}

TEST_CASE("calibration reference: r9_nano's LDS delivers the GCN whitepaper's 128 B per cycle",
          "[timing][calibration][reference]") {
  check_references("r9_nano", {"lds_bandwidth"});
}

TEST_CASE("calibration reference: small_gpu measures what its parameters imply", "[timing][calibration][reference]") {
  std::vector<std::string> figures = kRoundTrips;
  figures.insert(figures.end(), {"dram_bandwidth", "l2_bandwidth", "valu_rate", "mfma_rate", "lds_bandwidth"});
  check_implied("small_gpu", figures);
}

// One workgroup per CU: with more, issue turns make the resident workgroups
// progress together and each loop step spans more DRAM rows than the banks
// keep open (docs/TIMING.md, "Where a stream's bandwidth goes").
TEST_CASE("calibration reference: r9_nano DRAM stream reaches 85 % of LazyGPU's 256 GB/s with HBM timings",
          "[timing][calibration][reference]") {
  check_references("r9_nano", {"dram_bandwidth"});
}

TEST_CASE("calibration reference: r9_nano per-CU VALU, MFMA and LDS rates are what its parameters imply",
          "[timing][calibration][reference]") {
  check_implied("r9_nano", kRates);
}

TEST_CASE("calibration reference: r9_nano an L2-resident stream delivers 16 slices x 64 B per cycle",
          "[timing][calibration][reference]") {
  check_implied("r9_nano", {"l2_bandwidth"});
}

// r9_nano at the paper's 32 B transactions: its L2 delivers the paper's 512
// GB/s (16 slices x 32 B per cycle); its DRAM stream stays below the 85 %
// r9_nano meets and is not held here.
TEST_CASE("calibration reference: r9_nano_32b meets LazyGPU's round trips and its 512 GB/s L2 bandwidth",
          "[timing][calibration][reference]") {
  check_references("r9_nano_32b", {"l1_latency", "l2_latency", "dram_latency", "l2_bandwidth"});
}

// The implied round trips add up the row, transfer and controller times, not
// what refresh, tRRD/tFAW or turnarounds add now and then: the DRAM timing
// preset is set aside for these sums, as the chiplet calibration tests do.
const std::vector<Override> kNoDramPreset = {{"chiplet[*].dram", "timing_preset", "none", "--set"}};

TEST_CASE("calibration reference: cpelide_4chiplet round trips are what its parameters imply",
          "[timing][calibration][reference][chiplet]") {
  check_implied("cpelide_4chiplet", {"l1_latency", "l2_latency", "dram_latency", "remote_latency", "remote_l2_latency"},
                kNoDramPreset);
}

TEST_CASE("calibration reference: mi200_2chiplet round trips are what its parameters imply",
          "[timing][calibration][reference][chiplet]") {
  check_implied("mi200_2chiplet", {"l1_latency", "l2_latency", "dram_latency", "remote_latency", "remote_l2_latency"},
                kNoDramPreset);
}

// CDNA2's issue turns (issue_period 4 in every reference netlist): one wave
// alone issues at most one instruction per four cycles.
TEST_CASE("calibration reference: r9_nano one wave issues at most 0.25 instructions per cycle",
          "[timing][calibration][reference]") {
  check_references("r9_nano", {"issue_rate"});
}

TEST_CASE("calibration reference: cpelide_4chiplet one wave issues at most 0.25 instructions per cycle",
          "[timing][calibration][reference][chiplet]") {
  check_references("cpelide_4chiplet", {"issue_rate"});
}

TEST_CASE("calibration reference: mi200_2chiplet one wave issues at most 0.25 instructions per cycle",
          "[timing][calibration][reference][chiplet]") {
  check_references("mi200_2chiplet", {"issue_rate"});
}

TEST_CASE("calibration reference: mi200_2chiplet round trips within 5 % of the published MI210 figures",
          "[timing][calibration][reference][chiplet]") {
  check_references("mi200_2chiplet", kRoundTrips);
}

// Pending: the targets of the model's next changes (docs/TIMING.md).

TEST_CASE("calibration reference: cpelide_4chiplet's L3 round trip is CPElide's 330 cycles",
          "[timing][calibration][reference][l3]") {
  check_references("cpelide_4chiplet", {"l3_latency"});
}

TEST_CASE("calibration reference: cpelide_4chiplet's L3 round trip is what its parameters imply",
          "[timing][calibration][reference][l3]") {
  check_implied("cpelide_4chiplet", {"l3_latency"}, kNoDramPreset);
}

// 1783.3 GB/s, 87 %, over 32 vs 64 MiB per chiplet (docs/TIMING.md, "The calibration tests").
TEST_CASE("calibration reference: cpelide_4chiplet DRAM stream reaches 85 % of its configured bandwidth",
          "[timing][calibration][reference][chiplet]") {
  check_implied("cpelide_4chiplet", {"dram_bandwidth"});
}

// The paper's organisation: another chiplet's line is served by its home's L2
// across the network (a remote L2 hit of 396 cycles); tessera calibrate places
// its buffers' pages as a 4 KiB interleave would.
TEST_CASE("calibration reference: cpelide_4chiplet round trips within 5 % of CPElide's Table I",
          "[timing][calibration][reference][chiplet]") {
  check_references("cpelide_4chiplet", {"l1_latency", "l2_latency", "remote_l2_latency", "l3_latency"});
}

TEST_CASE("calibration reference: cpelide_4chiplet's links carry their 768 GB/s within 10 %",
          "[timing][calibration][reference][chiplet]") {
  check_references("cpelide_4chiplet", {"link_bandwidth"});
}

// The same machine with the paper's remote path: another chiplet's line is
// served by its home's L2 across the network (a remote L2 hit of 396 cycles).
TEST_CASE("calibration reference: cpelide_4chiplet_home_l2 round trips within 5 % of CPElide's Table I",
          "[timing][calibration][reference][chiplet]") {
  check_references("cpelide_4chiplet_home_l2", {"l1_latency", "l2_latency", "remote_l2_latency", "l3_latency"});
}

TEST_CASE("calibration reference: cpelide_4chiplet_home_l2 round trips are what its parameters imply",
          "[timing][calibration][reference][chiplet]") {
  check_implied("cpelide_4chiplet_home_l2",
                {"l1_latency", "l2_latency", "dram_latency", "remote_latency", "remote_l2_latency", "l3_latency"},
                kNoDramPreset);
}

// 2831.3 GB/s, 86 % of the netlist's 3276.8 GB/s, with its L2 in CDNA2's 32 channels per
// die (2727.0, 83 %, in 16 slices: docs/TIMING.md, "The L2 channels of mi200_2chiplet").
TEST_CASE("calibration reference: mi200_2chiplet DRAM stream reaches 85 % of its configured bandwidth",
          "[timing][calibration][reference][chiplet]") {
  check_implied("mi200_2chiplet", {"dram_bandwidth"});
}

// The same stream, 88 % of MI250's 3.2 TB/s.
TEST_CASE("calibration reference: mi200_2chiplet DRAM stream reaches 85 % of MI250's 3.2 TB/s",
          "[timing][calibration][reference][chiplet]") {
  check_references("mi200_2chiplet", {"dram_bandwidth"});
}
