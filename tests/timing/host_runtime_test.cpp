// The host runtime end to end on real netlists: AQL packets in queues, the
// command processor's aql_cp firmware, dispatchers, completion signals.
// Queues, barrier-AND packets across queues, access-mode packets, argument
// checks, work partitioned over two dispatchers, and what the host sees when
// the firmware faults or halts. One platform per test case (one process each).
#include "platform/host_runtime.h"

#include <catch2/catch.hpp>

#include "platform/timing_device.h"
#include "tests/mem/mem_test_support.h"

using namespace tessera;
using Catch::Matchers::Contains;

namespace {

const std::string kVectorAdd = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/vector_add.hsaco";

TimingDeviceOptions options(const std::string& netlist, std::vector<std::string> sets = {}) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/" + netlist;
  o.kernel_dir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
  for (const auto& s : sets) o.overrides.push_back(parse_override(s));
  return o;
}

// Device buffers of n floats.
struct Buffers {
  Buffers(HostRuntime& rt, uint32_t n) : rt(rt), n(n) {}
  uint64_t make(float value) {
    const std::vector<float> v(n, value);
    const uint64_t p = rt.alloc(4ull * n);
    rt.copy_to_device(p, v.data(), 4ull * n);
    return p;
  }
  std::vector<float> get(uint64_t p) {
    std::vector<float> v(n);
    rt.copy_to_host(v.data(), p, 4ull * n);
    return v;
  }
  HostRuntime& rt;
  uint32_t n;
};

KernelArguments vector_add_args(const HostKernel& k, uint64_t a, uint64_t b, uint64_t c, uint32_t n) {
  KernelArguments args(k);
  args.set_pointer(0, a).set_pointer(1, b).set_pointer(2, c).set_value(3, n);
  return args;
}

}  // namespace

TEST_CASE("host runtime: kernel arguments are set by index and checked against the metadata", "[runtime]") {
  TimingDevice dev(options("json/platforms/small_gpu.json"));
  HostRuntime& rt = *dev.host_runtime();
  const HostKernel& k = rt.kernel(kVectorAdd, "vector_add");
  CHECK(k.arg_count() == 4);
  CHECK(k.object != 0);
  KernelArguments args(k);
  CHECK_THROWS_WITH(args.set_value(0, 1.0f), Contains("argument 0 of type float*") && Contains("not passed by value"));
  CHECK_THROWS_WITH(args.set_pointer(3, 64), Contains("argument 3") && Contains("not a buffer pointer"));
  CHECK_THROWS_WITH(args.set_value(3, uint64_t{1}), Contains("takes 4 bytes, 8 given"));
  CHECK_THROWS_WITH(args.set_local(0, 256), Contains("not a __local pointer"));
  CHECK_THROWS_WITH(args.set_value(4, 1), Contains("takes 4 arguments"));
  args.set_pointer(0, 64).set_pointer(1, 64).set_value(3, 7u);
  CHECK_THROWS_WITH(args.values(), Contains("argument 2 of type float* was not set"));
  CHECK_THROWS_WITH(rt.kernel(kVectorAdd, "vector_sub"), Contains("has no kernel 'vector_sub'; it has: vector_add"));
  // The descriptor is in device memory, its entry offset pointing at the copied code.
  uint8_t kd[64];
  rt.copy_to_host(kd, k.object, 64);
  int64_t entry = 0;
  std::memcpy(&entry, kd + 16, 8);
  CHECK(uint64_t(int64_t(k.object) + entry) % 256 == 0);
  uint32_t first_word = 0;
  rt.copy_to_host(&first_word, uint64_t(int64_t(k.object) + entry), 4);
  CHECK(first_word != 0);
}

TEST_CASE("host runtime: a barrier-AND packet holds one queue until another queue's kernel has signalled",
          "[runtime]") {
  TimingDevice dev(options("json/platforms/small_gpu.json"));
  HostRuntime& rt = *dev.host_runtime();
  const uint32_t n = 4096;
  Buffers buf(rt, n);
  const uint64_t a = buf.make(1.0f), b = buf.make(2.0f), c = buf.make(0.0f), d = buf.make(0.0f);
  const HostKernel& k = rt.kernel(kVectorAdd, "vector_add");
  const unsigned q0 = rt.create_queue(), q1 = rt.create_queue();
  const Signal c_done = rt.create_signal(1), gate = rt.create_signal(1), d_done = rt.create_signal(1);
  // Queue q1 first: d = c + b may only run after q0 has produced c.
  rt.barrier_and(q1, {c_done}, gate);
  rt.dispatch(q1, k, {n, 1, 1}, {256, 1, 1}, vector_add_args(k, c, b, d, n), d_done);
  rt.dispatch(q0, k, {n, 1, 1}, {256, 1, 1}, vector_add_args(k, a, b, c, n), c_done);
  rt.wait(d_done);
  CHECK(rt.signal_value(c_done) == 0);
  CHECK(rt.signal_value(gate) == 0);
  const std::vector<float> out = buf.get(d);
  for (uint32_t i = 0; i < n; ++i) REQUIRE(out[i] == 5.0f);
  CHECK(rt.cp().read_index(q0) == 1);
  CHECK(rt.cp().read_index(q1) == 2);
  const json stats = dev.finish();
  CHECK(stats["cp"]["kernel_launches"] == 2);
  CHECK(stats["cp"]["doorbells"] == 3);
  CHECK(stats["dispatcher"]["workgroups"] == 32);
  CHECK(stats["simulation"]["ok"] == true);
}

