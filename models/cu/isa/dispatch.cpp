#include "models/cu/isa/dispatch.h"

#include <algorithm>
#include <cstring>

namespace tessera::isa {

namespace {

constexpr uint32_t kMaxWorkgroupSize = 1024;

std::string dims_text(const uint32_t d[3]) {
  return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]);
}

template <class T>
void put(std::vector<uint8_t>& seg, uint32_t offset, T value, uint32_t size) {
  // Hidden arguments may be declared narrower than T (e.g. 2-byte group sizes).
  std::memcpy(seg.data() + offset, &value, std::min<uint32_t>(size, sizeof(T)));
}

// Hidden arguments this launch can give a value; the rest stay zero (null
// pointers for printf buffers, default queues, completion actions...).
void fill_hidden(std::vector<uint8_t>& seg, const KernelArg& a, const DispatchContext& ctx) {
  const std::string& k = a.value_kind;
  auto axis = [&](const char* prefix) -> int {
    const size_t n = std::strlen(prefix);
    if (k.size() != n + 1 || k.compare(0, n, prefix) != 0) return -1;
    const char c = k[n];
    return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
  };
  int d;
  if ((d = axis("hidden_global_offset_")) >= 0) {
    put<uint64_t>(seg, a.offset, 0, a.size);
  } else if ((d = axis("hidden_block_count_")) >= 0) {
    put<uint32_t>(seg, a.offset, ctx.workgroup_count[d], a.size);
  } else if ((d = axis("hidden_group_size_")) >= 0) {
    put<uint16_t>(seg, a.offset, static_cast<uint16_t>(ctx.workgroup[d]), a.size);
  } else if ((d = axis("hidden_remainder_")) >= 0) {
    put<uint16_t>(seg, a.offset, static_cast<uint16_t>(ctx.grid[d] % ctx.workgroup[d]), a.size);
  } else if (k == "hidden_grid_dims") {
    put<uint16_t>(seg, a.offset, static_cast<uint16_t>(ctx.dims), a.size);
  } else if (k == "hidden_queue_ptr") {
    put<uint64_t>(seg, a.offset, ctx.queue_address, a.size);
  } else if (k == "hidden_shared_base") {
    put<uint32_t>(seg, a.offset, static_cast<uint32_t>(kSharedApertureBase >> 32), a.size);
  } else if (k == "hidden_private_base") {
    put<uint32_t>(seg, a.offset, static_cast<uint32_t>(kPrivateApertureBase >> 32), a.size);
  }
}

}  // namespace

void plan_dispatch(const KernelInfo& kernel, const LaunchConfig& cfg, DispatchContext& ctx) {
  const std::string kw = "kernel '" + kernel.name + "'";
  uint64_t wg_items = 1;
  for (int d = 0; d < 3; ++d) {
    if (cfg.grid[d] == 0 || cfg.workgroup[d] == 0)
      throw UserError(kw + ": grid (" + dims_text(cfg.grid) + ") and workgroup (" + dims_text(cfg.workgroup) +
                      ") sizes must be at least 1 in every dimension");
    if (kernel.reqd_workgroup_size[d] && kernel.reqd_workgroup_size[d] != cfg.workgroup[d])
      throw UserError(kw + " requires workgroup size (" + dims_text(kernel.reqd_workgroup_size) + "), got (" +
                      dims_text(cfg.workgroup) + ")");
    ctx.grid[d] = cfg.grid[d];
    ctx.workgroup[d] = cfg.workgroup[d];
    ctx.workgroup_count[d] = cfg.workgroups(d);
    wg_items *= cfg.workgroup[d];
  }
  const uint32_t limit = std::min(kMaxWorkgroupSize, kernel.max_flat_workgroup_size ? kernel.max_flat_workgroup_size
                                                                                      : kMaxWorkgroupSize);
  if (wg_items > limit)
    throw UserError(kw + ": workgroup of " + std::to_string(wg_items) + " work-items exceeds its maximum of " +
                    std::to_string(limit));
  if (uint64_t(cfg.grid[0]) * cfg.grid[1] * cfg.grid[2] > 0xffffffffull)
    throw UserError(kw + ": grid (" + dims_text(cfg.grid) + ") has more than 2^32 work-items");
  ctx.dims = cfg.grid[2] > 1 ? 3 : cfg.grid[1] > 1 ? 2 : 1;
  ctx.waves_per_workgroup = static_cast<uint32_t>((wg_items + kWaveSize - 1) / kWaveSize);
  ctx.kernel = &kernel;
}

