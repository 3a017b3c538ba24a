// What a kernel launch puts in memory and registers before the first
// instruction: the AQL kernel-dispatch packet, the kernarg segment laid out
// from the kernel metadata, the scratch (private segment) layout, and each
// wave's initial register state as the HSA ABI for gfx90a defines it.
//
// The executor, and later the dispatcher of the cycle-level CU, both build
// waves through setup_wave(), so the ABI lives in one place.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/wave.h"

namespace tessera::isa {

// hsa_kernel_dispatch_packet_t, byte for byte.
struct AqlDispatchPacket {
  uint16_t header = 0;
  uint16_t setup = 0;  // dimensions in bits 1:0
  uint16_t workgroup_size[3] = {1, 1, 1};
  uint16_t reserved0 = 0;
  uint32_t grid_size[3] = {1, 1, 1};
  uint32_t private_segment_size = 0;
  uint32_t group_segment_size = 0;
  uint64_t kernel_object = 0;
  uint64_t kernarg_address = 0;
  uint64_t reserved2 = 0;
  uint64_t completion_signal = 0;
};
static_assert(sizeof(AqlDispatchPacket) == 64, "the AQL packet is 64 bytes");

constexpr uint16_t kAqlPacketTypeKernelDispatch = 2;
constexpr uint16_t kAqlPacketTypeInvalid = 1;

// LDS one workgroup may have (static + dynamic).
constexpr uint32_t kMaxLdsBytes = 64 * 1024;
constexpr uint16_t kAqlFenceScopeSystem = 2;

// The value of one explicit kernel argument, in declaration order.
struct ArgValue {
  enum class Kind : uint8_t { Bytes, LocalBytes };
  Kind kind = Kind::Bytes;
  std::vector<uint8_t> bytes;  // Bytes: by-value contents, or the 8-byte address of a buffer
  uint32_t local_bytes = 0;    // LocalBytes: size of a __local pointer argument's LDS
};

// A launch's geometry and arguments.
struct LaunchConfig {
  uint32_t grid[3] = {1, 1, 1};       // work-items per dimension
  uint32_t workgroup[3] = {1, 1, 1};  // work-items per workgroup per dimension
  std::vector<ArgValue> args;

  // Workgroups along dimension d, a partial one at the edge included (0 for
  // a zero size, which plan_dispatch rejects).
  uint32_t workgroups(int d) const {
    return workgroup[d] ? static_cast<uint32_t>((uint64_t(grid[d]) + workgroup[d] - 1) / workgroup[d]) : 0;
  }
};

// Everything the waves of one dispatch share. Addresses are device addresses.
struct DispatchContext {
  const CodeObject* code = nullptr;
  const KernelInfo* kernel = nullptr;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t workgroup[3] = {1, 1, 1};
  uint32_t workgroup_count[3] = {1, 1, 1};
  uint32_t dims = 1;
  uint64_t packet_address = 0;    // the AQL packet (dispatch ptr)
  uint64_t queue_address = 0;     // a zeroed amd_queue_t-sized block (queue ptr)
  uint64_t kernarg_address = 0;
  uint64_t dispatch_id = 0;
  // Where the code object is loaded: the device address of its vaddr 0
  // (models/cu/isa/code_loader.h); 0 when it is not in device memory.
  uint64_t code_base = 0;
  uint32_t lds_bytes = 0;         // static + dynamic LDS per workgroup
  uint64_t scratch_address = 0;   // private segments of one workgroup's waves
  uint32_t scratch_lane_bytes = 0;
  uint32_t scratch_wave_bytes = 0;
  uint32_t waves_per_workgroup = 1;

  uint64_t workgroup_total() const {
    return uint64_t(workgroup_count[0]) * workgroup_count[1] * workgroup_count[2];
  }
};

// Checks the geometry against the kernel (sizes non-zero, workgroup within the
// kernel's max_flat_workgroup_size and 1024, required sizes) and fills the
// geometry fields of `ctx`. Throws UserError naming the problem.
void plan_dispatch(const KernelInfo& kernel, const LaunchConfig& cfg, DispatchContext& ctx);

// The kernarg segment: explicit arguments checked against the metadata (count,
// sizes) and placed at their offsets; hidden arguments filled from the
// geometry in `ctx` (global offsets 0, unused pointers null). __local pointer
// arguments receive their LDS offset, allocated after the static LDS in
// declaration order; ctx.lds_bytes becomes the workgroup's total LDS.
// Throws UserError naming the kernel and the argument.
std::vector<uint8_t> build_kernargs(const KernelInfo& kernel, const std::vector<ArgValue>& args, DispatchContext& ctx);

AqlDispatchPacket make_dispatch_packet(const DispatchContext& ctx);

// Sets the initial state of wave `wave_in_group` of workgroup `wg`: enabled user
// and system SGPRs in ABI order, packed work-item IDs in v0, EXEC for a partial
// wave, the float mode from the descriptor, the PC at the kernel entry.
void setup_wave(Wave& wave, const DispatchContext& ctx, const uint32_t wg[3], uint32_t wave_in_group);

// The four dwords of the private segment buffer resource (s[0:3]).
void private_segment_buffer(const DispatchContext& ctx, uint32_t out[4]);

// Work-items in workgroup `wg` (smaller at the grid's edge).
void workgroup_extent(const DispatchContext& ctx, const uint32_t wg[3], uint32_t out[3]);

}  // namespace tessera::isa
