// A cache's part in BDI compression (CABA, docs/CABA.md), timing only: the
// lines keep their plain bytes, and a whole line's encoding is worked out with
// bdi::compress from those bytes when it moves. `compression`:
//   hold      lines are held compressed: answers to fills and writebacks
//             leave compressed (GpuAccess::wire), at no cost (an L2);
//   hardware  a compressed fill waits decompress_cycles for the decompressor;
//             whole-line stores and writebacks leave compressed, a store's
//             answer compress_cycles later (the L1 boundary, where HW-BDI
//             places the codec);
//   cu        a compressed fill is answered as it is: the reads it serves
//             carry its encoding in GpuAccess::cu_decompress and the fill's
//             number in cu_fill for the compute unit's assist warps, which
//             rebuild the line once for all of them; a store leaves compressed only when the
//             compute unit compressed it (GpuAccess::cu_compressed), as
//             CABA writes a line uncompressed when no assist warp did.
#include "models/cache/cache.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

CacheBdiStats::CacheBdiStats(StatGroup& g)
    : traffic(g, "bdi_", "answered or sent below by this cache"),
      decompressed(g.counter("bdi_decompressed", "compressed fills decompressed here (hardware)")),
      marked(g.counter("bdi_cu_answers", "answers served from a compressed fill and marked for the compute unit's "
                                         "assist warps (cu)")) {}

void Cache::setup_compression() {
  if (cfg_.compression != "off") bdi_ = std::make_unique<CacheBdiStats>(stats());
}

void Cache::compress_answer(const Upstream& u) {
  GpuAccess* ext = u.trans->get_extension<GpuAccess>();
  if (cfg_.compression != "hold" || !ext || ext->kind != AccessKind::Fill || !u.trans->is_read() ||
      u.trans->get_response_status() != tlm::TLM_OK_RESPONSE || !whole_line(*u.trans))
    return;
  ext->wire = line_encoding(*u.trans);
  bdi_->traffic.count(ext->wire, u.trans->get_data_length(), wire_bytes(*u.trans));
}

void Cache::compress_down(DownTxn& d) {
  if (!d.is_write() || d.ext->kind == AccessKind::Atomic || d.ext->kind == AccessKind::ZeroMask || !whole_line(d))
    return;
  if (cfg_.compression == "cu") {
    d.ext->wire = d.ext->cu_compressed;
  } else {
    d.ext->wire = line_encoding(d);
  }
  bdi_->traffic.count(d.ext->wire, d.get_data_length(), wire_bytes(d));
}

sc_time Cache::compress_delay(const DownTxn& d) const {
  if (cfg_.compression != "hardware" || !d.is_write() || d.ext->wire == bdi::Encoding::uncompressed)
    return SC_ZERO_TIME;
  return clock_period() * static_cast<double>(cfg_.compress_cycles);
}

sc_time Cache::decompress_delay(const tlm_generic_payload& t) {
  const GpuAccess* ext = t.get_extension<GpuAccess>();
  if (cfg_.compression != "hardware" || !ext || !t.is_read() || ext->wire == bdi::Encoding::uncompressed)
    return SC_ZERO_TIME;
  ++bdi_->decompressed;
  return clock_period() * static_cast<double>(cfg_.decompress_cycles);
}

void Cache::mark_for_cu(const DownTxn& d, Mshr& m) {
  if (cfg_.compression != "cu" || d.ext->wire == bdi::Encoding::uncompressed) return;
  ++cu_fills_;
  for (MshrEntry& e : m.entries) {
    GpuAccess* ext = e.patch ? nullptr : e.up.trans->get_extension<GpuAccess>();
    if (!ext || !e.up.trans->is_read() || ext->kind == AccessKind::ZeroMask) continue;
    ext->cu_decompress = d.ext->wire;
    ext->cu_fill = cu_fills_;
    ++bdi_->marked;
  }
}

}  // namespace tessera