std::vector<uint8_t> build_kernargs(const KernelInfo& kernel, const std::vector<ArgValue>& args, DispatchContext& ctx) {
  const std::string kw = "kernel '" + kernel.name + "'";
  const std::vector<const KernelArg*> expl = kernel.explicit_args();
  if (args.size() != expl.size())
    throw UserError(kw + " takes " + std::to_string(expl.size()) + " arguments, " + std::to_string(args.size()) +
                    " given");
  std::vector<uint8_t> seg(std::max<uint32_t>(kernel.kernarg_segment_size, 1), 0);
  uint32_t lds = kernel.group_segment_fixed_size;
  for (size_t i = 0; i < expl.size(); ++i) {
    const KernelArg& m = *expl[i];
    const ArgValue& v = args[i];
    const std::string aw = kw + " argument " + std::to_string(i) + (m.name.empty() ? "" : " (" + m.name + ")") +
                           " of type " + (m.type_name.empty() ? m.value_kind : m.type_name);
    if (m.value_kind == "dynamic_shared_pointer") {
      if (v.kind != ArgValue::Kind::LocalBytes)
        throw UserError(aw + " is a __local pointer: it takes a local memory size, not a value");
      const uint32_t align = std::max<uint32_t>(m.pointee_align, 16);
      lds = (lds + align - 1) / align * align;
      put<uint32_t>(seg, m.offset, lds, m.size);
      if (v.local_bytes > kMaxLdsBytes - std::min(lds, kMaxLdsBytes))
        throw UserError(aw + ": " + std::to_string(v.local_bytes) + " bytes of local memory do not fit in the 64 KiB LDS");
      lds += v.local_bytes;
      continue;
    }
    if (v.kind == ArgValue::Kind::LocalBytes)
      throw UserError(aw + " is not a __local pointer but was given a local memory size");
    if (v.bytes.size() != m.size)
      throw UserError(aw + " is " + std::to_string(m.size) + " bytes, " + std::to_string(v.bytes.size()) +
                      " bytes given");
    std::memcpy(seg.data() + m.offset, v.bytes.data(), m.size);
  }
  if (lds > kMaxLdsBytes)
    throw UserError(kw + " needs " + std::to_string(lds) + " bytes of LDS, more than the 64 KiB a workgroup can have");
  ctx.lds_bytes = lds;
  for (const KernelArg& a : kernel.args)
    if (a.is_hidden()) fill_hidden(seg, a, ctx);
  return seg;
}

AqlDispatchPacket make_dispatch_packet(const DispatchContext& ctx) {
  AqlDispatchPacket p;
  p.header = static_cast<uint16_t>(kAqlPacketTypeKernelDispatch | (1u << 8) /* barrier */ |
                                   (kAqlFenceScopeSystem << 9) | (kAqlFenceScopeSystem << 11));
  p.setup = static_cast<uint16_t>(ctx.dims);
  for (int d = 0; d < 3; ++d) {
    p.workgroup_size[d] = static_cast<uint16_t>(ctx.workgroup[d]);
    p.grid_size[d] = ctx.grid[d];
  }
  p.private_segment_size = ctx.scratch_lane_bytes;
  p.group_segment_size = ctx.lds_bytes;
  p.kernel_object = ctx.kernel ? ctx.kernel->descriptor_address : 0;
  p.kernarg_address = ctx.kernarg_address;
  return p;
}

void private_segment_buffer(const DispatchContext& ctx, uint32_t out[4]) {
  const uint64_t base = ctx.scratch_address;
  out[0] = static_cast<uint32_t>(base);
  // BASE_ADDRESS_HI, STRIDE 0, SWIZZLE_ENABLE.
  out[1] = static_cast<uint32_t>((base >> 32) & 0xffff) | (1u << 31);
  out[2] = ctx.scratch_wave_bytes * ctx.waves_per_workgroup;  // NUM_RECORDS
  // DST_SEL XYZW, DATA_FORMAT 32, ELEMENT_SIZE 4 bytes, INDEX_STRIDE 64, ADD_TID_ENABLE.
  out[3] = (4u << 0) | (5u << 3) | (6u << 6) | (7u << 9) | (4u << 15) | (1u << 19) | (3u << 21) | (1u << 23);
}

