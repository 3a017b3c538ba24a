#include "models/mem/bdi_traffic.h"

namespace tessera {

namespace {
bool every_byte_enabled(const tlm::tlm_generic_payload& t) {
  const uint8_t* be = t.get_byte_enable_ptr();
  if (!be) return true;
  const unsigned n = t.get_byte_enable_length();
  if (n == 0) return false;
  for (unsigned i = 0; i < n; ++i)
    if (be[i] != TLM_BYTE_ENABLED) return false;
  return true;
}
}  // namespace

bool whole_line(const tlm::tlm_generic_payload& t) {
  const unsigned len = t.get_data_length();
  return len >= 8 && len <= 1024 && len % 8 == 0 && t.get_data_ptr() && every_byte_enabled(t);
}

bdi::Encoding line_encoding(const tlm::tlm_generic_payload& t) {
  if (!whole_line(t)) return bdi::Encoding::uncompressed;
  return bdi::compress(t.get_data_ptr(), t.get_data_length()).encoding;
}

BdiTraffic::BdiTraffic(StatGroup& g, const std::string& prefix, const std::string& where) {
  for (unsigned e = 0; e < bdi::kEncodingCount; ++e) {
    const char* n = bdi::name(static_cast<bdi::Encoding>(e));
    lines_[e] = &g.counter(prefix + "lines_" + n, std::string("lines ") + where + " with BDI encoding " + n);
  }
  bytes_saved_ = &g.counter(prefix + "bytes_saved", std::string("bytes of those lines' data not moved ") + where +
                                                        " thanks to compression (line minus its bursts)");
}

void BdiTraffic::count(bdi::Encoding e, uint64_t line_bytes, uint64_t wire_bytes) {
  ++*lines_[static_cast<unsigned>(e)];
  if (wire_bytes < line_bytes) *bytes_saved_ += line_bytes - wire_bytes;
}

}  // namespace tessera
