// `tessera launch` as a user runs it: the program is run as a child process
// (one SystemC elaboration each), its buffers come back through --dump and
// are checked here byte for byte.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "tests/cu/kernel_builder.h"

namespace {

const std::string kTessera = std::string(TESSERA_BINARY_DIR) + "/tessera";
const std::string kKernels = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
const std::string kSmallGpu = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/small_gpu.json";

struct LaunchRun {
  int exit = -1;
  std::string out;  // stdout and stderr together
};

LaunchRun run_tessera(const std::string& args) {
  LaunchRun r;
  FILE* p = popen((kTessera + " " + args + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A fresh scratch_dir directory for one test process.
std::string scratch_dir(const std::string& name) {
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/tests/launch_command/" + name + "." +
                          std::to_string(getpid());
  REQUIRE(std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str()) == 0);
  return dir;
}

template <class T>
std::vector<T> read_dump(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  INFO(path);
  REQUIRE(in.good());
  const std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(b.size() % sizeof(T) == 0);
  std::vector<T> out(b.size() / sizeof(T));
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}

template <class T>
void write_input(const std::string& path, const std::vector<T>& v) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(v.data()),
                                              static_cast<std::streamsize>(v.size() * sizeof(T)));
}

std::string vadd_launch(const std::string& a, const std::string& b, const std::string& c, unsigned n) {
  return "launch " + kKernels + "/vector_add.hsaco --kernel vector_add --grid " + std::to_string(n) +
         " --block 64 --arg '" + a + "' --arg '" + b + "' --arg '" + c + "' --arg u32:" + std::to_string(n);
}

const char* kByValue = R"CL(
typedef struct { float scale; int offset; short tag; } params_t;
__kernel void by_value(__global float* out, uint2 u, float4 f, float3 g, params_t p) {
  out[0] = u.x;  out[1] = u.y;
  out[2] = f.x;  out[3] = f.y;  out[4] = f.z;  out[5] = f.w;
  out[6] = g.x;  out[7] = g.y;  out[8] = g.z;
  out[9] = p.scale;  out[10] = p.offset;  out[11] = p.tag;
}
)CL";

}  // namespace

TEST_CASE("launch: a buffer from a file, its size checked", "[launch]") {
  const std::string dir = scratch_dir("file");
  std::vector<float> a(300);
  for (size_t i = 0; i < a.size(); ++i) a[i] = std::ldexp(float(i) - 150.5f, int(i % 7) - 3);
  write_input(dir + "/a.bin", a);
  const LaunchRun r = run_tessera(vadd_launch("buf:f32:300:file=" + dir + "/a.bin", "buf:f32:300:iota", "buf:f32:300:zero", 300) +
                        " --dump 2=" + dir + "/c.bin");
  INFO(r.out);
  REQUIRE(r.exit == 0);
  const std::vector<float> c = read_dump<float>(dir + "/c.bin");
  REQUIRE(c.size() == 300);
  for (size_t i = 0; i < c.size(); ++i) CHECK(c[i] == a[i] + float(i));
  const LaunchRun small = run_tessera(vadd_launch("buf:f32:301:file=" + dir + "/a.bin", "buf:f32:301:1", "buf:f32:301:zero", 301));
  CHECK(small.exit == 3);
  CHECK_THAT(small.out, Catch::Contains("holds 1200 bytes, but the buffer is 1204"));
  const LaunchRun missing = run_tessera(vadd_launch("buf:f32:4:file=" + dir + "/none.bin", "buf:f32:4:1", "buf:f32:4:zero", 4));
  CHECK(missing.exit == 3);
  CHECK_THAT(missing.out, Catch::Contains("cannot read") && Catch::Contains("none.bin"));
}

TEST_CASE("launch: random(LO,HI) fills the range and follows --seed", "[launch]") {
  const std::string dir = scratch_dir("random");
  auto run = [&](const std::string& seed, const std::string& tag) {
    const LaunchRun r = run_tessera(vadd_launch("buf:f32:4096:random(-4,4)", "buf:i32:4096:random(-3,3)", "buf:f32:4096:zero",
                                    4096) +
                          " --seed " + seed + " --dump 0=" + dir + "/a" + tag + ".bin --dump 1=" + dir + "/b" + tag +
                          ".bin");
    INFO(r.out);
    REQUIRE(r.exit == 0);
  };
  run("7", "1");
  run("7", "2");
  run("8", "3");
  const std::vector<float> a = read_dump<float>(dir + "/a1.bin");
  const std::vector<int32_t> b = read_dump<int32_t>(dir + "/b1.bin");
  float lo = a[0], hi = a[0];
  for (float v : a) lo = std::min(lo, v), hi = std::max(hi, v);
  CHECK(lo >= -4.0f);
  CHECK(hi < 4.0f);
  CHECK(lo < -3.9f);  // 4096 draws cover the range
  CHECK(hi > 3.9f);
  const std::set<int32_t> ints(b.begin(), b.end());
  CHECK(ints == std::set<int32_t>{-3, -2, -1, 0, 1, 2, 3});
  CHECK(read_dump<float>(dir + "/a2.bin") == a);  // same seed, same values
  CHECK(read_dump<float>(dir + "/a3.bin") != a);
  const LaunchRun bad = run_tessera(vadd_launch("buf:f32:4:random(4,-4)", "buf:f32:4:1", "buf:f32:4:zero", 4));
  CHECK(bad.exit == 2);
  CHECK_THAT(bad.out, Catch::Contains("LO < HI"));
  const LaunchRun wide = run_tessera(vadd_launch("buf:u8:4:random(0,256)", "buf:f32:4:1", "buf:f32:4:zero", 4));
  CHECK(wide.exit == 2);
  CHECK_THAT(wide.out, Catch::Contains("do not fit in u8"));
}

