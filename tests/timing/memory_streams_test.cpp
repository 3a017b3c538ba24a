// The chiplet netlists' memory streams through `tessera calibrate`'s
// measurements (platform/calibration.h): each chiplet streaming its own
// memory, one chiplet reading the others' memory over the links into it
// (`link_bandwidth`, against the netlist's link bandwidth and its reference
// within 10 %), and DRAM round trips under a background stream
// (`loaded_latency`, a curve).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "platform/calibration.h"
#include "platform/timing_device.h"
#include "sw/workloads/calib.h"
#include "tests/timing/kernel_dir.h"

using namespace tessera;

namespace {

CalibrationReport measure(const std::string& netlist, const std::vector<std::string>& figures) {
  CalibrationOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + netlist + ".json";
  o.kernel_dir = tessera::test::kKernelDir;
  o.only = figures;
  return calibrate(o);
}

std::vector<CalibrationFigure> all_of(const CalibrationReport& r, const std::string& name) {
  std::vector<CalibrationFigure> out;
  for (const auto& f : r.figures)
    if (f.name == name) out.push_back(f);
  return out;
}

// The link stream against the netlist's link_bandwidth (implied) and its
// published reference, both within 10 %.
void check_link(const std::string& netlist) {
  const CalibrationReport r = measure(netlist, {"link_bandwidth"});
  const std::vector<CalibrationFigure> f = all_of(r, "link_bandwidth");
  REQUIRE(f.size() == 1);
  REQUIRE(f[0].implied);
  REQUIRE(f[0].reference);
  INFO(netlist << ": " << f[0].how << ": " << f[0].measured / 1e9 << " GB/s per link, implied "
               << *f[0].implied / 1e9 << " (" << f[0].implied_how << "), reference " << f[0].reference->value / 1e9);
  CHECK(std::abs(f[0].measured / *f[0].implied - 1) <= 0.10);
  CHECK(meets_reference("link_bandwidth", f[0].measured, f[0].reference->value));
}

}  // namespace

TEST_CASE("memory streams: cpelide_4chiplet_requester_l2's links carry 768 GB/s into a chiplet within 10 %",
          "[timing][calibration][chiplet]") {
  check_link("cpelide_4chiplet_requester_l2");
}

// calib_link_pipelined reads what calib_link reads: each launch checks every
// work-item's sum against the CPU reference, with one loop step, an odd number
// (the odd step runs on its own before the pairs) and an even one, for a
// reader of the other chiplets' pages and for every chiplet on its own pages.
TEST_CASE("memory streams: the software-pipelined link stream sums what calib_link sums over odd and even step counts",
          "[timing][calibration][chiplet]") {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/chiplet4_small.json";
  o.kernel_dir = tessera::test::kKernelDir;
  TimingDevice dev(o);
  const uint32_t chiplets = 4, share = 2, step = 4 * share;
  for (uint32_t reader : {1u, chiplets}) {
    const uint64_t bytes = workloads::calib::link_buffer_bytes(5 * step, chiplets, reader);
    const runtime::DevicePtr in = dev.alloc(bytes);
    REQUIRE(in % (uint64_t(chiplets) * 4096) == 0);
    workloads::calib::fill_stream(dev, in, bytes);
    for (uint32_t steps : {1u, 3u, 4u, 5u})
      for (bool pipelined : {false, true}) {
        const workloads::Result r =
            workloads::calib::link_stream(dev, in, steps * step, chiplets, reader, share, pipelined);
        INFO("reader " << reader << ", " << steps << " steps, " << (pipelined ? "pipelined" : "calib_link") << ": "
                       << r.message);
        CHECK(r.passed);
      }
    dev.free(in);
  }
}

TEST_CASE("memory streams: mi200_2chiplet's die-to-die link carries 200 GB/s each way within 10 %",
          "[timing][calibration][chiplet]") {
  check_link("mi200_2chiplet");
}

// The curve: three loads, the round trip no shorter under more load, the
// heaviest load a multiple of the lightest one's round trip (the DRAM queues
// fill), and each row's stream moving more bytes than the one before.
TEST_CASE("memory streams: small_gpu's DRAM round trip grows with the load of a background stream",
          "[timing][calibration]") {
  const CalibrationReport r = measure("small_gpu", {"loaded_latency", "dram_latency"});
  const std::vector<CalibrationFigure> curve = all_of(r, "loaded_latency");
  const std::vector<CalibrationFigure> unloaded = all_of(r, "dram_latency");
  REQUIRE(curve.size() == 3);
  REQUIRE(unloaded.size() == 1);
  INFO("unloaded: " << unloaded[0].measured << " cycles; loads: " << curve[0].how << " / " << curve[1].how << " / "
                    << curve[2].how << "; round trips " << curve[0].measured << " / " << curve[1].measured << " / "
                    << curve[2].measured);
  // One streaming workgroup adds little to a chase; a saturated DRAM a lot.
  CHECK(curve[0].measured >= unloaded[0].measured * 0.95);
  CHECK(curve[1].measured >= curve[0].measured);
  CHECK(curve[2].measured >= curve[1].measured);
  CHECK(curve[2].measured >= 2 * unloaded[0].measured);
}

// Pages interleaved over the two dies: half of each die's reads cross the
// die-to-die link, 200 GB/s each way, so the stream cannot pass 2 x 2 x 200
// GB/s whatever the HBM does (each die streaming its own memory is the
// netlist's dram_bandwidth, held to MI250's figure by a pending test).
TEST_CASE("memory streams: mi200_2chiplet's stream over pages interleaved across the dies is capped by the link",
          "[timing][calibration][chiplet]") {
  const CalibrationReport r = measure("mi200_2chiplet", {"dram_interleaved"});
  const std::vector<CalibrationFigure> own = all_of(r, "dram_bandwidth");
  const std::vector<CalibrationFigure> interleaved = all_of(r, "dram_interleaved");
  REQUIRE(own.size() == 1);
  REQUIRE(interleaved.size() == 1);
  INFO("own memory: " << own[0].measured / 1e9 << " GB/s; pages interleaved over the dies: "
                      << interleaved[0].measured / 1e9 << " GB/s");
  CHECK(interleaved[0].measured <= 4 * 200e9 * 1.01);
  CHECK(own[0].measured > interleaved[0].measured);
}
