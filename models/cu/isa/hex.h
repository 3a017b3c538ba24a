// Hexadecimal text for addresses and values in messages: "0x1f40".
#pragma once
#include <cstdint>
#include <string>

namespace tessera {

std::string hex(uint64_t value);

}  // namespace tessera