TEST_CASE("launch: vectors and structs by value, sized against the metadata", "[launch]") {
  const std::string dir = scratch_dir("by_value");
  const std::string hsaco = tessera::test::build_kernel("launch_by_value", kByValue);
  // params_t {scale 2.5f, offset -7, tag 300, 2 bytes of padding}: 12 bytes.
  const std::string params = "bytes:00002040f9ffffff2c010000";
  const std::string base = "launch " + hsaco + " --kernel by_value --grid 1 --block 1 --arg buf:f32:12:zero ";
  const LaunchRun r = run_tessera(base + "--arg u32x2:7,9 --arg f32x4:1.5,-2,3,0.25 --arg f32x3:10,20,30 --arg " + params +
                        " --dump 0=" + dir + "/out.bin");
  INFO(r.out);
  REQUIRE(r.exit == 0);
  const std::vector<float> want = {7, 9, 1.5f, -2, 3, 0.25f, 10, 20, 30, 2.5f, -7, 300};
  CHECK(read_dump<float>(dir + "/out.bin") == want);

  const LaunchRun narrow = run_tessera(base + "--arg u32x2:7,9 --arg f32x2:1,2 --arg f32x3:1,2,3 --arg " + params);
  CHECK(narrow.exit == 2);
  CHECK_THAT(narrow.out, Catch::Contains("float4") && Catch::Contains("takes 16 bytes, 8 given"));
  const LaunchRun short_struct = run_tessera(base + "--arg u32x2:7,9 --arg f32x4:1,2,3,4 --arg f32x3:1,2,3 --arg bytes:0000");
  CHECK(short_struct.exit == 2);
  CHECK_THAT(short_struct.out, Catch::Contains("takes 12 bytes, 2 given"));
  const LaunchRun count = run_tessera(base + "--arg u32x2:7 --arg f32x4:1,2,3,4 --arg f32x3:1,2,3 --arg " + params);
  CHECK(count.exit == 2);
  CHECK_THAT(count.out, Catch::Contains("u32x2 takes 2 comma-separated values, got 1"));
  const LaunchRun hex = run_tessera(base + "--arg u32x2:7,9 --arg f32x4:1,2,3,4 --arg f32x3:1,2,3 --arg bytes:zz");
  CHECK(hex.exit == 2);
  CHECK_THAT(hex.out, Catch::Contains("not a hexadecimal byte"));
}

TEST_CASE("launch: --dump is written when the kernel faults, and says so", "[launch]") {
  const std::string dir = scratch_dir("fault");
  // c holds 10 floats: the grid of 2000 stores far past it.
  const LaunchRun r = run_tessera(vadd_launch("buf:f32:2000:iota", "buf:f32:2000:1", "buf:f32:10:zero", 2000) + " --dump 0=" +
                        dir + "/a.bin --dump 2=" + dir + "/c.bin");
  INFO(r.out);
  CHECK(r.exit == 1);
  CHECK_THAT(r.out, Catch::Contains("faulted at workgroup") && Catch::Contains("the kernel did not complete"));
  const std::vector<float> a = read_dump<float>(dir + "/a.bin");
  REQUIRE(a.size() == 2000);
  CHECK(a[1999] == 1999.0f);
  CHECK(read_dump<float>(dir + "/c.bin").size() == 10);
}

TEST_CASE("launch --netlist runs on the timing platform with the same arguments and results", "[launch][timing]") {
  const std::string dir = scratch_dir("netlist");
  const std::string args =
      "launch " + kKernels + "/libm.hsaco --kernel libm --grid 1000 --block 128 --arg 'buf:f32:1000:random(0.01,50)' "
      "--arg 'buf:f32:1000:random(-4,4)' --arg buf:f32:1000:zero --arg buf:f32:1000:zero --arg buf:f32:1000:zero "
      "--arg u32:1000 --seed 3";
  const LaunchRun functional = run_tessera(args + " --dump 4=" + dir + "/f.bin");
  INFO(functional.out);
  REQUIRE(functional.exit == 0);
  const LaunchRun timing = run_tessera(args + " --dump 4=" + dir + "/t.bin --netlist " + kSmallGpu +
                             " --set 'l2[*].size=1 MiB' --stats " + dir + "/stats.json");
  INFO(timing.out);
  REQUIRE(timing.exit == 0);
  CHECK_THAT(timing.out, Catch::Contains("kernel libm on ") && Catch::Contains(" cycles (kernel ") &&
                             Catch::Contains("8 workgroups") && Catch::Contains("statistics written to"));
  const std::vector<float> f = read_dump<float>(dir + "/f.bin");
  CHECK(f.size() == 1000);
  CHECK(read_dump<float>(dir + "/t.bin") == f);
  CHECK(std::ifstream(dir + "/stats.json").good());
  const LaunchRun again = run_tessera(args + " --netlist " + kSmallGpu + " --stats " + dir + "/stats.json");
  CHECK(again.exit == 2);
  CHECK_THAT(again.out, Catch::Contains("already exists"));
  const LaunchRun hung = run_tessera(args + " --netlist " + kSmallGpu + " --max-cycles 100 --dump 4=" + dir + "/h.bin");
  CHECK(hung.exit == 1);
  CHECK_THAT(hung.out, Catch::Contains("not done within") && Catch::Contains("the kernel did not complete"));
  CHECK(read_dump<float>(dir + "/h.bin").size() == 1000);
  const LaunchRun stray = run_tessera(args + " --set 'l2[*].size=1 MiB'");
  CHECK(stray.exit == 2);
  CHECK_THAT(stray.out, Catch::Contains("add --netlist FILE"));
}
