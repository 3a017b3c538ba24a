// A kernel that never ends (a wave spinning on a flag nobody sets) is
// reported, not run forever: past limits().wave_instructions one wave's
// instructions, the functional executor and the cycle-level CU each fault it
// with its workgroup, wave, PC and instruction, and the message names the
// limit and how to raise it. One platform per test case.
#include <catch2/catch.hpp>

#include <vector>

#include "platform/errors.h"
#include "platform/functional_device.h"
#include "platform/limits.h"
#include "platform/timing_device.h"
#include "tests/cu/kernel_builder.h"

using namespace tessera;
using Catch::Contains;

namespace {

const char* kSpinKernel = R"CL(
__kernel void spin(__global volatile int* flag) {
  while (flag[0] == 0) {}
}
)CL";

std::string kernel_dir() {
  const std::string path = test::build_kernel("spin_kernels", kSpinKernel);
  return path.substr(0, path.rfind('/'));
}

// Runs `launch`, which must throw the report both devices give for the spinning wave.
template <class F>
void check_spinning(F&& launch) {
  try {
    launch();
    FAIL("the spinning kernel was not stopped");
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    CHECK_THAT(msg, Contains("kernel 'spin' faulted at workgroup (0,0,0) wave 0, PC 0x"));
    CHECK_THAT(msg, Contains("spinning: the wave executed more than 20000 instructions without ending"));
    CHECK_THAT(msg, Contains("--limit wave_instructions=N"));
  }
}

}  // namespace

TEST_CASE("spinning: the functional executor reports a wave past the instruction limit", "[spinning]") {
  limits().wave_instructions = 20000;
  FunctionalDevice dev(kernel_dir());
  const runtime::DevicePtr flag = dev.upload(std::vector<int>(1, 0));
  check_spinning([&] { dev.launch("spin_kernels", "spin", {64, 1, 1}, {64, 1, 1}, runtime::KernelArgs().pointer(flag)); });
}

TEST_CASE("spinning: the cycle-level compute unit reports a wave past the instruction limit", "[spinning]") {
  limits().wave_instructions = 20000;
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";
  o.kernel_dir = kernel_dir();
  TimingDevice d(o);
  const runtime::DevicePtr flag = d.upload(std::vector<int>(1, 0));
  check_spinning([&] { d.launch("spin_kernels", "spin", {64, 1, 1}, {64, 1, 1}, runtime::KernelArgs().pointer(flag)); });
}

TEST_CASE("spinning: a netlist's compute units without timing report a wave past the instruction limit",
          "[spinning]") {
  limits().wave_instructions = 20000;
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";
  o.kernel_dir = kernel_dir();
  o.functional = true;
  TimingDevice d(o);
  const runtime::DevicePtr flag = d.upload(std::vector<int>(1, 0));
  check_spinning([&] { d.launch("spin_kernels", "spin", {64, 1, 1}, {64, 1, 1}, runtime::KernelArgs().pointer(flag)); });
}

TEST_CASE("spinning: a wave that ends below the limit runs as before", "[spinning]") {
  limits().wave_instructions = 20000;
  FunctionalDevice dev(kernel_dir());
  const runtime::DevicePtr flag = dev.upload(std::vector<int>(1, 1));
  const runtime::LaunchStats s =
      dev.launch("spin_kernels", "spin", {64, 1, 1}, {64, 1, 1}, runtime::KernelArgs().pointer(flag));
  CHECK(s.workgroups == 1);
}
