#include "common/device_memory.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <cstring>
#include <string>

#include "models/cu/isa/hex.h"
#include "platform/errors.h"
#include "platform/limits.h"

namespace tessera::isa {

namespace {
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
  check_device_memory(bytes_allocated_, size);
  const uint64_t base = next_;
  Allocation& a = allocations_[base];
  a.base = base;
  a.size = size;
  a.bytes.assign(size, 0);
  bytes_allocated_ += size;
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
  bytes_allocated_ -= it->second.size;
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
  for (MemorySideCopies* c : memory_side_) c->host_wrote(addr, static_cast<const uint8_t*>(src), bytes);
}

void DeviceMemory::read(void* dst, uint64_t addr, uint64_t bytes) const {
  if (bytes == 0) return;
  const Allocation* a = find(addr);
  if (!a || a->size - (addr - a->base) < bytes)
    throw UserError("device read " + range_text(addr, bytes) + " is not inside one allocation");
  std::memcpy(dst, a->bytes.data() + (addr - a->base), bytes);
  for (const MemorySideCopies* c : memory_side_) c->host_reads(addr, static_cast<uint8_t*>(dst), bytes);
}

// Both walk the allocations overlapping [addr, addr+bytes) in address order;
// the common case (one allocation holds the whole range) is one lookup.
void DeviceMemory::read_any(uint64_t addr, void* dst_v, uint64_t bytes) const {
  uint8_t* dst = static_cast<uint8_t*>(dst_v);
  if (bytes == 0) return;
  const Allocation* a = find(addr);
  if (a && a->size - (addr - a->base) >= bytes) {
    std::memcpy(dst, a->bytes.data() + (addr - a->base), bytes);
    return;
  }
  std::memset(dst, 0, bytes);
  // The last byte, computed so that a range ending at 2^64 does not wrap.
  const uint64_t last = addr + (bytes - 1) < addr ? ~uint64_t{0} : addr + (bytes - 1);
  auto it = allocations_.upper_bound(addr);
  if (it != allocations_.begin() && std::prev(it)->second.base + (std::prev(it)->second.size - 1) >= addr) --it;
  for (; it != allocations_.end() && it->second.base <= last; ++it) {
    const Allocation& al = it->second;
    const uint64_t lo = std::max(addr, al.base);
    const uint64_t hi = std::min(last, al.base + (al.size - 1));
    std::memcpy(dst + (lo - addr), al.bytes.data() + (lo - al.base), hi - lo + 1);
  }
}

void DeviceMemory::write_masked(uint64_t addr, const void* src_v, uint64_t bytes, const uint8_t* be) {
  const uint8_t* src = static_cast<const uint8_t*>(src_v);
  if (bytes == 0) return;
  auto copy = [&](uint8_t* to, uint64_t from_offset, uint64_t n) {
    if (!be) {
      std::memcpy(to, src + from_offset, n);
      return;
    }
    for (uint64_t k = 0; k < n; ++k)
      if (be[from_offset + k] == 0xff) to[k] = src[from_offset + k];
  };
  if (uint8_t* p = translate(addr, bytes)) {
    copy(p, 0, bytes);
    return;
  }
  const uint64_t last = addr + (bytes - 1) < addr ? ~uint64_t{0} : addr + (bytes - 1);
  auto it = allocations_.upper_bound(addr);
  if (it != allocations_.begin() && std::prev(it)->second.base + (std::prev(it)->second.size - 1) >= addr) --it;
  for (; it != allocations_.end() && it->second.base <= last; ++it) {
    Allocation& al = it->second;
    const uint64_t lo = std::max(addr, al.base);
    const uint64_t hi = std::min(last, al.base + (al.size - 1));
    copy(al.bytes.data() + (lo - al.base), lo - addr, hi - lo + 1);
  }
}

}  // namespace tessera::isa
