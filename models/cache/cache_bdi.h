// A cache's BDI compression counters (docs/CABA.md); the behaviour is in
// cache_bdi.cpp.
#pragma once
#include "models/mem/bdi_traffic.h"

namespace tessera {

struct CacheBdiStats {
  explicit CacheBdiStats(StatGroup& g);
  BdiTraffic traffic;
  Counter &decompressed, &marked;
};

}  // namespace tessera
