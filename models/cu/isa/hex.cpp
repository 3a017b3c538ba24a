#include "models/cu/isa/hex.h"

#include <charconv>

namespace tessera {

std::string hex(uint64_t value) {
  std::string out = "0x";
  append_hex_digits(out, value);
  return out;
}

void append_hex_digits(std::string& out, uint64_t value, unsigned min_digits, bool upper) {
  const char* const digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char buf[16];
  unsigned n = 0;
  do {
    buf[sizeof buf - ++n] = digits[value & 15];
    value >>= 4;
  } while (value);
  if (n < min_digits) out.append(min_digits - n, '0');
  out.append(buf + sizeof buf - n, n);
}

void append_decimal(std::string& out, int64_t value) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, value).ptr);
}

}  // namespace tessera
