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

AssistWarpStore::AssistWarpStore(const CuConfig& cfg)
    : code_(std::make_unique<isa::CodeObject>(isa::CodeObject::load(
          std::vector<uint8_t>(kAssistWarpImage, kAssistWarpImage + kAssistWarpImageSize), "the Assist Warp Store"))),
      decoded_(std::make_unique<isa::DecodeCache>(*code_)),
      info_(std::make_unique<ProgramInfo>(*decoded_, cfg)) {
  const char* names[] = {"bdi_decompress", "bdi_compress"};
  for (size_t r = 0; r < size_t(AssistRoutine::Count); ++r) {
    const isa::KernelInfo* k = code_->find_kernel(names[r]);
    if (!k) throw std::logic_error(std::string("the Assist Warp Store has no routine ") + names[r]);
    entries_[r] = k->entry_address;
  }
}

void AssistWarpStore::start_decompress(isa::Wave& w, const std::vector<uint8_t>& image, size_t line_bytes) const {
  w.reset();
  uint32_t* v0 = w.v(0);
  for (size_t b = 0; b < image.size() && b < 4 * isa::kWaveSize; ++b)
    v0[b / 4] |= uint32_t{image[b]} << (8 * (b % 4));
  w.s(1) = static_cast<uint32_t>(line_bytes);
  // The lanes of the line's dwords and of the image's (ds_bpermute reads
  // inactive lanes as 0), and the one after the image's last dword.
  const size_t lanes = std::min<size_t>(isa::kWaveSize, std::max(line_bytes / 4, image.size() / 4 + 2));
  w.set_exec(lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
  w.pc = entry(AssistRoutine::Decompress);
}

std::vector<uint8_t> AssistWarpStore::line_of(const isa::Wave& w, size_t line_bytes) {
  std::vector<uint8_t> line(line_bytes);
  const uint32_t* v = w.v(kLiveOut);
  for (size_t b = 0; b < line_bytes; ++b) line[b] = static_cast<uint8_t>(v[b / 4] >> (8 * (b % 4)));
  return line;
}

void AssistWarpStore::start_compress(isa::Wave& w, const std::vector<uint8_t>& line) const {
  w.reset();
  uint32_t* v0 = w.v(0);
  for (size_t b = 0; b < line.size() && b < 4 * isa::kWaveSize; ++b) v0[b / 4] |= uint32_t{line[b]} << (8 * (b % 4));
  w.s(1) = static_cast<uint32_t>(line.size());
  const size_t lanes = std::min<size_t>(isa::kWaveSize, line.size() / 4);
  w.set_exec(lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
  w.pc = entry(AssistRoutine::Compress);
}

bdi::Encoding AssistWarpStore::encoding_of(const isa::Wave& w) {
  const uint32_t e = w.s(0);
  return e < bdi::kEncodingCount ? bdi::Encoding(e) : bdi::Encoding::uncompressed;
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
  return line_of(w, line_bytes);
}

bdi::Encoding AssistWarpStore::compress(const std::vector<uint8_t>& line, uint64_t* instructions) {
  if (line.size() > 4 * isa::kWaveSize || line.size() % 8) throw std::invalid_argument("an assist warp compresses lines of 8 to 256 bytes");
  isa::Wave w(kVgprs, 0);
  start_compress(w, line);
  run(w, AssistRoutine::Compress, instructions);
  return encoding_of(w);
}

}  // namespace tessera
