// Base-Delta-Immediate (BDI) line compression, the reference model: the
// encodings and sizes of Pekhimenko et al. (PACT 2012) as CABA stores lines in
// L2 and DRAM, in 32-byte bursts. The RTL compressor under tlm_bridges/rtl/ and
// the compression mechanism are checked against it. Plain C++, no SystemC.
//
// A line of L bytes (a multiple of 8) is read as little-endian values of k
// bytes (k = 8, 4 or 2). A base-delta encoding Bk-Δd keeps one explicit base
// (the first value that is not itself a small number) and, for every value, a
// signed d-byte delta from either that base or the implicit zero base (a
// "immediate"): value = base + delta, or value = 0 + delta, in k-byte
// arithmetic. The best encoding is the one whose stored image is smallest;
// ties go to the earlier encoding in `Encoding`.
//
// Stored image (what crosses the interconnect and sits in DRAM):
//   zeros          [encoding]                                        1 byte
//   repeated       [encoding][the 8-byte value]                      9 bytes
//   Bk-Δd          [encoding][base mask][base: k bytes][L/k deltas of d bytes]
//                  base mask: L/k bits, ceil(L/k / 8) bytes, bit i set when
//                  value i uses the explicit base (clear: the zero base)
//   uncompressed   the line itself, L bytes, no header (every other image is
//                  smaller, so the image's size says it is uncompressed)
// The paper's sizes (`data_bytes`: base plus deltas, e.g. 16 bytes for B8-Δ1
// of a 64-byte line) leave out the encoding byte and the base mask.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::bdi {

enum class Encoding : uint8_t {
  zeros = 0,
  repeated = 1,
  base8_delta1 = 2,
  base8_delta2 = 3,
  base8_delta4 = 4,
  base4_delta1 = 5,
  base4_delta2 = 6,
  base2_delta1 = 7,
  uncompressed = 8,
};
constexpr unsigned kEncodingCount = 9;
constexpr size_t kBurstBytes = 32;

// "b8d1", "zeros", ...: for statistics and messages.
const char* name(Encoding e);

// Base and delta widths in bytes of a base-delta encoding; 0 for the others.
unsigned base_bytes(Encoding e);
unsigned delta_bytes(Encoding e);

// The paper's compressed size: base plus deltas (zeros 1, repeated 8,
// uncompressed the line). Throws std::invalid_argument for a bad line size.
size_t data_bytes(Encoding e, size_t line_bytes);
// The stored image's size, header and base mask included.
size_t stored_bytes(Encoding e, size_t line_bytes);
// 32-byte bursts that carry `bytes` (at least one).
unsigned bursts(size_t bytes);

// The little-endian value of the `bytes` (at most 8) bytes at `p`: how an
// image stores its base and deltas.
uint64_t load_le(const uint8_t* p, unsigned bytes);
// `v` read as a signed number of `bytes` (1 to 8) bytes, sign-extended to 64
// bits: how a delta is read.
int64_t sign_extend(uint64_t v, unsigned bytes);

// Whether `line` can be encoded with `e` (uncompressed always can).
bool fits(Encoding e, const uint8_t* line, size_t line_bytes);

struct Compressed {
  Encoding encoding = Encoding::uncompressed;
  std::vector<uint8_t> image;  // stored_bytes(encoding, line_bytes) long
  unsigned bursts() const { return bdi::bursts(image.size()); }
};

// The best encoding of a line and its image. Throws std::invalid_argument
// when line_bytes is not a multiple of 8 between 8 and 1024.
Compressed compress(const uint8_t* line, size_t line_bytes);
Compressed compress(const std::vector<uint8_t>& line);

// The line an image holds. Throws std::invalid_argument, naming what is
// wrong, for an image that is not one `compress` makes for this line size
// (unknown encoding byte, wrong length).
std::vector<uint8_t> decompress(const uint8_t* image, size_t image_bytes, size_t line_bytes);
std::vector<uint8_t> decompress(const std::vector<uint8_t>& image, size_t line_bytes);

}  // namespace tessera::bdi
