// The PoCL device and the device registry: memory, launches, and the errors a
// user sees for bad programs, kernels, arguments and addresses.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "sw/runtime/device_registry.h"
#include "sw/runtime/pocl_device.h"

using namespace tessera::runtime;
using Catch::Matchers::Contains;

namespace {

// A kernel directory of its own for one test, removed afterwards.
struct TempKernelDir {
  std::string path;
  TempKernelDir() {
    char templ[] = "/tmp/tessera_kernels_XXXXXX";
    path = mkdtemp(templ);
  }
  ~TempKernelDir() {
    for (const auto& f : files) std::remove((path + "/" + f).c_str());
    rmdir(path.c_str());
  }
  void add(const std::string& name, const std::string& text) {
    std::ofstream(path + "/" + name) << text;
    files.push_back(name);
  }
  std::vector<std::string> files;
};

}  // namespace

TEST_CASE("pocl is registered and unknown devices are named in the error", "[device]") {
  CHECK(has_device("pocl"));
  CHECK_THROWS_WITH(create_device("no-such-device"), Contains("unknown device 'no-such-device'") && Contains("pocl"));
}

TEST_CASE("pocl memory: write and read at offsets inside an allocation", "[device]") {
  PoclDevice d;
  DevicePtr p = d.alloc(64);
  DevicePtr q = d.alloc(16);
  CHECK(p != 0);
  CHECK(q != p);
  std::vector<uint32_t> in(16);
  for (uint32_t i = 0; i < 16; ++i) in[i] = i * 3 + 1;
  d.write(p, in.data(), 64);
  uint32_t two[2] = {};
  d.read(two, p + 8, 8);
  CHECK(two[0] == 7);
  CHECK(two[1] == 10);
  CHECK_THROWS_WITH(d.read(two, p + 60, 8), Contains("not inside one allocation"));
  CHECK_THROWS_WITH(d.write(0x10, in.data(), 4), Contains("not inside one allocation"));
  CHECK_THROWS_WITH(d.free(p + 4), Contains("not the base address"));
  d.free(p);
  CHECK_THROWS(d.read(two, p, 4));
}

TEST_CASE("pocl launches a kernel from the kernel directory with -I", "[device]") {
  TempKernelDir dir;
  dir.add("helper.h", "#define SCALE 3u\n");
  dir.add("scale.cl",
          "#include \"helper.h\"\n"
          "__kernel void scale(__global uint* v, uint n) { uint i = get_global_id(0); if (i < n) v[i] *= SCALE; }\n");
  PoclDevice d(dir.path);
  std::vector<uint32_t> v = {1, 2, 3, 4, 5};
  DevicePtr p = d.upload(v);
  LaunchStats s = d.launch("scale", "scale", Dim3{8}, Dim3{4}, KernelArgs().pointer(p).value(uint32_t(5)));
  CHECK(s.workgroups == 2);
  CHECK(d.download<uint32_t>(p, 5) == std::vector<uint32_t>{3, 6, 9, 12, 15});
  CHECK_THROWS_WITH(d.launch("scale", "scale", Dim3{6}, Dim3{4}, KernelArgs().pointer(p).value(uint32_t(5))),
                    Contains("multiple of the local size"));
  CHECK_THROWS_WITH(d.launch("scale", "scale", Dim3{8}, Dim3{4}, KernelArgs().pointer(p + 4).value(uint32_t(5))),
                    Contains("argument 0") && Contains("not the base address"));
  CHECK_THROWS_WITH(d.launch("scale", "scale", Dim3{8}, Dim3{4}, KernelArgs().pointer(p)),
                    Contains("takes 2 arguments, 1 given"));
  CHECK_THROWS_WITH(d.launch("scale", "nope", Dim3{8}, Dim3{4}, KernelArgs()), Contains("has no kernel 'nope'"));
  CHECK_THROWS_WITH(d.launch("missing", "k", Dim3{8}, Dim3{4}, KernelArgs()), Contains("cannot read kernel source"));
}

TEST_CASE("pocl shows the build log of a kernel that does not compile", "[device]") {
  TempKernelDir dir;
  dir.add("broken.cl", "__kernel void broken(__global uint* v) { v[0] = undeclared_name; }\n");
  PoclDevice d(dir.path);
  CHECK_THROWS_WITH(d.launch("broken", "broken", Dim3{1}, Dim3{1}, KernelArgs()),
                    Contains("building") && Contains("broken.cl") && Contains("undeclared_name"));
}
