// Device memory for the functional executor: a set of allocations in one
// 64-bit device virtual address space.
//
// Every allocation is its own byte array at an address that is never reused,
// with an unmapped guard gap after it, so an access that runs off the end of a
// buffer, a stale pointer to a freed buffer or a 32-bit truncated address all
// land outside every allocation and are reported as a GPU memory fault (the
// caller decides how) instead of touching host memory.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace tessera::isa {

// Copies of device memory kept in front of it, on the memory side (a shared
// last-level cache, docs/CACHES.md "L3"): what every agent reaching memory
// passes through, the host's accesses included. DeviceMemory lets each view
// see the host's reads and writes.
class MemorySideCopies {
 public:
  virtual ~MemorySideCopies() = default;
  // The host wrote [addr, addr+bytes): copies of those bytes take the new values.
  virtual void host_wrote(uint64_t addr, const uint8_t* src, uint64_t bytes) = 0;
  // The host reads [addr, addr+bytes), already read from memory into `dst`:
  // the bytes held here (newer than memory where dirty) replace them.
  virtual void host_reads(uint64_t addr, uint8_t* dst, uint64_t bytes) const = 0;
};

class DeviceMemory {
 public:
  // Allocations start above 4 GiB so that a pointer truncated to 32 bits faults.
  static constexpr uint64_t kFirstAddress = 0x1'0000'0000ull;
  static constexpr uint64_t kGranule = 64 * 1024;  // allocation alignment and guard gap

  struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    std::vector<uint8_t> bytes;
  };

  DeviceMemory() = default;
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // A zero-filled allocation; `bytes` 0 allocates one byte so the address is unique.
  // Throws tessera::LimitError, before allocating, if the live allocations
  // would pass limits().device_memory_bytes.
  uint64_t alloc(uint64_t bytes);
  // Throws tessera::UserError if `addr` is not the base of a live allocation.
  void free(uint64_t addr);

  // Host access; throws tessera::UserError naming the range if it is not inside one allocation.
  // Both go through the memory-side copies attached (attach_memory_side).
  void write(uint64_t addr, const void* src, uint64_t bytes);
  void read(void* dst, uint64_t addr, uint64_t bytes) const;
  // A memory-side cache in front of (part of) this memory, until it detaches (when destroyed).
  void attach_memory_side(MemorySideCopies* copies) { memory_side_.push_back(copies); }
  void detach_memory_side(MemorySideCopies* copies) {
    memory_side_.erase(std::remove(memory_side_.begin(), memory_side_.end(), copies), memory_side_.end());
  }

  // Memory-side access, as a DRAM controller sees device memory: any range,
  // possibly spanning several allocations and the gaps between them. Bytes
  // outside every allocation read as zero and writes to them are dropped (the
  // CU faults such accesses at issue; here they only must not touch the host).
  void read_any(uint64_t addr, void* dst, uint64_t bytes) const;
  // Writes the bytes whose enable is 0xff (every byte if `byte_enables` is
  // null); `byte_enables` has `bytes` entries.
  void write_masked(uint64_t addr, const void* src, uint64_t bytes, const uint8_t* byte_enables);

  // The host pointer of [addr, addr+bytes) if the range lies inside one live
  // allocation, else nullptr. The hot path of every guest access: the last
  // allocation hit is remembered.
  uint8_t* translate(uint64_t addr, uint64_t bytes) {
    Allocation* a = last_;
    if (!a || addr - a->base >= a->size || a->size - (addr - a->base) < bytes) {
      a = find(addr);
      if (!a || a->size - (addr - a->base) < bytes) return nullptr;
      last_ = a;
    }
    return a->bytes.data() + (addr - a->base);
  }

  // The live allocation containing `addr`, or nullptr.
  Allocation* find(uint64_t addr);
  const Allocation* find(uint64_t addr) const;

  size_t allocation_count() const { return allocations_.size(); }
  uint64_t bytes_allocated() const { return bytes_allocated_; }  // the live allocations' sizes

 private:
  std::map<uint64_t, Allocation> allocations_;  // by base address
  uint64_t next_ = kFirstAddress;
  uint64_t bytes_allocated_ = 0;
  Allocation* last_ = nullptr;
  std::vector<MemorySideCopies*> memory_side_;
};

}  // namespace tessera::isa
