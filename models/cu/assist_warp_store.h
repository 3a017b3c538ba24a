// CABA's Assist Warp Store (docs/CABA.md, "Assist warps"): the routines an
// assist warp runs, written in gfx90a assembly under sw/assist/, assembled
// and linked at build time into one code object whose bytes are compiled in
// (kAssistWarpImage), loaded and decoded here by the CU's own decoder.
//
// The decompression routine (sw/assist/bdi_decompress.s) rebuilds a line from
// its BDI image (models/mem/bdi.h): live in, the image in v0 (dword l in lane
// l) and the line's size in s1; live out, line dword i in v2's lane i. The
// compression routine (sw/assist/bdi_compress.s) chooses a line's encoding:
// live in, line dword i in v0's lane i and the size in s1; live out, the
// encoding in s0 (it tests every encoding; it does not pack the image). This
// file also sets those registers up and reads the results back, and runs a
// routine to its end through the executor (what the tests use).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/inst_class.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/wave.h"
#include "models/mem/bdi.h"

namespace tessera {

extern const unsigned char kAssistWarpImage[];
extern const size_t kAssistWarpImageSize;

enum class AssistRoutine : uint8_t { Decompress, Compress, Count };
const char* assist_routine_name(AssistRoutine r);

class AssistWarpStore {
 public:
  // VGPRs and SGPRs an assist warp uses (a granule of VGPRs is reserved per wave).
  static constexpr unsigned kVgprs = 16;
  static constexpr unsigned kLiveOut = 2;  // v2: the rebuilt line

  explicit AssistWarpStore(const CuConfig& cfg);
  AssistWarpStore(const AssistWarpStore&) = delete;
  AssistWarpStore& operator=(const AssistWarpStore&) = delete;

  isa::DecodeCache& program() { return *decoded_; }
  ProgramInfo& info() { return *info_; }
  uint64_t entry(AssistRoutine r) const { return entries_[size_t(r)]; }

  // A wave of the assist warp's registers, set up to decompress `image` (a
  // bdi::compress image of a `line_bytes` line) from the routine's entry.
  void start_decompress(isa::Wave& w, const std::vector<uint8_t>& image, size_t line_bytes) const;
  // The line the decompression routine left in `w`'s registers.
  static std::vector<uint8_t> line_of(const isa::Wave& w, size_t line_bytes);
  // A wave set up to choose the encoding of `line` from the routine's entry.
  void start_compress(isa::Wave& w, const std::vector<uint8_t>& line) const;
  // The encoding the compression routine left in `w`'s registers.
  static bdi::Encoding encoding_of(const isa::Wave& w);

  // Runs the decompression routine on `image` through the executor to its
  // end; `instructions` receives how many it executed. Throws
  // std::runtime_error if the routine faults.
  std::vector<uint8_t> decompress(const std::vector<uint8_t>& image, size_t line_bytes, uint64_t* instructions = nullptr);
  // Runs the compression routine on `line` (at most 256 bytes) likewise.
  bdi::Encoding compress(const std::vector<uint8_t>& line, uint64_t* instructions = nullptr);

 private:
  std::unique_ptr<isa::CodeObject> code_;
  std::unique_ptr<isa::DecodeCache> decoded_;
  std::unique_ptr<ProgramInfo> info_;
  void run(isa::Wave& w, AssistRoutine r, uint64_t* instructions);

  uint64_t entries_[size_t(AssistRoutine::Count)] = {};
};

}  // namespace tessera