TEST_CASE("host runtime: access modes reach the firmware in a vendor packet ahead of the dispatch", "[runtime]") {
  // debug_flags 4: the firmware traces every packet on its console.
  TimingDevice dev(options("json/platforms/small_gpu.json", {"cp.debug_flags=4"}));
  HostRuntime& rt = *dev.host_runtime();
  const uint32_t n = 1024;
  Buffers buf(rt, n);
  const uint64_t a = buf.make(1.0f), b = buf.make(2.0f), c = buf.make(0.0f);
  const HostKernel& k = rt.kernel(kVectorAdd, "vector_add");
  const unsigned q = rt.create_queue();
  const Signal done = rt.create_signal(1);
  test::CaptureStdout out;
  rt.set_access_modes(q, {{a, 4ull * n, AccessMode::ReadOnly},
                          {b, 4ull * n, AccessMode::ReadOnly, 0x1},
                          {c, 4ull * n, AccessMode::ReadWrite}});
  rt.dispatch(q, k, {n, 1, 1}, {256, 1, 1}, vector_add_args(k, a, b, c, n), done);
  rt.wait(done);
  for (float v : buf.get(c)) REQUIRE(v == 3.0f);
  const std::string text = out.text();
  CHECK_THAT(text, Contains("[cp] aql_cp: queue 1 packet 0: 3 access modes"));
  CHECK_THAT(text, Contains("[cp] aql_cp: queue 1 packet 1: dispatch") && Contains("grid 1024x1x1 wg 256x1x1") &&
                       Contains("= 4 workgroups") && Contains("3 access modes (2 read-only)"));
}

TEST_CASE("host runtime: two dispatchers each run one contiguous half of the grid", "[runtime]") {
  TimingDevice dev(options("tests/netlists/timing/two_engines.json"));
  HostRuntime& rt = *dev.host_runtime();
  REQUIRE(rt.dispatchers().size() == 2);
  std::vector<float> a(10000), b(10000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i), b[i] = 0.25f;
  const runtime::DevicePtr pa = dev.upload(a), pb = dev.upload(b), pc = dev.alloc(4 * a.size());
  runtime::KernelArgs args;
  args.pointer(pa).pointer(pb).pointer(pc).value(uint32_t(a.size()));
  // 10000 items in workgroups of 64: 157 workgroups, 78 to se[0] and 79 to se[1].
  const runtime::LaunchStats s = dev.launch("vector_add", "vector_add", {10000, 1, 1}, {64, 1, 1}, args);
  CHECK(s.workgroups == 157);
  CHECK(s.kernel_cycles > 0);
  CHECK(s.kernel_cycles < s.cycles);  // the firmware's acquire, programming and release come on top
  const std::vector<float> c = dev.download<float>(pc, a.size());
  for (size_t i = 0; i < a.size(); ++i) REQUIRE(c[i] == float(i) + 0.25f);
  const json stats = dev.finish();
  CHECK(stats["se[0]"]["workgroups"] == 78);
  CHECK(stats["se[1]"]["workgroups"] == 79);
  CHECK(stats["se[0]"]["ranges"] == 1);
  CHECK(stats["se[1]"]["cache_commands"] == 3);  // invalidate CU side, invalidate L2, write back L2
  CHECK(stats["se[0]"]["workgroups_to_cu0"] == 39);
  CHECK(stats["se[0]"]["workgroups_to_cu1"] == 39);
}

TEST_CASE("host runtime: a faulting firmware stops the wait with its report", "[runtime]") {
  TimingDevice dev(options("json/platforms/small_gpu.json", {"cp.firmware=fault.elf"}));
  test::CaptureStdout out;
  std::vector<float> a(64, 1.0f);
  const runtime::DevicePtr p = dev.upload(a);
  runtime::KernelArgs args;
  args.pointer(p).pointer(p).pointer(p).value(64u);
  CHECK_THROWS_WITH(dev.launch("vector_add", "vector_add", {64, 1, 1}, {64, 1, 1}, args),
                    Contains("the command processor faulted") &&
                        Contains("unmapped read of 4 bytes at 0x40000000") && Contains("pc=0x"));
  CHECK_FALSE(dev.host_runtime()->cp().ok());
}

TEST_CASE("host runtime: a firmware that halts instead of serving queues is reported", "[runtime]") {
  TimingDevice dev(options("json/platforms/small_gpu.json", {"cp.firmware=hello.elf"}));
  test::CaptureStdout out;
  std::vector<float> a(64, 1.0f);
  const runtime::DevicePtr p = dev.upload(a);
  runtime::KernelArgs args;
  args.pointer(p).pointer(p).pointer(p).value(64u);
  CHECK_THROWS_WITH(dev.launch("vector_add", "vector_add", {64, 1, 1}, {64, 1, 1}, args),
                    Contains("firmware halted") && Contains("exit code 0"));
}

TEST_CASE("host runtime: a dispatcher whose interrupt reaches nobody leaves the platform idle, reported",
          "[runtime]") {
  // small_gpu without the dispatcher's interrupt line: the firmware sleeps for ever waiting for it.
  TimingDevice dev(options("tests/netlists/timing/no_interrupt.json"));
  std::vector<float> a(64, 1.0f);
  const runtime::DevicePtr p = dev.upload(a);
  runtime::KernelArgs args;
  args.pointer(p).pointer(p).pointer(p).value(64u);
  CHECK_THROWS_WITH(dev.launch("vector_add", "vector_add", {64, 1, 1}, {64, 1, 1}, args),
                    Contains("the platform went idle with the command processor asleep") &&
                        Contains("cp: asleep"));
  CHECK_THROWS_WITH(dev.launch("vector_add", "vector_add", {64, 1, 1}, {64, 1, 1}, args),
                    Contains("an earlier launch never finished"));
}
