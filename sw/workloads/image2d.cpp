#include "sw/workloads/image2d.h"

#include "sw/workloads/rng.h"

namespace tessera::workloads {

const std::vector<GroupShape>& shape_sweep() {
  static const std::vector<GroupShape> shapes{{16, 16}, {256, 1}, {32, 8}, {8, 32}, {24, 8}};
  return shapes;
}

ImageGrid::ImageGrid(size_t image_width, size_t image_height, GroupShape group)
    : width(uint32_t(image_width)),
      height(uint32_t(image_height)),
      pitch(round_up(image_width, group.x)),
      rows(round_up(image_height, group.y)),
      shape(group) {}

std::string ImageGrid::describe() const {
  return std::to_string(width) + "x" + std::to_string(height) + " image, " + shape.name() + " workgroups";
}

std::vector<uint32_t> random_pixels(size_t count, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> pixels(count);
  for (auto& p : pixels) p = rng.below(256);
  return pixels;
}

void register_shape_sweep(const std::string& name, const std::string& doc, size_t default_size,
                          const std::vector<size_t>& test_sizes, const ShapedRun& run) {
  bool first = true;
  for (const GroupShape& shape : shape_sweep()) {
    register_workload({first ? name : name + "_" + shape.name(), doc + "; " + shape.name() + " workgroups",
                       default_size, test_sizes,
                       [run, shape](Device& device, size_t size, uint64_t seed) {
                         return run(device, size, seed, shape);
                       }});
    first = false;
  }
}

}  // namespace tessera::workloads
