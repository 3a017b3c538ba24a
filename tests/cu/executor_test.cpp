// End-to-end kernels on the functional device, checked against CPU results.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "models/cu/isa/semantics.h"
#include "platform/functional_device.h"
#include "tests/cu/kernel_builder.h"

using tessera::FunctionalDevice;
using namespace tessera::runtime;

namespace {

const char* kExecKernels = R"CL(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
__kernel void block_sum(__global const int* in, __global int* out) {
  __local int tmp[256];
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
__kernel void private_array(__global const int* in, __global int* out, int k) {
  int arr[64];
  int g = get_global_id(0);
  for (int i = 0; i < 64; ++i) arr[i] = in[(g + i) & 63] * i;
  out[g] = arr[(g * k) & 63] + arr[(g + k) & 63];
}
__kernel void histogram(__global const uint* in, __global uint* bins, uint n) {
  uint i = get_global_id(0);
  if (i < n) atomic_inc(&bins[in[i] % 16]);
}
__kernel void ids3d(__global uint* out) {
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  size_t i = gx + get_global_size(0) * (gy + get_global_size(1) * gz);
  out[4 * i + 0] = get_local_id(0) | (get_local_id(1) << 10) | (get_local_id(2) << 20);
  out[4 * i + 1] = get_group_id(0) | (get_group_id(1) << 10) | (get_group_id(2) << 20);
  out[4 * i + 2] = get_local_size(0) * get_local_size(1) * get_local_size(2);
  out[4 * i + 3] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
}
__kernel void store_at(__global int* out, int index) {
  if (get_global_id(0) == 5) out[index] = 42;
}
__kernel void store_lanes(__global int* out, int bad) {
  int g = get_global_id(0);
  out[g == bad ? g + (1 << 20) : g] = g + 1;
}
__kernel void send_message(__global int* out) {
  __builtin_amdgcn_s_sendmsg(1, 0);
  out[get_global_id(0)] = 1;
}
)CL";

FunctionalDevice make_device() {
  const std::string path = tessera::test::build_kernel("exec_kernels", kExecKernels);
  return FunctionalDevice(path.substr(0, path.rfind('/')));
}

}  // namespace

TEST_CASE("executor: vector add with a partial last workgroup", "[executor]") {
  FunctionalDevice dev = make_device();
  const int n = 1000;  // 4 workgroups of 256, the last one partial
  std::vector<float> a(n), b(n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-100.f, 100.f);
  for (int i = 0; i < n; ++i) a[i] = dist(rng), b[i] = dist(rng);
  const DevicePtr da = dev.upload(a), db = dev.upload(b), dc = dev.upload(std::vector<float>(n + 8, -1.f));
  const LaunchStats s = dev.launch("exec_kernels", "vadd", {n, 1, 1}, {256, 1, 1}, KernelArgs().pointer(da).pointer(db).pointer(dc).value(n));
  const std::vector<float> c = dev.download<float>(dc, n + 8);
  for (int i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
  for (int i = n; i < n + 8; ++i) CHECK(c[i] == -1.f);  // nothing written past n
  CHECK(s.workgroups == 4);
  CHECK(s.waves == 4 + 4 + 4 + 4);  // 1000 - 768 = 232 work-items: still 4 waves
  CHECK(s.wave_instructions > s.waves * 10);
}

TEST_CASE("executor: workgroup reduction through LDS and barriers", "[executor]") {
  FunctionalDevice dev = make_device();
  const int groups = 6, size = 256;
  std::vector<int> in(groups * size);
  std::mt19937 rng(11);
  for (int& x : in) x = static_cast<int>(rng() % 2001) - 1000;
  const DevicePtr din = dev.upload(in), dout = dev.upload(std::vector<int>(groups, 0));
  dev.launch("exec_kernels", "block_sum", {groups * size, 1, 1}, {size, 1, 1}, KernelArgs().pointer(din).pointer(dout));
  const std::vector<int> out = dev.download<int>(dout, groups);
  for (int g = 0; g < groups; ++g) {
    const int expect = std::accumulate(in.begin() + g * size, in.begin() + (g + 1) * size, 0);
    CHECK(out[g] == expect);
  }
}

TEST_CASE("executor: private arrays live in per-lane scratch", "[executor]") {
  FunctionalDevice dev = make_device();
  const int n = 256, k = 7;
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i) in[i] = 3 * i - 50;
  const DevicePtr din = dev.upload(in), dout = dev.upload(std::vector<int>(n, 0));
  dev.launch("exec_kernels", "private_array", {n, 1, 1}, {128, 1, 1}, KernelArgs().pointer(din).pointer(dout).value(k));
  const std::vector<int> out = dev.download<int>(dout, n);
  for (int g = 0; g < n; ++g) {
    auto arr = [&](int i) { return in[(g + i) & 63] * i; };
    REQUIRE(out[g] == arr((g * k) & 63) + arr((g + k) & 63));
  }
}

