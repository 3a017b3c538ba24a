#include "models/cu/assist_warp_store.h"

#include <algorithm>
#include <stdexcept>

#include "models/cu/isa/wave_runner.h"

namespace tessera {

const char* assist_routine_name(AssistRoutine r) {
  switch (r) {
    case AssistRoutine::Decompress: return "decompress";
    case AssistRoutine::Compress: return "compress";
    case AssistRoutine::Count: break;
  }
  return "?";
}

namespace {

uint64_t lanes_mask(size_t lanes) { return lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1; }

// The width in bytes of a line's values under `e` (8 for zeros and repeated,
// whose routines write 8-byte values).
unsigned value_bytes(bdi::Encoding e) { return bdi::base_bytes(e) ? bdi::base_bytes(e) : 8; }

const isa::KernelInfo& routine(const isa::CodeObject& code, const std::string& name) {
  const isa::KernelInfo* k = code.find_kernel(name);
  if (!k) throw std::logic_error("the Assist Warp Store has no routine " + name);
  return *k;
}

}  // namespace

AssistWarpStore::AssistWarpStore(const CuConfig& cfg)
    : code_(std::make_unique<isa::CodeObject>(isa::CodeObject::load(
          std::vector<uint8_t>(kAssistWarpImage, kAssistWarpImage + kAssistWarpImageSize), "the Assist Warp Store"))),
      decoded_(std::make_unique<isa::DecodeCache>(*code_)),
      info_(std::make_unique<ProgramInfo>(*decoded_, cfg)) {
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    const bdi::Encoding enc = bdi::Encoding(e);
    if (enc == bdi::Encoding::uncompressed) {
      compress_[e] = routine(*code_, "bdi_compress").entry_address;
      continue;
    }
    decompress_[e] = routine(*code_, std::string("bdi_decompress_") + bdi::name(enc)).entry_address;
    compress_[e] = routine(*code_, std::string("bdi_compress_") + bdi::name(enc)).entry_address;
  }
}

// The registers as the routine's loads of the image leave them: the base in
// s[2:3], the base mask in s[4:7], delta j sign-extended in lane j of v2 (of
// v3 from value 64 on).
void AssistWarpStore::start_decompress(isa::Wave& w, const std::vector<uint8_t>& image, size_t line_bytes) const {
  if (image.empty() || image.size() >= line_bytes || image[0] >= unsigned(bdi::Encoding::uncompressed))
    throw std::invalid_argument("an assist warp decompresses only a compressed line's image");
  const bdi::Encoding e = bdi::Encoding(image[0]);
  if (image.size() != bdi::stored_bytes(e, line_bytes))
    throw std::invalid_argument(std::string("a ") + bdi::name(e) + " image of " + std::to_string(image.size()) +
                                " bytes for a line of " + std::to_string(line_bytes));
  w.reset();
  const size_t n = line_bytes / value_bytes(e);
  if (e == bdi::Encoding::repeated) {
    const uint64_t v = bdi::load_le(&image[1], 8);
    w.s(2) = static_cast<uint32_t>(v);
    w.s(3) = static_cast<uint32_t>(v >> 32);
  } else if (e != bdi::Encoding::zeros) {
    const unsigned k = bdi::base_bytes(e), d = bdi::delta_bytes(e);
    const size_t mask_bytes = (n + 7) / 8, base_at = 1 + mask_bytes, deltas_at = base_at + k;
    const uint64_t base = bdi::load_le(&image[base_at], k);
    w.s(2) = static_cast<uint32_t>(base);
    w.s(3) = static_cast<uint32_t>(base >> 32);
    uint64_t mask[2] = {};
    for (size_t j = 0; j < n; ++j) {
      if (image[1 + j / 8] >> (j % 8) & 1) mask[j / 64] |= uint64_t{1} << (j % 64);
      // the load's sign extension of a d-byte delta (d <= 4) to 32 bits
      const int64_t delta = bdi::sign_extend(bdi::load_le(&image[deltas_at + j * d], d), d);
      w.v(2 + j / 64)[j % 64] = static_cast<uint32_t>(delta);
    }
    for (unsigned h = 0; h < 2; ++h) {
      w.s(4 + 2 * h) = static_cast<uint32_t>(mask[h]);
      w.s(5 + 2 * h) = static_cast<uint32_t>(mask[h] >> 32);
    }
  }
  w.set_exec(lanes_mask(n));
  w.pc = decompress_entry(e);
}

