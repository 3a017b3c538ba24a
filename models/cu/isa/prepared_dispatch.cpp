#include "models/cu/isa/prepared_dispatch.h"

#include <algorithm>

namespace tessera::isa {

namespace {

// Private memory per lane for kernels whose stack size is not known at
// compile time (the descriptor's USES_DYNAMIC_STACK).
constexpr uint32_t kDynamicStackBytes = 16 * 1024;

}  // namespace

ScopedAllocation::~ScopedAllocation() {
  try {
    mem_.free(addr_);
  } catch (const UserError&) {
    // Already gone: nothing to release.
  }
}

PreparedDispatch::PreparedDispatch(DeviceMemory& memory, DecodeCache& program, const KernelInfo& kernel,
                                   const LaunchConfig& config, uint64_t dispatch_id)
    : memory_(memory), program_(program), kernel_(kernel) {
  ctx_.code = &program.code();
  plan_dispatch(kernel, config, ctx_);
  ctx_.dispatch_id = dispatch_id;
  std::vector<uint8_t> kernargs = build_kernargs(kernel, config.args, ctx_);
  plan_scratch(kernel, ctx_);

  // The packet and a zeroed queue descriptor share one allocation.
  control_ = std::make_unique<ScopedAllocation>(memory, 64 + 256);
  ctx_.packet_address = control_->address();
  ctx_.queue_address = control_->address() + 64;
  // Whole 256-byte units, as a runtime's kernarg pool hands them out: the
  // compiler fetches kernargs with wide scalar loads that may read past the
  // last argument (a 36-byte segment read as dwordx4 at offset 24).
  kernargs_ = std::make_unique<ScopedAllocation>(memory, (kernargs.size() + 255) / 256 * 256);
  ctx_.kernarg_address = kernargs_->address();
  // Hidden arguments may name the queue: lay the kernargs out again now that
  // its address is known.
  kernargs = build_kernargs(kernel, config.args, ctx_);
  memory.write(ctx_.kernarg_address, kernargs.data(), kernargs.size());
  const AqlDispatchPacket packet = make_dispatch_packet(ctx_);
  memory.write(ctx_.packet_address, &packet, sizeof packet);
}

void plan_scratch(const KernelInfo& kernel, DispatchContext& ctx, uint32_t packet_lane_bytes) {
  const KernelDescriptor& kd = kernel.descriptor;
  uint32_t lane = std::max({kd.private_segment_fixed_size, kernel.private_segment_fixed_size, packet_lane_bytes});
  if (kd.uses_dynamic_stack) lane = std::max(lane, kDynamicStackBytes);
  if (kd.enable_private_segment && lane == 0) lane = 4;
  lane = (lane + 3) & ~3u;
  ctx.scratch_lane_bytes = lane;
  ctx.scratch_wave_bytes = (lane * kWaveSize + 1023) & ~1023u;
}

DispatchContext context_from_packet(const AqlDispatchPacket& packet, uint64_t packet_address,
                                    uint64_t queue_address, uint64_t dispatch_id, const CodeObject& code,
                                    const KernelInfo& kernel) {
  LaunchConfig geometry;
  for (int d = 0; d < 3; ++d) {
    geometry.grid[d] = packet.grid_size[d];
    geometry.workgroup[d] = packet.workgroup_size[d];
  }
  DispatchContext ctx;
  ctx.code = &code;
  plan_dispatch(kernel, geometry, ctx);
  const uint32_t lds = std::max(packet.group_segment_size, kernel.group_segment_fixed_size);
  if (lds > kMaxLdsBytes)
    throw UserError("kernel '" + kernel.name + "': the packet asks for " + std::to_string(lds) +
                    " bytes of LDS, more than the 64 KiB a workgroup can have");
  ctx.lds_bytes = lds;
  ctx.packet_address = packet_address;
  ctx.queue_address = queue_address;
  ctx.kernarg_address = packet.kernarg_address;
  ctx.dispatch_id = dispatch_id;
  plan_scratch(kernel, ctx, packet.private_segment_size);
  return ctx;
}

void start_wave(Wave& wave, const DispatchContext& ctx, const uint32_t wg[3], uint32_t wave_in_group,
                uint64_t scratch_address) {
  if (scratch_address == ctx.scratch_address) {
    setup_wave(wave, ctx, wg, wave_in_group);
    return;
  }
  // setup_wave reads the scratch base only from the context; a copy with this
  // workgroup's base gives every register that holds it the right value.
  DispatchContext local = ctx;
  local.scratch_address = scratch_address;
  setup_wave(wave, local, wg, wave_in_group);
  wave.set_context(&ctx);
}

}  // namespace tessera::isa
