// CABA's Assist Warp Store (docs/CABA.md, "Assist warps"): the routines an
// assist warp runs, written in gfx90a assembly under sw/assist/, assembled
// and linked at build time into one code object whose bytes are compiled in
// (kAssistWarpImage), loaded and decoded here by the CU's own decoder.
//
// The decompression routines (sw/assist/bdi_decompress.s), one per encoding,
// are the paper's Algorithm 1: the base and the deltas are loaded into the
// registers in the width of the encoding (start_decompress reads them from
// the line's real image, as those loads would), and one masked vector add
// rebuilds the values (value j in lane j: v2, v[2:3] for 8-byte values). The
// compression routines (sw/assist/bdi_compress.s) choose a line's encoding
// (Algorithm 2): live in, line dword i in v0's lane i and the size in s1;
// live out, the encoding in s0. bdi_compress tests every encoding;
// bdi_compress_<encoding> tests that one first and keeps it when it fits (it
// does not pack the image). This file also sets those registers up and reads
// the results back, and runs a routine to its end through the executor (what
// the tests use).
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

  explicit AssistWarpStore(const CuConfig& cfg);
  AssistWarpStore(const AssistWarpStore&) = delete;
  AssistWarpStore& operator=(const AssistWarpStore&) = delete;

  isa::DecodeCache& program() { return *decoded_; }
  ProgramInfo& info() { return *info_; }
  // The entry of encoding e's decompression routine, of the compression
  // routine testing e first (uncompressed: the full test).
  uint64_t decompress_entry(bdi::Encoding e) const { return decompress_[size_t(e)]; }
  uint64_t compress_entry(bdi::Encoding e) const { return compress_[size_t(e)]; }

  // A wave of the assist warp's registers, set up to decompress `image` (a
  // bdi::compress image of a `line_bytes` line) from the entry of its
  // encoding's routine. Throws std::invalid_argument for an uncompressed
  // image or one of the wrong length.
  void start_decompress(isa::Wave& w, const std::vector<uint8_t>& image, size_t line_bytes) const;
  // The line the decompression routine of `e` left in `w`'s registers.
  static std::vector<uint8_t> line_of(const isa::Wave& w, size_t line_bytes, bdi::Encoding e);
  // A wave set up to choose the encoding of `line`, testing `first` first
  // (uncompressed: every encoding at once).
  void start_compress(isa::Wave& w, const std::vector<uint8_t>& line, bdi::Encoding first) const;
  // The encoding the compression routine left in `w`'s registers.
  static bdi::Encoding encoding_of(const isa::Wave& w);
  // The encoding the compression routine must choose for `line` when it
  // tests `first` first: `first` when the line fits it in an image smaller
  // than the line, otherwise bdi::compress's.
  static bdi::Encoding expected_choice(const std::vector<uint8_t>& line, bdi::Encoding first);

  // Runs the decompression routine of the image's encoding on `image`
  // through the executor to its end; `instructions` receives how many it
  // executed. Throws std::runtime_error if the routine faults.
  std::vector<uint8_t> decompress(const std::vector<uint8_t>& image, size_t line_bytes, uint64_t* instructions = nullptr);
  // Runs the compression routine on `line` (8 to 256 bytes) likewise,
  // testing `first` first.
  bdi::Encoding compress(const std::vector<uint8_t>& line, bdi::Encoding first = bdi::Encoding::uncompressed,
                         uint64_t* instructions = nullptr);

 private:
  std::unique_ptr<isa::CodeObject> code_;
  std::unique_ptr<isa::DecodeCache> decoded_;
  std::unique_ptr<ProgramInfo> info_;
  void run(isa::Wave& w, AssistRoutine r, uint64_t* instructions);

  uint64_t decompress_[bdi::kEncodingCount] = {};  // none for uncompressed
  uint64_t compress_[bdi::kEncodingCount] = {};
};

}  // namespace tessera
