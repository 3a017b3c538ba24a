// Hexadecimal text for addresses and values in messages: "0x1f40". And the
// digits alone, appended to a string without a format string (the
// disassembler's listings print many of them).
#pragma once
#include <cstdint>
#include <string>

namespace tessera {

std::string hex(uint64_t value);

// Appends `value`'s hexadecimal digits, at least `min_digits` of them
// (zero-padded, as printf's "%08x"), in lower or upper case.
void append_hex_digits(std::string& out, uint64_t value, unsigned min_digits = 1, bool upper = false);

// Appends `value` in decimal.
void append_decimal(std::string& out, int64_t value);

}  // namespace tessera
