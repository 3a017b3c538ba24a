// The version `tessera --version` prints; kept equal to project(VERSION) in CMakeLists.txt.
#pragma once

namespace tessera {
constexpr const char* kVersion = "0.1.0";
}
