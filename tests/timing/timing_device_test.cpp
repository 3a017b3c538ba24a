// The timing device around the platform: faults reported with the CU's
// report, launches one after another in one simulation, statistics at the
// end, and the errors a user can cause (a netlist without a dispatcher, a
// second platform in one process, a launch limit). One platform per test case.
#include "platform/timing_device.h"

#include <catch2/catch.hpp>

#include <vector>

#include "platform/errors.h"
#include "tests/timing/kernel_dir.h"

using namespace tessera;
using tessera::test::kKernelDir;
using Catch::Contains;

namespace {

TimingDeviceOptions small_gpu(uint64_t max_cycles = 0) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";
  o.kernel_dir = kKernelDir;
  o.max_cycles = max_cycles;
  return o;
}

// vector_add over n elements; c has room for c_elements.
runtime::LaunchStats vector_add(TimingDevice& d, uint32_t n, uint32_t c_elements, std::vector<float>* c_out = nullptr) {
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f;
  const runtime::DevicePtr pa = d.upload(a), pb = d.upload(b);
  const runtime::DevicePtr pc = d.alloc(4 * c_elements);
  runtime::KernelArgs args;
  args.pointer(pa).pointer(pb).pointer(pc).value(n);
  const runtime::LaunchStats s = d.launch("vector_add", "vector_add", {n, 1, 1}, {64, 1, 1}, args);
  if (c_out) *c_out = d.download<float>(pc, c_elements);
  return s;
}

}  // namespace

TEST_CASE("timing device: a wave fault is a DeviceError with the report of the CU and the next launch runs",
          "[timing][device]") {
  TimingDevice d(small_gpu());
  // 2000 work-items store into a 10-element buffer: workgroup 0 lane 10 is
  // the first store outside every allocation.
  CHECK_THROWS_WITH(vector_add(d, 2000, 10), Contains("tessera-timing: kernel 'vector_add' faulted at workgroup") &&
                                                 Contains("global_store_dword") &&
                                                 Contains("outside every device allocation"));
  CHECK(d.dispatcher().result().fault.size() > 0);
  CHECK_FALSE(d.dispatcher().busy());
  REQUIRE(d.launch_log().size() == 1);  // the faulted launch is logged with its report
  CHECK_THAT(d.launch_log()[0]["fault"].get<std::string>(), Contains("global_store_dword"));
  std::vector<float> c;
  const runtime::LaunchStats s = vector_add(d, 1000, 1000, &c);
  CHECK(s.workgroups == 16);
  CHECK(s.cycles > 0);
  for (uint32_t i = 0; i < 1000; ++i) REQUIRE(c[i] == float(i) + 0.5f);
}

TEST_CASE("timing device: launches run one after another in one simulation and statistics come at the end",
          "[timing][device]") {
  TimingDevice d(small_gpu());
  const sc_core::sc_time t0 = sc_core::sc_time_stamp();
  const runtime::LaunchStats a = vector_add(d, 4096, 4096);
  const sc_core::sc_time t1 = sc_core::sc_time_stamp();
  const runtime::LaunchStats b = vector_add(d, 4096, 4096);
  const sc_core::sc_time t2 = sc_core::sc_time_stamp();
  // Each launch's cycles are the simulated time it took (1 GHz).
  CHECK(t1 - t0 == sc_core::sc_time(double(a.cycles), sc_core::SC_NS));
  CHECK(t2 - t1 == sc_core::sc_time(double(b.cycles), sc_core::SC_NS));
  CHECK(a.wave_instructions == b.wave_instructions);
  CHECK(d.totals().launches == 2);
  CHECK(d.totals().cycles == a.cycles + b.cycles);
  const json stats = d.finish();
  CHECK(stats["timing_device"]["launches"] == 2);
  CHECK(stats["timing_device"]["cycles"] == a.cycles + b.cycles);
  CHECK(stats["dispatcher"]["ranges"] == 2);  // the firmware gave the one dispatcher each grid whole
  CHECK(stats["dispatcher"]["workgroups"] == 128);
  CHECK(stats["cp"]["host_notifications"] == 2);
  CHECK(stats["cp"]["kernel_launches"] == 2);  // as the firmware counts them
  CHECK(stats["timing_device"]["cp_instructions"] > 0);
  // One log row per launch, with what the memory side did during it.
  const json& log = stats["timing_device"]["launch_log"];
  REQUIRE(log.size() == 2);
  CHECK(log[0]["kernel"] == "vector_add");
  CHECK(log[0]["cycles"] == a.cycles);
  CHECK(log[1]["cycles"] == b.cycles);
  CHECK(log[1]["wave_instructions"] == b.wave_instructions);
  CHECK(log[0]["dram_bytes_read"] >= 2 * 4096 * 4);          // a and b were read from DRAM
  CHECK(log[0]["l2_lines_written_back"] == 4096 * 4 / 128);  // the release wrote c back
  CHECK(log[1]["l2_lines_written_back"] == 4096 * 4 / 128);
  CHECK(log[0]["remote_bytes"] == 0);                        // one chip
  CHECK(stats["simulation"]["ok"] == true);
  CHECK_THROWS_WITH(vector_add(d, 64, 64), Contains("the simulation has ended"));
}

// stop() ends the simulation as finish() does, without building the
// statistics; they can still be had afterwards.
TEST_CASE("timing device: stop() ends the simulation and finish() still gives the statistics", "[timing][device]") {
  TimingDevice d(small_gpu());
  const runtime::LaunchStats a = vector_add(d, 1024, 1024);
  d.stop();
  d.stop();  // a second stop does nothing
  CHECK_THROWS_WITH(vector_add(d, 64, 64), Contains("the simulation has ended"));
  const json stats = d.finish();
  CHECK(stats["timing_device"]["launches"] == 1);
  CHECK(stats["timing_device"]["cycles"] == a.cycles);
  CHECK(stats["simulation"]["ok"] == true);
}

