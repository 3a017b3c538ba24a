// Counting BDI-compressed lines where they move (CABA, docs/CABA.md): which
// transfers carry a whole line that may travel compressed, and counters of
// lines by encoding and bytes saved, registered only when a block has
// compression on (so that the statistics of a run without it are unchanged).
#pragma once
#include <array>
#include <cstdint>

#include <tlm>

#include "models/mem/bdi.h"
#include "platform/stats.h"

namespace tessera {

// Whether `t` carries a whole line BDI can take: a length of 8 to 1024 bytes in
// 8-byte steps, data present, every byte enabled.
bool whole_line(const tlm::tlm_generic_payload& t);
// The encoding `t`'s data takes: bdi::compress of its bytes when it is a whole
// line (a length BDI takes, data present, every byte enabled), else
// uncompressed.
bdi::Encoding line_encoding(const tlm::tlm_generic_payload& t);

class BdiTraffic {
 public:
  // Counters `<prefix>lines_<encoding>` and `<prefix>bytes_saved` in `g`.
  BdiTraffic(StatGroup& g, const std::string& prefix, const std::string& where);
  // One line of `line_bytes` moved with encoding `e` in `wire_bytes`.
  void count(bdi::Encoding e, uint64_t line_bytes, uint64_t wire_bytes);

 private:
  std::array<Counter*, bdi::kEncodingCount> lines_{};
  Counter* bytes_saved_;
};

}  // namespace tessera
