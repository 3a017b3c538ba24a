// HmgHomes: the L2 slices of every chiplet that run coherence "hmg" and the
// directory of each home chiplet, over one platform (a SharedObjects entry).
// A slice joins at construction with its chiplet and the directory's shape;
// the slices of one platform must agree on the shape and on the home
// interleave (an error names the slice that does not).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cache/hmg_directory.h"
#include "platform/errors.h"

namespace tessera {

class Cache;

class HmgHomes {
 public:
  void join(Cache* slice, unsigned chiplet, const HmgDirectoryShape& shape, uint64_t home_interleave,
            const std::string& who) {
    if (chiplet >= 64) throw UserError(who + ": coherence \"hmg\" tracks at most 64 chiplets, not chiplet " +
                                       std::to_string(chiplet));
    if (home_interleave % (uint64_t{shape.lines_per_entry} * shape.line_size) != 0)
      throw UserError(who + ": hmg_home_interleave " + std::to_string(home_interleave) +
                      " bytes is not a multiple of a directory entry's region (hmg_lines_per_entry x line_size = " +
                      std::to_string(uint64_t{shape.lines_per_entry} * shape.line_size) + " bytes)");
    if (chiplets_.empty()) {
      shape_ = shape;
      interleave_ = home_interleave;
    } else if (shape.entries != shape_.entries || shape.ways != shape_.ways ||
               shape.lines_per_entry != shape_.lines_per_entry || shape.line_size != shape_.line_size ||
               home_interleave != interleave_) {
      throw UserError(who + ": its hmg directory parameters, line size or hmg_home_interleave differ from those of "
                      "the other L2 slices with coherence \"hmg\"; they must be the same everywhere");
    }
    while (chiplets_.size() <= chiplet) {
      chiplets_.emplace_back();
      chiplets_.back().directory = std::make_unique<HmgDirectory>(shape_, who);
    }
    chiplets_[chiplet].slices.push_back(slice);
  }
  unsigned chiplets() const { return static_cast<unsigned>(chiplets_.size()); }
  unsigned home_of(uint64_t addr) const { return static_cast<unsigned>((addr / interleave_) % chiplets_.size()); }
  // The address within its home's memory, which the home's directory is
  // indexed by (a home sees only every chiplets()-th chunk: indexed by the
  // global address, its sets would be used one in chiplets()), and back.
  uint64_t local_of(uint64_t addr) const {
    const uint64_t stride = interleave_ * chiplets_.size();
    return addr / stride * interleave_ + addr % interleave_;
  }
  uint64_t global_of(uint64_t local, unsigned home) const {
    return local / interleave_ * interleave_ * chiplets_.size() + uint64_t{home} * interleave_ + local % interleave_;
  }
  HmgDirectory& directory(unsigned home) { return *chiplets_[home].directory; }
  const std::vector<Cache*>& slices(unsigned chiplet) const { return chiplets_[chiplet].slices; }

 private:
  struct Chiplet {
    std::vector<Cache*> slices;
    std::unique_ptr<HmgDirectory> directory;
  };
  std::vector<Chiplet> chiplets_;
  HmgDirectoryShape shape_;
  uint64_t interleave_ = 4096;
};

}  // namespace tessera
