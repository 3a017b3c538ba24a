#include "models/cu/isa/device_memory.h"

#include <cstdio>
#include <cstring>
#include <string>

#include "platform/errors.h"

namespace tessera::isa {

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string range_text(uint64_t addr, uint64_t bytes) {
  char buf[80];
  std::snprintf(buf, sizeof buf, "[0x%llx, 0x%llx)", static_cast<unsigned long long>(addr),
                static_cast<unsigned long long>(addr + bytes));
  return buf;
}
}  // namespace

uint64_t DeviceMemory::alloc(uint64_t bytes) {
  const uint64_t size = bytes ? bytes : 1;
  // Refuse sizes no host could back rather than failing inside std::vector.
  constexpr uint64_t kMaxAllocation = 1ull << 40;
  if (size > kMaxAllocation) throw UserError("device allocation of " + std::to_string(bytes) + " bytes is too large");
  const uint64_t base = next_;
  Allocation& a = allocations_[base];
  a.base = base;
  a.size = size;
  a.bytes.assign(size, 0);
  // Round up to the granule and leave one granule unmapped as a guard.
  next_ = base + ((size + kGranule - 1) / kGranule + 1) * kGranule;
  return base;
}

void DeviceMemory::free(uint64_t addr) {
  auto it = allocations_.find(addr);
  if (it == allocations_.end())
    throw UserError("free of device address " + hex(addr) +
                    " which is not the start of a live allocation");
  if (last_ == &it->second) last_ = nullptr;
  allocations_.erase(it);
}

DeviceMemory::Allocation* DeviceMemory::find(uint64_t addr) {
  auto it = allocations_.upper_bound(addr);
  if (it == allocations_.begin()) return nullptr;
  --it;
  return addr - it->second.base < it->second.size ? &it->second : nullptr;
}

const DeviceMemory::Allocation* DeviceMemory::find(uint64_t addr) const {
  return const_cast<DeviceMemory*>(this)->find(addr);
}

void DeviceMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  if (bytes == 0) return;
  uint8_t* p = translate(addr, bytes);
  if (!p) throw UserError("device write " + range_text(addr, bytes) + " is not inside one allocation");
  std::memcpy(p, src, bytes);
}

void DeviceMemory::read(void* dst, uint64_t addr, uint64_t bytes) const {
  if (bytes == 0) return;
  const Allocation* a = find(addr);
  if (!a || a->size - (addr - a->base) < bytes)
    throw UserError("device read " + range_text(addr, bytes) + " is not inside one allocation");
  std::memcpy(dst, a->bytes.data() + (addr - a->base), bytes);
}

uint64_t DeviceMemory::bytes_allocated() const {
  uint64_t total = 0;
  for (const auto& [base, a] : allocations_) total += a.size;
  return total;
}

}  // namespace tessera::isa
