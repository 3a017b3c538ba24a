// Small helpers shared by the memory-side blocks: address formatting for
// messages, transaction descriptions, and the bounds check every target does.
#pragma once
#include <cstdint>
#include <string>

#include <tlm>

namespace tessera {

// "0x1f40"
std::string hex(uint64_t value);

// "read of 64 bytes at 0x1000" for log lines and fault reports.
std::string describe(const tlm::tlm_generic_payload& trans);

// True if [addr, addr+len) lies inside [base, base+size) without wrapping.
// An access ending on the last byte of the range is inside.
inline bool range_contains(uint64_t base, uint64_t size, uint64_t addr, uint64_t len) {
  return addr >= base && len <= size && addr - base <= size - len;
}

// Time the data of `bytes` occupies a channel of `bytes_per_second`.
sc_core::sc_time transfer_time(uint64_t bytes, double bytes_per_second);

}  // namespace tessera
