// Static per-kernel instruction marks: bits a kernel analysis sets on
// instructions before they run (e.g. "redundant across the waves of a
// workgroup", "a multicast candidate LDS read"), read by mechanisms at issue.
//
// Markers are functions registered once per process (register_inst_marker,
// typically from a static initialiser, as blocks register their types).
// A compute unit computes a kernel's table the first time it launches a
// workgroup of that kernel (per CU and code object: its table of
// instruction information is where the marks are kept) by running every
// marker over the code object; with no marker registered there is no table.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"

namespace tessera {

// One table per kernel, indexed by instruction (its dword offset in .text).
class InstMarks {
 public:
  InstMarks(uint64_t text_address, size_t text_bytes) : text_(text_address), bits_(text_bytes / 4, 0) {}
  uint32_t at(uint64_t pc) const {
    const uint64_t i = (pc - text_) >> 2;
    return pc >= text_ && i < bits_.size() ? bits_[i] : 0;
  }
  void set(uint64_t pc, uint32_t bits) {
    const uint64_t i = (pc - text_) >> 2;
    if (pc >= text_ && i < bits_.size()) bits_[i] |= bits;
  }
  size_t size() const { return bits_.size(); }

 private:
  uint64_t text_;
  std::vector<uint32_t> bits_;
};

// A marker: sets bits in `marks` for kernel `kernel` of `program`.
using InstMarker = std::function<void(isa::DecodeCache& program, const isa::KernelInfo& kernel, InstMarks& marks)>;

// Registers a marker under a name (a name registered twice is an error).
// Returns true, so that a static initialiser can call it.
bool register_inst_marker(const std::string& name, InstMarker marker);
// The markers, in registration order.
const std::vector<std::pair<std::string, InstMarker>>& inst_markers();

// The marks of `kernel`, made by every registered marker; an empty pointer
// when no marker is registered.
std::unique_ptr<InstMarks> compute_marks(isa::DecodeCache& program, const isa::KernelInfo& kernel);

}  // namespace tessera
