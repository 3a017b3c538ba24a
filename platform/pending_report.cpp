#include "platform/pending_report.h"

#include <vector>

#include "platform/block.h"
#include "platform/platform.h"

namespace tessera {

std::string pending_report(const Platform& platform, size_t per_block, size_t max_lines) {
  std::string out;
  size_t shown = 0, left_out = 0;
  for (const auto& b : platform.blocks()) {
    std::vector<std::string> lines;
    b->describe_pending(lines);
    size_t i = 0;
    for (; i < lines.size() && i < per_block && shown < max_lines; ++i, ++shown) out += "\n  " + lines[i];
    if (i < lines.size() && i == per_block && shown < max_lines) {
      out += "\n  " + b->path() + ": ... and " + std::to_string(lines.size() - i) + " more";
      ++shown;
    } else {
      left_out += lines.size() - i;
    }
  }
  if (out.empty()) return "";
  if (left_out) out += "\n  ... and " + std::to_string(left_out) + " more lines";
  return "\nstill in hand:" + out;
}

}  // namespace tessera
