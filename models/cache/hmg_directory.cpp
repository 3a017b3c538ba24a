#include "models/cache/hmg_directory.h"

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

HmgDirectory::HmgDirectory(const HmgDirectoryShape& shape, const std::string& who) : shape_(shape) {
  if (shape.entries == 0 || shape.ways == 0 || shape.entries % shape.ways != 0)
    throw UserError(who + ": hmg_directory_entries " + std::to_string(shape.entries) +
                    " is not a non-zero multiple of hmg_directory_ways (" + std::to_string(shape.ways) + ")");
  if (!is_power_of_two(shape.lines_per_entry))
    throw UserError(who + ": hmg_lines_per_entry " + std::to_string(shape.lines_per_entry) +
                    " is not a power of two");
  if (!is_power_of_two(shape.line_size))
    throw UserError(who + ": the directory's line size " + std::to_string(shape.line_size) +
                    " bytes is not a power of two");
  region_bytes_ = uint64_t{shape.lines_per_entry} * shape.line_size;
  sets_ = shape.entries / shape.ways;
  entries_.resize(shape.entries);
}

int HmgDirectory::find(uint64_t region) const {
  const uint64_t base = set_of(region) * shape_.ways;
  for (unsigned w = 0; w < shape_.ways; ++w) {
    const Entry& e = entries_[base + w];
    if (e.sharers != 0 && e.region == region) return static_cast<int>(base + w);
  }
  return -1;
}

HmgDirectory::Eviction HmgDirectory::add_sharer(uint64_t addr, unsigned chiplet) {
  const uint64_t region = region_of(addr);
  Eviction out;
  int idx = find(region);
  if (idx >= 0) {
    ++hits;
  } else {
    ++misses;
    // A free way first, else the least recently used entry, whose sharers lose the region.
    const uint64_t base = set_of(region) * shape_.ways;
    idx = static_cast<int>(base);
    for (unsigned w = 0; w < shape_.ways; ++w) {
      const Entry& e = entries_[base + w];
      if (e.sharers == 0) {
        idx = static_cast<int>(base + w);
        break;
      }
      if (e.last_use < entries_[static_cast<size_t>(idx)].last_use) idx = static_cast<int>(base + w);
    }
    Entry& victim = entries_[static_cast<size_t>(idx)];
    if (victim.sharers != 0) {
      ++evictions;
      out = {true, victim.region, victim.sharers};
    }
    victim.region = region;
    victim.sharers = 0;
  }
  Entry& e = entries_[static_cast<size_t>(idx)];
  e.sharers |= uint64_t{1} << chiplet;
  e.last_use = ++clock_;
  return out;
}

uint64_t HmgDirectory::sharers_of(uint64_t addr) {
  const int idx = find(region_of(addr));
  if (idx < 0) {
    ++misses;
    return 0;
  }
  ++hits;
  return entries_[static_cast<size_t>(idx)].sharers;
}

uint64_t HmgDirectory::valid_entries() const {
  uint64_t n = 0;
  for (const Entry& e : entries_) n += e.sharers != 0;
  return n;
}

}  // namespace tessera
