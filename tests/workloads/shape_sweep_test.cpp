// The DARSIE study's image workloads (docs/DARSIE.md): every workload of the
// shape sweep launches the workgroup shape its name says over a grid that
// covers its image, DARSIE's launch rule allows CR skipping in exactly the
// 2D power-of-two shapes of the sweep, and the kernels keep their x-only work
// conditionally redundant (no bounds branch on y).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/isa/code_object.h"
#include "platform/functional_device.h"
#include "sw/workloads/image2d.h"

using namespace tessera::workloads;
namespace analysis = tessera::analysis;
namespace isa = tessera::isa;

namespace {

const std::string kKernels = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";

struct SweepLaunch {
  std::string kernel;
  Dim3 global, local;
};

// Runs everything on the functional executor and keeps each launch's sizes.
class ShapeRecorder : public Device {
 public:
  std::string name() const override { return "recording"; }
  DevicePtr alloc(size_t bytes) override { return inner_.alloc(bytes); }
  void free(DevicePtr p) override { inner_.free(p); }
  void write(DevicePtr dst, const void* src, size_t bytes) override { inner_.write(dst, src, bytes); }
  void read(void* dst, DevicePtr src, size_t bytes) override { inner_.read(dst, src, bytes); }
  LaunchStats launch(const std::string& program, const std::string& kernel, Dim3 global, Dim3 local,
                     const KernelArgs& args) override {
    launches.push_back({kernel, global, local});
    return inner_.launch(program, kernel, global, local, args);
  }
  std::vector<SweepLaunch> launches;

 private:
  tessera::FunctionalDevice inner_{kKernels};
};

std::string sweep_name(const std::string& base, const GroupShape& shape) {
  return shape.x == 16 && shape.y == 16 ? base : base + "_" + shape.name();
}

size_t count_marks(const std::string& program, analysis::Darsie mark) {
  const isa::CodeObject object = isa::CodeObject::load_file(kKernels + "/" + program + ".hsaco");
  const isa::KernelInfo* kernel = object.find_kernel(program);
  REQUIRE(kernel);
  const analysis::KernelMarks marks = analysis::analyze(analysis::kernel_code(object, *kernel), kernel->descriptor);
  REQUIRE(marks.unanalysed.empty());
  size_t n = 0;
  for (const analysis::InstructionMark& m : marks.marks) n += m.darsie == mark;
  return n;
}

}  // namespace

TEST_CASE("the shape sweep is 16x16, 256x1, 32x8, 8x32 and 24x8", "[workload][darsie]") {
  std::vector<std::string> shapes;
  for (const GroupShape& s : shape_sweep()) shapes.push_back(s.name());
  CHECK(shapes == std::vector<std::string>{"16x16", "256x1", "32x8", "8x32", "24x8"});
}

TEST_CASE("each shape-sweep workload launches the shape its name says over its whole image", "[workload][darsie]") {
  for (const char* base : {"sobel", "xaddr2d"})
    for (const GroupShape& shape : shape_sweep()) {
      const std::string name = sweep_name(base, shape);
      INFO(name);
      const Workload* w = find_workload(name);
      REQUIRE(w);
      ShapeRecorder device;
      const size_t size = 21;  // a 24 or 26 x 21 image: a partial workgroup in every shape
      const Result r = w->run(device, size, 7);
      INFO(r.message);
      CHECK(r.passed);
      REQUIRE(device.launches.size() == 1);
      const SweepLaunch& l = device.launches[0];
      CHECK(l.kernel == base);
      CHECK(l.local.x == shape.x);
      CHECK(l.local.y == shape.y);
      CHECK(l.global.x % shape.x == 0);
      CHECK(l.global.y % shape.y == 0);
      CHECK(l.global.x >= size + 3);
      CHECK(l.global.y >= size);
      CHECK(l.global.x < size + 5 + shape.x);
      CHECK(l.global.y < size + shape.y);
    }
}

TEST_CASE("the launch rule allows CR skipping in 16x16, 32x8 and 8x32 only", "[workload][darsie]") {
  for (const GroupShape& shape : shape_sweep()) {
    INFO(shape.name());
    const bool expected = shape.name() == "16x16" || shape.name() == "32x8" || shape.name() == "8x32";
    CHECK(analysis::cr_skippable({shape.x, shape.y, 1}) == expected);
  }
}

TEST_CASE("the image kernels' x-only work is conditionally redundant", "[workload][darsie]") {
  // Without a bounds branch on y, the clamped column indices stay CR; xaddr2d's
  // four modulo computations (about ten vector instructions each) are CR too.
  CHECK(count_marks("gaussian_blur", analysis::Darsie::CR) >= 5);
  CHECK(count_marks("sobel", analysis::Darsie::CR) >= 3);
  CHECK(count_marks("xaddr2d", analysis::Darsie::CR) >= 32);
}
