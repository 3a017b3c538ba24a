#include "models/mem/bdi.h"

#include <stdexcept>

namespace tessera::bdi {

uint64_t load_le(const uint8_t* p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

int64_t sign_extend(uint64_t v, unsigned bytes) {
  const unsigned shift = 64 - 8 * bytes;
  return static_cast<int64_t>(v << shift) >> shift;
}

namespace {

constexpr Encoding kBaseDelta[] = {Encoding::base8_delta1, Encoding::base8_delta2, Encoding::base8_delta4,
                                   Encoding::base4_delta1, Encoding::base4_delta2, Encoding::base2_delta1};

void check_line_bytes(size_t line_bytes) {
  if (line_bytes < 8 || line_bytes > 1024 || line_bytes % 8 != 0)
    throw std::invalid_argument("BDI: a line must be a multiple of 8 bytes between 8 and 1024, not " +
                                std::to_string(line_bytes));
}

bool is_base_delta(Encoding e) { return base_bytes(e) != 0; }

void store(uint8_t* p, uint64_t v, unsigned bytes) {
  for (unsigned i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t low_mask(unsigned bytes) { return bytes >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1; }

// Whether the k-byte value `v` (as a signed k-byte number) fits a signed d-byte delta.
bool fits_signed(uint64_t v, unsigned k, unsigned d) {
  const int64_t s = sign_extend(v, k);
  const int64_t limit = int64_t{1} << (8 * d - 1);
  return s >= -limit && s < limit;
}

// A line's values of k bytes, split between the zero base and one explicit base.
struct Split {
  bool ok = false;
  uint64_t base = 0;
  std::vector<bool> uses_base;
};

// The explicit base is the first value that is not an immediate (fits the
// zero base); every other value must be an immediate or near that base.
Split split(const uint8_t* line, size_t line_bytes, unsigned k, unsigned d) {
  const size_t n = line_bytes / k;
  Split s;
  s.uses_base.assign(n, false);
  bool have_base = false;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t v = load_le(line + i * k, k);
    if (fits_signed(v, k, d)) continue;
    if (!have_base) {
      s.base = v;
      have_base = true;
    }
    if (!fits_signed((v - s.base) & low_mask(k), k, d)) return s;
    s.uses_base[i] = true;
  }
  if (!have_base) s.base = load_le(line, k);  // all immediates: the base is unused
  s.ok = true;
  return s;
}

bool all_zero(const uint8_t* line, size_t line_bytes) {
  for (size_t i = 0; i < line_bytes; ++i)
    if (line[i] != 0) return false;
  return true;
}

bool all_repeated(const uint8_t* line, size_t line_bytes) {
  const uint64_t first = load_le(line, 8);
  for (size_t i = 8; i < line_bytes; i += 8)
    if (load_le(line + i, 8) != first) return false;
  return true;
}

size_t mask_bytes(Encoding e, size_t line_bytes) { return (line_bytes / base_bytes(e) + 7) / 8; }

std::vector<uint8_t> encode_base_delta(Encoding e, const Split& s, const uint8_t* line, size_t line_bytes) {
  const unsigned k = base_bytes(e), d = delta_bytes(e);
  const size_t n = line_bytes / k, mask = mask_bytes(e, line_bytes);
  std::vector<uint8_t> image(stored_bytes(e, line_bytes), 0);
  image[0] = static_cast<uint8_t>(e);
  uint8_t* deltas = image.data() + 1 + mask + k;
  store(image.data() + 1 + mask, s.base, k);
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = load_le(line + i * k, k);
    if (s.uses_base[i]) {
      image[1 + i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      v -= s.base;
    }
    store(deltas + i * d, v, d);
  }
  return image;
}

void decode_base_delta(Encoding e, const uint8_t* image, uint8_t* line, size_t line_bytes) {
  const unsigned k = base_bytes(e), d = delta_bytes(e);
  const size_t n = line_bytes / k, mask = mask_bytes(e, line_bytes);
  const uint64_t base = load_le(image + 1 + mask, k);
  const uint8_t* deltas = image + 1 + mask + k;
  for (size_t i = 0; i < n; ++i) {
    uint64_t v = static_cast<uint64_t>(sign_extend(load_le(deltas + i * d, d), d));
    if (image[1 + i / 8] & (1u << (i % 8))) v += base;
    store(line + i * k, v & low_mask(k), k);
  }
}

}  // namespace

const char* name(Encoding e) {
  switch (e) {
    case Encoding::zeros: return "zeros";
    case Encoding::repeated: return "repeated";
    case Encoding::base8_delta1: return "b8d1";
    case Encoding::base8_delta2: return "b8d2";
    case Encoding::base8_delta4: return "b8d4";
    case Encoding::base4_delta1: return "b4d1";
    case Encoding::base4_delta2: return "b4d2";
    case Encoding::base2_delta1: return "b2d1";
    case Encoding::uncompressed: return "uncompressed";
  }
  return "?";
}

unsigned base_bytes(Encoding e) {
  switch (e) {
    case Encoding::base8_delta1: case Encoding::base8_delta2: case Encoding::base8_delta4: return 8;
    case Encoding::base4_delta1: case Encoding::base4_delta2: return 4;
    case Encoding::base2_delta1: return 2;
    default: return 0;
  }
}

unsigned delta_bytes(Encoding e) {
  switch (e) {
    case Encoding::base8_delta1: case Encoding::base4_delta1: case Encoding::base2_delta1: return 1;
    case Encoding::base8_delta2: case Encoding::base4_delta2: return 2;
    case Encoding::base8_delta4: return 4;
    default: return 0;
  }
}

size_t data_bytes(Encoding e, size_t line_bytes) {
  check_line_bytes(line_bytes);
  switch (e) {
    case Encoding::zeros: return 1;
    case Encoding::repeated: return 8;
    case Encoding::uncompressed: return line_bytes;
    default: return base_bytes(e) + line_bytes / base_bytes(e) * delta_bytes(e);
  }
}

size_t stored_bytes(Encoding e, size_t line_bytes) {
  check_line_bytes(line_bytes);
  switch (e) {
    case Encoding::zeros: return 1;
    case Encoding::repeated: return 9;
    case Encoding::uncompressed: return line_bytes;
    default: return 1 + mask_bytes(e, line_bytes) + data_bytes(e, line_bytes);
  }
}

unsigned bursts(size_t bytes) {
  return bytes == 0 ? 1 : static_cast<unsigned>((bytes + kBurstBytes - 1) / kBurstBytes);
}

bool fits(Encoding e, const uint8_t* line, size_t line_bytes) {
  check_line_bytes(line_bytes);
  switch (e) {
    case Encoding::zeros: return all_zero(line, line_bytes);
    case Encoding::repeated: return all_repeated(line, line_bytes);
    case Encoding::uncompressed: return true;
    default: return split(line, line_bytes, base_bytes(e), delta_bytes(e)).ok;
  }
}

Compressed compress(const uint8_t* line, size_t line_bytes) {
  check_line_bytes(line_bytes);
  Compressed best;
  if (all_zero(line, line_bytes)) {
    best.encoding = Encoding::zeros;
    best.image = {static_cast<uint8_t>(Encoding::zeros)};
    return best;
  }
  if (all_repeated(line, line_bytes) && stored_bytes(Encoding::repeated, line_bytes) < line_bytes) {
    best.encoding = Encoding::repeated;
    best.image.assign(1 + 8, static_cast<uint8_t>(Encoding::repeated));
    for (unsigned i = 0; i < 8; ++i) best.image[1 + i] = line[i];
    return best;  // smaller than every base-delta image
  }
  size_t best_bytes = line_bytes;
  for (Encoding e : kBaseDelta) {
    const size_t bytes = stored_bytes(e, line_bytes);
    if (bytes >= best_bytes) continue;
    const Split s = split(line, line_bytes, base_bytes(e), delta_bytes(e));
    if (!s.ok) continue;
    best.encoding = e;
    best.image = encode_base_delta(e, s, line, line_bytes);
    best_bytes = bytes;
  }
  if (best.encoding == Encoding::uncompressed) best.image.assign(line, line + line_bytes);
  return best;
}

Compressed compress(const std::vector<uint8_t>& line) { return compress(line.data(), line.size()); }

std::vector<uint8_t> decompress(const uint8_t* image, size_t image_bytes, size_t line_bytes) {
  check_line_bytes(line_bytes);
  if (image_bytes == line_bytes) return std::vector<uint8_t>(image, image + line_bytes);
  if (image_bytes == 0) throw std::invalid_argument("BDI: an empty image");
  if (image[0] >= static_cast<uint8_t>(Encoding::uncompressed))
    throw std::invalid_argument("BDI: unknown encoding byte " + std::to_string(image[0]));
  const Encoding e = static_cast<Encoding>(image[0]);
  if (image_bytes != stored_bytes(e, line_bytes))
    throw std::invalid_argument(std::string("BDI: a ") + name(e) + " image of a " + std::to_string(line_bytes) +
                                "-byte line is " + std::to_string(stored_bytes(e, line_bytes)) + " bytes, not " +
                                std::to_string(image_bytes));
  std::vector<uint8_t> line(line_bytes, 0);
  if (e == Encoding::repeated)
    for (size_t i = 0; i < line_bytes; ++i) line[i] = image[1 + i % 8];
  else if (is_base_delta(e))
    decode_base_delta(e, image, line.data(), line_bytes);
  return line;
}

std::vector<uint8_t> decompress(const std::vector<uint8_t>& image, size_t line_bytes) {
  return decompress(image.data(), image.size(), line_bytes);
}

}  // namespace tessera::bdi