void workgroup_extent(const DispatchContext& ctx, const uint32_t wg[3], uint32_t out[3]) {
  for (int d = 0; d < 3; ++d) out[d] = std::min(ctx.workgroup[d], ctx.grid[d] - wg[d] * ctx.workgroup[d]);
}

void setup_wave(Wave& w, const DispatchContext& ctx, const uint32_t wg[3], uint32_t wave_in_group) {
  const KernelDescriptor& kd = ctx.kernel->descriptor;
  unsigned s = 0;
  auto put64 = [&](uint64_t v) {
    w.set_s64(static_cast<uint16_t>(s), v);
    s += 2;
  };
  if (kd.enable_private_segment_buffer) {
    uint32_t v[4];
    private_segment_buffer(ctx, v);
    for (uint32_t x : v) w.s(static_cast<uint16_t>(s++)) = x;
  }
  if (kd.enable_dispatch_ptr) put64(ctx.packet_address);
  if (kd.enable_queue_ptr) put64(ctx.queue_address);
  if (kd.enable_kernarg_segment_ptr) put64(ctx.kernarg_address);
  if (kd.enable_dispatch_id) put64(ctx.dispatch_id);
  if (kd.enable_flat_scratch_init) put64(ctx.scratch_address);
  if (kd.enable_private_segment_size) w.s(static_cast<uint16_t>(s++)) = ctx.scratch_lane_bytes;
  // System SGPRs follow the user SGPRs the descriptor counts.
  s = kd.user_sgpr_count;
  for (int d = 0; d < 3; ++d)
    if (kd.enable_workgroup_id[d]) w.s(static_cast<uint16_t>(s++)) = wg[d];
  if (kd.enable_workgroup_info) w.s(static_cast<uint16_t>(s++)) = 0;
  const uint32_t wave_offset = wave_in_group * ctx.scratch_wave_bytes;
  if (kd.enable_private_segment) w.s(static_cast<uint16_t>(s++)) = wave_offset;

  // v0: work-item IDs packed x 9:0, y 19:10, z 29:20 (gfx90a), for the
  // work-items this wave holds in x-fastest order; EXEC covers those lanes.
  uint32_t ext[3];
  workgroup_extent(ctx, wg, ext);
  const uint64_t items = uint64_t(ext[0]) * ext[1] * ext[2];
  const uint64_t first = uint64_t(wave_in_group) * kWaveSize;
  uint64_t exec = 0;
  uint32_t* v0 = w.num_vgprs() ? w.v(0) : nullptr;
  uint32_t x = static_cast<uint32_t>(first % ext[0]);
  uint32_t y = static_cast<uint32_t>(first / ext[0] % ext[1]);
  uint32_t z = static_cast<uint32_t>(first / (uint64_t(ext[0]) * ext[1]));
  for (unsigned lane = 0; lane < kWaveSize && first + lane < items; ++lane) {
    exec |= 1ull << lane;
    if (v0) v0[lane] = x | (y << 10) | (z << 20);
    if (++x == ext[0]) {
      x = 0;
      if (++y == ext[1]) y = 0, ++z;
    }
  }
  w.set_exec(exec);
  w.set_vcc(0);
  w.scc = false;
  w.mode.f32_denorms = kd.float_denorm_mode_32 == 3;
  w.mode.f16_f64_denorms = kd.float_denorm_mode_16_64 == 3;
  w.mode.ieee = kd.ieee_mode;
  w.mode.dx10_clamp = kd.dx10_clamp;
  w.pc = ctx.kernel->entry_address;
  w.code_base = ctx.code_base;
  w.id.workgroup[0] = wg[0];
  w.id.workgroup[1] = wg[1];
  w.id.workgroup[2] = wg[2];
  w.id.wave_in_group = wave_in_group;
  w.attach_scratch(ctx.scratch_address + wave_offset, ctx.scratch_lane_bytes);
  w.set_context(&ctx);
}

}  // namespace tessera::isa