TEST_CASE("timing device: a launch that outlasts max_cycles is reported as hung", "[timing][device]") {
  TimingDevice d(small_gpu(100));
  CHECK_THROWS_WITH(vector_add(d, 65536, 65536), Contains("not done within 100 ns (hung?)"));
  CHECK_THROWS_WITH(vector_add(d, 64, 64), Contains("an earlier launch never finished"));
}

TEST_CASE("timing device: a launch stopped unfinished reports what each block still has in hand",
          "[timing][device]") {
  TimingDevice d(small_gpu(3000));  // stopped while its waves wait for memory
  std::string report;
  try {
    vector_add(d, 65536, 65536);
  } catch (const runtime::DeviceError& e) {
    report = e.what();
  }
  INFO(report);
  CHECK_THAT(report, Contains("not done within 3 us (hung?)"));
  // The dispatcher's progress, each CU's requests and waves, the caches' queues.
  CHECK_THAT(report, Contains("\nstill in hand:\n  dispatcher: dispatching; "));
  CHECK_THAT(report, Contains("\n  cu[0]: vmem: "));
  CHECK_THAT(report, Contains("\n  cu[0]: wave 0 of workgroup (0,0,0) at PC 0x"));
  CHECK_THAT(report, Contains("\n  l2[0]: ") && Contains(" accepted and unanswered (128 places)"));
}

TEST_CASE("timing device: a netlist needs a dispatcher and a process gets one platform", "[timing][device]") {
  TimingDeviceOptions o = small_gpu();
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/traffic_demo.json";
  CHECK_THROWS_AS(TimingDevice(o), UserError);
  CHECK_THROWS_WITH(TimingDevice(o), Contains("elaborates once per process"));
}

TEST_CASE("timing device: the default netlist is TESSERA_NETLIST or small_gpu.json of the source tree",
          "[timing][device]") {
  unsetenv("TESSERA_NETLIST");
  CHECK(TimingDevice::default_netlist_file("/src/sw/kernels") == "/src/json/platforms/small_gpu.json");
  setenv("TESSERA_NETLIST", "/elsewhere/big.json", 1);
  CHECK(TimingDevice::default_netlist_file("/src/sw/kernels") == "/elsewhere/big.json");
  unsetenv("TESSERA_NETLIST");
}

TEST_CASE("timing device: on 64 CUs a one-workgroup kernel never wakes the 63 idle CUs", "[timing][device]") {
  TimingDeviceOptions o = small_gpu();
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/r9_nano.json";
  TimingDevice d(o);
  std::vector<float> c;
  const runtime::LaunchStats s = vector_add(d, 64, 64, &c);
  REQUIRE(s.workgroups == 1);
  for (uint32_t i = 0; i < 64; ++i) REQUIRE(c[i] == float(i) + 0.5f);
  const json stats = d.finish();
  int busy = 0, idle = 0;
  uint64_t busy_ticks = 0;
  for (int cu = 0; cu < 64; ++cu) {  // 16 shader arrays of 4 CUs
    const json& st = stats.at("sa[" + std::to_string(cu / 4) + "]").at("cu[" + std::to_string(cu % 4) + "]");
    if (st["instructions"].get<uint64_t>() == 0) {
      CHECK(st["ticks"] == 0);  // an idle CU has no process activation at all
      ++idle;
    } else {
      busy_ticks = st["ticks"].get<uint64_t>();
      ++busy;
    }
  }
  CHECK(busy == 1);
  CHECK(idle == 63);
  // The busy CU itself sleeps while its one wave waits on memory.
  CHECK(busy_ticks > 0);
  CHECK(busy_ticks < s.cycles);
}

TEST_CASE("timing device: the launch log counts the bytes that crossed between chiplets in each launch",
          "[timing][device]") {
  TimingDeviceOptions o = small_gpu();
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/chiplet2_small.json";
  TimingDevice d(o);
  vector_add(d, 4096, 4096);
  vector_add(d, 8192, 8192);
  const json stats = d.finish();
  const json& log = stats["timing_device"]["launch_log"];
  REQUIRE(log.size() == 2);
  const uint64_t first = log[0]["remote_bytes"], second = log[1]["remote_bytes"];
  CHECK(first > 0);
  CHECK(second > first);  // twice the data, interleaved over both chiplets
  CHECK(first + second == stats["noc"]["remote_bytes"].get<uint64_t>());
}

TEST_CASE("timing device: program-scope data is loaded with its relocations and a global persists",
          "[timing][device][code_loader]") {
  // sw/kernels/program_globals.cl: a table of pointers to __constant arrays
  // (R_AMDGPU_RELATIVE64) and a global counter initialised to 42, which the
  // first work-item reports and increments. Through the command processor.
  TimingDevice d(small_gpu());
  REQUIRE(d.host_runtime() != nullptr);
  const runtime::DevicePtr out = d.alloc(8 * sizeof(float)), seen = d.alloc(sizeof(int));
  for (int launch = 0; launch < 2; ++launch) {
    d.launch("program_globals", "program_globals", {8, 1, 1}, {8, 1, 1},
             runtime::KernelArgs().pointer(out).pointer(seen).value(int32_t(1 - launch)));
    const std::vector<float> got = d.download<float>(out, 8);
    for (int i = 0; i < 8; ++i) CHECK(got[i] == (launch ? 1.0f : 100.0f) * float(i % 4 + 1));
    CHECK(d.download<int>(seen, 1)[0] == 42 + launch);
  }
}
