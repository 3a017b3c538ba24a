#include "models/cu/isa/code_loader.h"

#include <algorithm>
#include <cstring>

#include "models/cu/isa/hex.h"

namespace tessera::isa {

namespace {

// R_AMDGPU_* numbers (AMDGPUUsage, "Relocation Records").
enum : uint32_t {
  kRelNone = 0,
  kRelAbs32Lo = 1,
  kRelAbs32Hi = 2,
  kRelAbs64 = 3,
  kRelAbs32 = 6,
  kRelRelative64 = 13,
};

// What a relocation writes and how wide the field is: S is the symbol's
// device address (0 for none), A the addend, B the load base `b`.
struct Patch {
  uint64_t value;
  unsigned bytes;
};

Patch patch_for(const CodeObject& code, const Relocation& r, uint64_t b) {
  const std::string where = code.name() + ": relocation at " + hex(r.offset);
  if (r.has_symbol && !r.symbol_defined)
    throw CodeObjectError(where + " names symbol '" + r.symbol +
                          "', which this code object does not define (nothing else is loaded to take it from)");
  const uint64_t s = r.has_symbol ? b + r.symbol_value : 0;
  const uint64_t sa = s + static_cast<uint64_t>(r.addend);
  switch (r.type) {
    case kRelNone: return {0, 0};
    case kRelAbs32Lo: return {sa & 0xffffffffu, 4};
    case kRelAbs32Hi: return {sa >> 32, 4};
    case kRelAbs64: return {sa, 8};
    case kRelAbs32: return {sa & 0xffffffffu, 4};
    case kRelRelative64: return {b + static_cast<uint64_t>(r.addend), 8};
    default:
      throw CodeObjectError(where + " has type " + std::to_string(r.type) +
                            ", which is not a dynamic relocation (expected R_AMDGPU_ABS32_LO/HI, ABS32, ABS64 or "
                            "RELATIVE64)");
  }
}

}  // namespace

std::vector<uint8_t> relocated_image(const CodeObject& code, uint64_t base) {
  std::vector<uint8_t> image(code.image_size(), 0);
  for (const Segment& s : code.segments())
    std::copy(s.bytes.begin(), s.bytes.end(), image.begin() + static_cast<std::ptrdiff_t>(s.vaddr));
  for (const Relocation& r : code.relocations()) {
    const Patch p = patch_for(code, r, base);
    if (p.bytes == 0) continue;
    if (r.offset > image.size() || image.size() - r.offset < p.bytes)
      throw CodeObjectError(code.name() + ": relocation at " + hex(r.offset) + " lies outside the loaded segments");
    std::memcpy(image.data() + r.offset, &p.value, p.bytes);  // little-endian host and target
  }
  return image;
}

LoadedCode::LoadedCode(DeviceMemory& memory, const CodeObject& code)
    : image_(memory, std::max<uint64_t>(code.image_size(), 1)) {
  const std::vector<uint8_t> image = relocated_image(code, image_.address());
  if (!image.empty()) memory.write(image_.address(), image.data(), image.size());
}

}  // namespace tessera::isa
