#include "models/cu/isa/hex.h"

#include <cstdio>

namespace tessera {

std::string hex(uint64_t value) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

}  // namespace tessera
