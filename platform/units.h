// Quantities with units, as written in netlists and on the command line:
// "16 KiB", "1.8 GHz", "40 ns", "768 GB/s". Converted once, at load time,
// into base units: bytes, hertz, seconds, bytes per second.
#pragma once
#include <cstdint>
#include <string>

namespace tessera {

enum class Quantity { Size, Frequency, Time, Bandwidth };

// Name of the quantity and an example, for error messages ("a size such as \"16 KiB\"").
const char* quantity_name(Quantity q);
const char* quantity_example(Quantity q);

// Parses `text` as quantity `q`. Returns the value in base units.
// Throws UserError with a message saying what was expected when the number,
// the unit, or the unit's kind is wrong, or when the unit is missing.
double parse_quantity(const std::string& text, Quantity q);

// Throws UserError unless `bytes` fits a uint64_t (sizes are converted to one).
void check_size_range(double bytes, const std::string& text);

// Parses a size and checks it is a whole number of bytes.
uint64_t parse_size(const std::string& text);

// Formats a base-unit value for people: 16384 bytes -> "16 KiB", 1.8e9 Hz -> "1.8 GHz".
std::string format_quantity(double value, Quantity q);

// A size rounded to three digits for people, for estimates: "6.1 GiB", "312 MiB"
// (format_quantity gives an exact size: "6442450944 B" for 6 GiB + 1).
std::string format_rounded_size(double bytes);

// Sizes that must be powers of two (lines, banks, sets) are checked with this.
inline bool is_power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The smallest n with 2^n >= v: for a power-of-two size (a line, a page, a
// bank count), the shift that divides by it.
inline unsigned log2_of(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t{1} << n) < v) ++n;
  return n;
}

}  // namespace tessera
