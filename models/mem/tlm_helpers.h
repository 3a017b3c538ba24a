// Small helpers shared by the memory-side blocks: address formatting for
// messages, transaction descriptions, and the bounds check every target does.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>

#include <tlm>

#include "models/cu/isa/hex.h"

namespace tessera {

// "read of 64 bytes at 0x1000" for log lines and fault reports.
std::string describe(const tlm::tlm_generic_payload& trans);

// True if [addr, addr+len) lies inside [base, base+size) without wrapping.
// An access ending on the last byte of the range is inside.
inline bool range_contains(uint64_t base, uint64_t size, uint64_t addr, uint64_t len) {
  return addr >= base && len <= size && addr - base <= size - len;
}

// Whether the time resolution is the default 1 ps: sc_time values are then
// picoseconds. Fixed once the first sc_time exists, so asked once.
inline bool ps_resolution() {
  static const bool ps = sc_core::sc_get_time_resolution() == sc_core::sc_time(1, sc_core::SC_PS);
  return ps;
}

// A duration in whole picoseconds (rounded to the nearest), for time-weighted
// statistics. Exact and cheap at the default 1 ps time resolution.
inline uint64_t picoseconds(const sc_core::sc_time& t) {
  if (ps_resolution()) return t.value();
  return static_cast<uint64_t>(std::llround(t.to_seconds() * 1e12));
}

// The same for a duration given as an sc_time value (ticks), as blocks that
// keep their times as values have them: at 1 ps resolution the value itself,
// with no sc_time made from it (sc_time::from_value is a library call).
inline uint64_t picoseconds_of_ticks(uint64_t ticks) {
  return ps_resolution() ? ticks : picoseconds(sc_core::sc_time::from_value(ticks));
}

// A duration in whole nanoseconds (rounded to the nearest), for latency histograms.
inline uint64_t nanoseconds(const sc_core::sc_time& t) {
  return static_cast<uint64_t>(std::llround(t.to_seconds() * 1e9));
}

// Time the data of `bytes` occupies a channel of `bytes_per_second`.
sc_core::sc_time transfer_time(uint64_t bytes, double bytes_per_second);

// Whether byte i of t is written (or read): no byte-enable array means every
// byte; a shorter array repeats, as TLM-2.0 defines.
inline bool byte_enabled(const tlm::tlm_generic_payload& t, uint64_t i) {
  const uint8_t* be = t.get_byte_enable_ptr();
  return !be || be[i % t.get_byte_enable_length()] == TLM_BYTE_ENABLED;
}

}  // namespace tessera
