// Where this build's firmware images (sw/firmware) are.
#pragma once
#include <string>

namespace tessera::test {

inline std::string firmware(const std::string& name) {
  return std::string(TESSERA_BINARY_DIR) + "/sw/firmware/" + name;
}

}  // namespace tessera::test
