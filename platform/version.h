// The version `tessera --version` prints: project(VERSION) in CMakeLists.txt.
#pragma once

namespace tessera {
constexpr const char* kVersion = TESSERA_VERSION;
}
