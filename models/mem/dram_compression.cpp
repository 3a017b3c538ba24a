// A DRAM controller's BDI compression (CABA, docs/CABA.md): timing only, the
// device memory keeps plain bytes. A whole-line read or write moves the
// bursts of the line's compressed image (bdi::compress of its bytes as they
// are when it moves); every access looks up the line's burst-count metadata
// (2 bits per line) in the metadata cache, and a miss (or the write-back of a
// dirty metadata block it evicts) costs one more burst on the request's
// channel. The metadata's own row activation is not modelled.
#include "models/mem/dram_compression.h"

#include <algorithm>

#include "models/mem/dram_controller.h"
#include "platform/errors.h"

namespace tessera {

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;
using tlm::tlm_generic_payload;

DramCompression::DramCompression(const DramControllerConfig& c, StatGroup& g)
    : hierarchy(c.compression == "hierarchy"),
      decompress_latency(c.decompress_latency),
      compress_latency(c.compress_latency),
      metadata(c.metadata_cache, c.metadata_ways, c.burst_size),
      traffic(g, "bdi_", "read or written in DRAM"),
      metadata_hits(g.counter("bdi_metadata_hits", "accesses whose burst-count metadata was in the metadata cache")),
      metadata_misses(g.counter("bdi_metadata_misses", "accesses whose metadata was read from DRAM (one burst)")),
      metadata_writebacks(g.counter("bdi_metadata_writebacks", "dirty metadata blocks written back (one burst)")) {}

void DramController::setup_compression(const DramControllerConfig& c) {
  if (c.compression == "off") return;
  if (c.metadata_cache % (uint64_t{c.metadata_ways} * c.burst_size) != 0)
    throw UserError(path() + ": metadata_cache " + std::to_string(c.metadata_cache) +
                    " bytes is not a multiple of metadata_ways * burst_size = " + std::to_string(c.metadata_ways) +
                    " * " + std::to_string(c.burst_size) + " bytes");
  compression_ = std::make_unique<DramCompression>(c, stats());
}

unsigned DramController::bursts_for(tlm_generic_payload& trans, GpuAccess* access, sc_time& codec) {
  if (!compression_ || (access && (access->kind == AccessKind::Atomic || access->kind == AccessKind::ZeroMask)))
    return bursts_of(trans, access);
  DramCompression& c = *compression_;
  const uint64_t len = std::max<uint64_t>(trans.get_data_length(), 1);
  unsigned bursts = bursts_of(trans, access);
  if (whole_line(trans)) {
    const bdi::Encoding e = line_encoding(trans);
    const uint64_t image = bdi::stored_bytes(e, len);
    bursts = static_cast<unsigned>(std::max<uint64_t>(1, (image + timing_.burst_bytes - 1) / timing_.burst_bytes));
    c.traffic.count(e, len, std::min<uint64_t>(len, uint64_t{bursts} * timing_.burst_bytes));
    if (trans.is_read() && e != bdi::Encoding::uncompressed) {
      if (!c.hierarchy)
        codec += c.decompress_latency;
      else if (access)
        access->wire = e;
    }
    if (trans.is_write() && !c.hierarchy) codec += c.compress_latency;
  }
  // 2 bits per line: a metadata block of burst_size bytes covers 4 * burst_size lines.
  const uint64_t block = trans.get_address() / len / (4 * timing_.burst_bytes);
  const BdiMetadataCache::Outcome md = c.metadata.access(block, trans.is_write());
  if (md.hit) {
    ++c.metadata_hits;
  } else {
    ++c.metadata_misses;
    ++bursts;
  }
  if (md.writeback) {
    ++c.metadata_writebacks;
    ++bursts;
  }
  return bursts;
}

}  // namespace tessera