TEST_CASE("executor: atomic histogram", "[executor]") {
  FunctionalDevice dev = make_device();
  const unsigned n = 3000;
  std::vector<uint32_t> in(n), expect(16, 0);
  std::mt19937 rng(3);
  for (auto& x : in) {
    x = rng();
    ++expect[x % 16];
  }
  const DevicePtr din = dev.upload(in), dbins = dev.upload(std::vector<uint32_t>(16, 0));
  dev.launch("exec_kernels", "histogram", {n, 1, 1}, {64, 1, 1}, KernelArgs().pointer(din).pointer(dbins).value(n));
  CHECK(dev.download<uint32_t>(dbins, 16) == expect);
}

TEST_CASE("executor: 3-D ids, sizes and counts reach the kernel", "[executor]") {
  FunctionalDevice dev = make_device();
  const Dim3 global{12, 6, 4}, local{4, 3, 2};
  const size_t items = 12 * 6 * 4;
  const DevicePtr dout = dev.upload(std::vector<uint32_t>(4 * items, 0xdeadbeef));
  const LaunchStats s = dev.launch("exec_kernels", "ids3d", global, local, KernelArgs().pointer(dout));
  CHECK(s.workgroups == 3 * 2 * 2);
  CHECK(s.waves == 12);  // 24 work-items per workgroup: one wave each
  const std::vector<uint32_t> out = dev.download<uint32_t>(dout, 4 * items);
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 6; ++y)
      for (uint32_t x = 0; x < 12; ++x) {
        const size_t i = x + 12 * (y + 6 * z);
        INFO("work-item " << x << "," << y << "," << z);
        REQUIRE(out[4 * i + 0] == ((x % 4) | ((y % 3) << 10) | ((z % 2) << 20)));
        REQUIRE(out[4 * i + 1] == ((x / 4) | ((y / 3) << 10) | ((z / 2) << 20)));
        REQUIRE(out[4 * i + 2] == 24);
        REQUIRE(out[4 * i + 3] == 12);
      }
}

TEST_CASE("executor: an out-of-bounds store is a GPU memory fault with wave, PC and address", "[executor]") {
  FunctionalDevice dev = make_device();
  const DevicePtr dout = dev.upload(std::vector<int>(16, 0));
  // Index 2^20 lands 4 MiB past a 64-byte buffer: outside every allocation.
  try {
    dev.launch("exec_kernels", "store_at", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(dout).value(1 << 20));
    FAIL("the launch should have faulted");
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("GPU memory fault") != std::string::npos);
    CHECK(msg.find("kernel 'store_at'") != std::string::npos);
    CHECK(msg.find("workgroup (0,0,0) wave 0") != std::string::npos);
    CHECK(msg.find("global_store_dword") != std::string::npos);
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(dout + (1u << 22)));
    CHECK(msg.find(addr) != std::string::npos);
    CHECK(msg.find("PC 0x") != std::string::npos);
  }
  // The device stays usable, and the kernel's in-bounds store still works.
  dev.launch("exec_kernels", "store_at", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(dout).value(3));
  CHECK(dev.download<int>(dout, 16)[3] == 42);
}

