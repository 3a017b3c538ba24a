// A dispatch made ready to run: its context planned and checked against the
// kernel, its kernarg segment, AQL packet and queue block written to device
// memory, its scratch layout computed. Shared by the functional executor and
// the timing device's dispatcher.
//
// Scratch memory is the caller's: the layout (bytes per lane and per wave) is
// known here, but how many workgroups are in flight at once, and so how many
// private regions they need, depends on who runs the waves. The executor runs
// one workgroup at a time and allocates one region; a dispatcher with many
// workgroups in flight hands each its own region (WorkgroupTask's
// scratch_address) and starts its waves with start_wave().
//
// The allocations are released when the PreparedDispatch is destroyed.
#pragma once
#include <cstdint>
#include <memory>

#include "models/cu/isa/decode_cache.h"
#include "common/device_memory.h"
#include "models/cu/isa/dispatch.h"

namespace tessera::isa {

// Device memory held for the lifetime of its owner.
class ScopedAllocation {
 public:
  ScopedAllocation(DeviceMemory& mem, uint64_t bytes) : mem_(mem), addr_(mem.alloc(bytes)) {}
  ~ScopedAllocation();
  ScopedAllocation(const ScopedAllocation&) = delete;
  ScopedAllocation& operator=(const ScopedAllocation&) = delete;
  uint64_t address() const { return addr_; }

 private:
  DeviceMemory& mem_;
  uint64_t addr_;
};

class PreparedDispatch {
 public:
  // Throws UserError for a launch that does not fit the kernel (argument
  // count/sizes, geometry, LDS). ctx().scratch_address stays 0.
  PreparedDispatch(DeviceMemory& memory, DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config,
                   uint64_t dispatch_id);
  PreparedDispatch(const PreparedDispatch&) = delete;
  PreparedDispatch& operator=(const PreparedDispatch&) = delete;

  const DispatchContext& ctx() const { return ctx_; }
  DispatchContext& ctx() { return ctx_; }
  DecodeCache& program() const { return program_; }
  const KernelInfo& kernel() const { return kernel_; }
  DeviceMemory& memory() const { return memory_; }

  // Device bytes one workgroup's waves need for their private segments (0 if
  // the kernel has none): ctx().scratch_wave_bytes per wave, contiguous.
  uint64_t scratch_bytes_per_workgroup() const {
    return uint64_t(ctx_.scratch_wave_bytes) * ctx_.waves_per_workgroup;
  }

 private:
  DeviceMemory& memory_;
  DecodeCache& program_;
  const KernelInfo& kernel_;
  DispatchContext ctx_;
  std::unique_ptr<ScopedAllocation> control_, kernargs_;
};

// Fills ctx.scratch_lane_bytes and scratch_wave_bytes from the kernel's
// descriptor and metadata: private bytes per lane rounded to dwords (scratch is
// swizzled in dwords), a wave's share rounded to 1 KiB; at least
// `packet_lane_bytes` (an AQL packet's private_segment_size) per lane.
void plan_scratch(const KernelInfo& kernel, DispatchContext& ctx, uint32_t packet_lane_bytes = 0);

// The dispatch an AQL kernel-dispatch packet describes, as a dispatcher that
// read it from device memory sees it: geometry and segment sizes from the
// packet (checked against the kernel as plan_dispatch() does), the packet's own
// address as the dispatch pointer, scratch planned from the descriptor.
// `code` and `kernel` are what the packet's kernel_object names. Throws
// UserError for a packet the kernel cannot run (zero or oversized geometry,
// more LDS than a workgroup may have).
DispatchContext context_from_packet(const AqlDispatchPacket& packet, uint64_t packet_address,
                                    uint64_t queue_address, uint64_t dispatch_id, const CodeObject& code,
                                    const KernelInfo& kernel);

// Sets up wave `wave_in_group` of workgroup `wg` like setup_wave(), but with
// the workgroup's private segments at `scratch_address` instead of
// ctx.scratch_address (the private segment buffer, FLAT_SCRATCH and the wave's
// scratch base all follow it). The wave keeps a pointer to `ctx`.
void start_wave(Wave& wave, const DispatchContext& ctx, const uint32_t wg[3], uint32_t wave_in_group,
                uint64_t scratch_address);

}  // namespace tessera::isa
