// A DRAM controller's BDI compression state (docs/CABA.md): its mode, the
// metadata cache and the counters; the timing it implies is
// DramController::bursts_for (dram_compression.cpp).
#pragma once
#include <systemc>

#include "models/mem/bdi_metadata_cache.h"
#include "models/mem/bdi_traffic.h"

namespace tessera {

struct DramControllerConfig;

struct DramCompression {
  DramCompression(const DramControllerConfig& c, StatGroup& g);
  bool hierarchy;  // answers leave compressed; else this controller's codec adds its latencies
  sc_core::sc_time decompress_latency, compress_latency;
  BdiMetadataCache metadata;
  BdiTraffic traffic;
  Counter &metadata_hits, &metadata_misses, &metadata_writebacks;
};

}  // namespace tessera