std::vector<uint8_t> AssistWarpStore::line_of(const isa::Wave& w, size_t line_bytes, bdi::Encoding e) {
  const unsigned k = value_bytes(e);
  std::vector<uint8_t> line(line_bytes);
  for (size_t j = 0; j < line_bytes / k; ++j) {
    const uint64_t v = k == 8 ? uint64_t{w.v(2)[j]} | uint64_t{w.v(3)[j]} << 32 : w.v(2 + j / 64)[j % 64];
    for (unsigned b = 0; b < k; ++b) line[j * k + b] = static_cast<uint8_t>(v >> (8 * b));
  }
  return line;
}

void AssistWarpStore::start_compress(isa::Wave& w, const std::vector<uint8_t>& line, bdi::Encoding first) const {
  w.reset();
  uint32_t* v0 = w.v(0);
  for (size_t b = 0; b < line.size() && b < 4 * isa::kWaveSize; ++b) v0[b / 4] |= uint32_t{line[b]} << (8 * (b % 4));
  w.s(1) = static_cast<uint32_t>(line.size());
  w.set_exec(lanes_mask(std::min<size_t>(isa::kWaveSize, line.size() / 4)));
  w.pc = compress_entry(first);
}

bdi::Encoding AssistWarpStore::encoding_of(const isa::Wave& w) {
  const uint32_t e = w.s(0);
  return e < bdi::kEncodingCount ? bdi::Encoding(e) : bdi::Encoding::uncompressed;
}

bdi::Encoding AssistWarpStore::expected_choice(const std::vector<uint8_t>& line, bdi::Encoding first) {
  if (first != bdi::Encoding::uncompressed && bdi::stored_bytes(first, line.size()) < line.size() &&
      bdi::fits(first, line.data(), line.size()))
    return first;
  return bdi::compress(line).encoding;
}

void AssistWarpStore::run(isa::Wave& w, AssistRoutine r, uint64_t* instructions) {
  isa::FaultSite site;
  uint64_t n = 0;
  while (w.running()) n += isa::run_wave(*decoded_, w, 1024, site);
  if (w.status() == isa::WaveStatus::Faulted)
    throw std::runtime_error(std::string("the ") + assist_routine_name(r) + " assist warp faulted at " +
                             std::to_string(site.pc) + ": " + w.fault_message());
  if (instructions) *instructions = n;
}

std::vector<uint8_t> AssistWarpStore::decompress(const std::vector<uint8_t>& image, size_t line_bytes,
                                                 uint64_t* instructions) {
  if (line_bytes > 4 * isa::kWaveSize) throw std::invalid_argument("an assist warp rebuilds lines of at most 256 bytes");
  isa::Wave w(kVgprs, 0);
  start_decompress(w, image, line_bytes);
  run(w, AssistRoutine::Decompress, instructions);
  return line_of(w, line_bytes, bdi::Encoding(image[0]));
}

bdi::Encoding AssistWarpStore::compress(const std::vector<uint8_t>& line, bdi::Encoding first, uint64_t* instructions) {
  if (line.size() > 4 * isa::kWaveSize || line.size() % 8 || line.empty())
    throw std::invalid_argument("an assist warp compresses lines of 8 to 256 bytes");
  isa::Wave w(kVgprs, 0);
  start_compress(w, line, first);
  run(w, AssistRoutine::Compress, instructions);
  return encoding_of(w);
}

}  // namespace tessera
