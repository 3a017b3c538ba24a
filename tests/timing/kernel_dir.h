// Where this build's compiled kernels (code objects of sw/kernels) are.
#pragma once
#include <string>

namespace tessera::test {

inline const std::string kKernelDir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";

}  // namespace tessera::test
