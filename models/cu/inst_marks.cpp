#include "models/cu/inst_marks.h"

#include <memory>
#include <stdexcept>

namespace tessera {

namespace {

std::vector<std::pair<std::string, InstMarker>>& markers() {
  static std::vector<std::pair<std::string, InstMarker>> all;
  return all;
}

}  // namespace

bool register_inst_marker(const std::string& name, InstMarker marker) {
  for (const auto& m : markers())
    if (m.first == name) throw std::logic_error("instruction marker '" + name + "' registered twice");
  markers().emplace_back(name, std::move(marker));
  return true;
}

const std::vector<std::pair<std::string, InstMarker>>& inst_markers() { return markers(); }

std::unique_ptr<InstMarks> compute_marks(isa::DecodeCache& program, const isa::KernelInfo& kernel) {
  if (markers().empty()) return nullptr;
  auto marks = std::make_unique<InstMarks>(program.code().text_address(), program.code().text().size());
  for (const auto& m : markers()) m.second(program, kernel, *marks);
  return marks;
}

}  // namespace tessera