TEST_CASE("executor: one bad lane among 64 active ones is reported with its own address", "[executor]") {
  // The address range of the store spans far outside the buffer, so the fast
  // whole-range path declines and the per-lane path finds the faulting lane.
  FunctionalDevice dev = make_device();
  const DevicePtr dout = dev.upload(std::vector<int>(64, 0));
  const int bad = 30;
  try {
    dev.launch("exec_kernels", "store_lanes", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(dout).value(bad));
    FAIL("the launch should have faulted");
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("GPU memory fault") != std::string::npos);
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx",
                  static_cast<unsigned long long>(dout + 4ull * (bad + (1u << 20))));
    CHECK(msg.find(addr) != std::string::npos);
  }
  const std::vector<int> out = dev.download<int>(dout, 64);
  for (int lane = 0; lane < bad; ++lane) CHECK(out[lane] == lane + 1);
  // With no bad lane the whole-range path stores every lane.
  dev.launch("exec_kernels", "store_lanes", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(dout).value(-1));
  const std::vector<int> all = dev.download<int>(dout, 64);
  for (int lane = 0; lane < 64; ++lane) CHECK(all[lane] == lane + 1);
}

TEST_CASE("executor: an instruction without semantics stops the run naming it", "[executor]") {
  // s_sendmsg talks to the graphics pipeline and has no meaning for compute.
  REQUIRE(tessera::isa::semantics().find("s_sendmsg") == nullptr);
  FunctionalDevice dev = make_device();
  const DevicePtr dout = dev.upload(std::vector<int>(64, 0));
  try {
    dev.launch("exec_kernels", "send_message", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(dout));
    FAIL("the launch should have stopped");
  } catch (const DeviceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(msg.find("s_sendmsg") != std::string::npos);
    CHECK(msg.find("no semantics") != std::string::npos);
    CHECK(msg.find("kernel 'send_message'") != std::string::npos);
    CHECK(msg.find("PC 0x") != std::string::npos);
  }
}

TEST_CASE("executor: launch errors name the kernel and the argument", "[executor]") {
  FunctionalDevice dev = make_device();
  const DevicePtr d = dev.alloc(64);
  CHECK_THROWS_WITH(dev.launch("exec_kernels", "nope", {64, 1, 1}, {64, 1, 1}, KernelArgs()),
                    Catch::Contains("no kernel 'nope'") && Catch::Contains("vadd"));
  CHECK_THROWS_WITH(dev.launch("no_such_program", "vadd", {64, 1, 1}, {64, 1, 1}, KernelArgs()),
                    Catch::Contains("cannot open"));
  CHECK_THROWS_WITH(dev.launch("exec_kernels", "vadd", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(d)),
                    Catch::Contains("takes 4 arguments, 1 given"));
  CHECK_THROWS_WITH(
      dev.launch("exec_kernels", "vadd", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(d).pointer(d).pointer(d).value(int64_t(1))),
      Catch::Contains("argument 3") && Catch::Contains("4 bytes, 8 bytes given"));
  CHECK_THROWS_WITH(
      dev.launch("exec_kernels", "vadd", {64, 1, 1}, {64, 1, 1}, KernelArgs().value(1).pointer(d).pointer(d).value(1)),
      Catch::Contains("argument 0") && Catch::Contains("buffer pointer"));
  CHECK_THROWS_WITH(
      dev.launch("exec_kernels", "vadd", {64, 1, 1}, {2048, 1, 1}, KernelArgs().pointer(d).pointer(d).pointer(d).value(1)),
      Catch::Contains("exceeds"));
  CHECK_THROWS_WITH(
      dev.launch("exec_kernels", "vadd", {0, 1, 1}, {64, 1, 1}, KernelArgs().pointer(d).pointer(d).pointer(d).value(1)),
      Catch::Contains("at least 1"));
  CHECK_THROWS_AS(dev.free(d + 4), DeviceError);
  std::vector<uint8_t> big(128);
  CHECK_THROWS_AS(dev.write(d, big.data(), big.size()), DeviceError);
}
