// The HSA initial state and the kernarg layout, checked field by field on a
// real code object.
#include "models/cu/isa/dispatch.h"

#include <catch2/catch.hpp>

#include <cstring>

#include "tests/cu/kernel_builder.h"

using namespace tessera::isa;

namespace {

const char* kDispatchKernels = R"CL(
__kernel void args(__global float* p, int a, __local int* l1, long b, __local float* l2, float c) {
  l1[get_local_id(0)] = a;
  l2[get_local_id(2)] = c;
  barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0) + get_global_id(1) + get_global_id(2)] = l1[0] + l2[1] + (float)b;
}
__kernel void spill(__global const int* in, __global int* out, int k) {
  int arr[64];
  int g = get_global_id(0);
  for (int i = 0; i < 64; ++i) arr[i] = in[(g + i) & 63] * i;
  out[g + get_group_id(1)] = arr[(g * k) & 63];
}
)CL";

const CodeObject& code() {
  static const CodeObject co = CodeObject::load_file(tessera::test::build_kernel("dispatch_kernels", kDispatchKernels));
  return co;
}

ArgValue bytes_of(const void* p, size_t n) {
  ArgValue v;
  v.bytes.assign(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  return v;
}
ArgValue local(uint32_t n) {
  ArgValue v;
  v.kind = ArgValue::Kind::LocalBytes;
  v.local_bytes = n;
  return v;
}

template <class T>
T at(const std::vector<uint8_t>& seg, uint32_t offset) {
  T v;
  std::memcpy(&v, seg.data() + offset, sizeof v);
  return v;
}

}  // namespace

TEST_CASE("dispatch: kernargs at their metadata offsets, __local sizes become LDS offsets", "[dispatch]") {
  const KernelInfo& k = *code().find_kernel("args");
  const auto ex = k.explicit_args();
  REQUIRE(ex.size() == 6);
  const uint64_t ptr = 0x123456789abcull;
  const int32_t a = -7;
  const int64_t b = 1ll << 40;
  const float c = 2.5f;
  LaunchConfig cfg;
  cfg.grid[0] = 128;
  cfg.workgroup[0] = 64;
  cfg.args = {bytes_of(&ptr, 8), bytes_of(&a, 4), local(100), bytes_of(&b, 8), local(64), bytes_of(&c, 4)};
  DispatchContext ctx;
  plan_dispatch(k, cfg, ctx);
  const std::vector<uint8_t> seg = build_kernargs(k, cfg.args, ctx);
  REQUIRE(seg.size() == k.kernarg_segment_size);
  CHECK(at<uint64_t>(seg, ex[0]->offset) == ptr);
  CHECK(at<int32_t>(seg, ex[1]->offset) == a);
  CHECK(at<int64_t>(seg, ex[3]->offset) == b);
  CHECK(at<float>(seg, ex[5]->offset) == c);
  // The first __local buffer starts after the static LDS, the second after the
  // first, both 16-byte aligned.
  const uint32_t l1 = at<uint32_t>(seg, ex[2]->offset), l2 = at<uint32_t>(seg, ex[4]->offset);
  CHECK(l1 == (k.group_segment_fixed_size + 15) / 16 * 16);
  CHECK(l2 == (l1 + 100 + 15) / 16 * 16);
  CHECK(ctx.lds_bytes == l2 + 64);
  // Hidden global offsets are zero.
  for (const KernelArg& h : k.args)
    if (h.value_kind.rfind("hidden_global_offset_", 0) == 0) CHECK(at<uint64_t>(seg, h.offset) == 0);

  SECTION("wrong kinds and sizes are rejected") {
    auto bad = cfg.args;
    bad[2] = bytes_of(&a, 4);
    CHECK_THROWS_WITH(build_kernargs(k, bad, ctx), Catch::Contains("argument 2") && Catch::Contains("__local"));
    bad = cfg.args;
    bad[1] = local(4);
    CHECK_THROWS_WITH(build_kernargs(k, bad, ctx), Catch::Contains("argument 1"));
    bad = cfg.args;
    bad[3] = bytes_of(&a, 4);
    CHECK_THROWS_WITH(build_kernargs(k, bad, ctx), Catch::Contains("8 bytes, 4 bytes given"));
    bad = cfg.args;
    bad[4] = local(70000);
    CHECK_THROWS_WITH(build_kernargs(k, bad, ctx), Catch::Contains("64 KiB"));
    bad.pop_back();
    CHECK_THROWS_WITH(build_kernargs(k, bad, ctx), Catch::Contains("takes 6 arguments, 5 given"));
  }
}

TEST_CASE("dispatch: the AQL packet describes the launch", "[dispatch]") {
  const KernelInfo& k = *code().find_kernel("args");
  LaunchConfig cfg;
  cfg.grid[0] = 100, cfg.grid[1] = 6, cfg.grid[2] = 1;
  cfg.workgroup[0] = 32, cfg.workgroup[1] = 2;
  DispatchContext ctx;
  plan_dispatch(k, cfg, ctx);
  ctx.kernarg_address = 0xabc000;
  ctx.lds_bytes = 512;
  CHECK(ctx.workgroup_count[0] == 4);
  CHECK(ctx.workgroup_count[1] == 3);
  CHECK(ctx.dims == 2);
  CHECK(ctx.waves_per_workgroup == 1);
  const AqlDispatchPacket p = make_dispatch_packet(ctx);
  uint8_t raw[64];
  std::memcpy(raw, &p, 64);
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  std::memcpy(&u16, raw + 0, 2);
  CHECK((u16 & 0xff) == kAqlPacketTypeKernelDispatch);
  std::memcpy(&u16, raw + 2, 2);
  CHECK(u16 == 2);  // dimensions
  std::memcpy(&u16, raw + 4, 2);
  CHECK(u16 == 32);
  std::memcpy(&u16, raw + 6, 2);
  CHECK(u16 == 2);
  std::memcpy(&u32, raw + 12, 4);
  CHECK(u32 == 100);
  std::memcpy(&u32, raw + 16, 4);
  CHECK(u32 == 6);
  std::memcpy(&u32, raw + 28, 4);
  CHECK(u32 == 512);
  std::memcpy(&u64, raw + 32, 8);
  CHECK(u64 == k.descriptor_address);
  std::memcpy(&u64, raw + 40, 8);
  CHECK(u64 == 0xabc000);
}

TEST_CASE("dispatch: initial wave state follows the HSA ABI", "[dispatch]") {
  const KernelInfo& k = *code().find_kernel("spill");
  const KernelDescriptor& kd = k.descriptor;
  REQUIRE(kd.enable_private_segment_buffer);
  REQUIRE(kd.enable_kernarg_segment_ptr);
  REQUIRE(kd.enable_private_segment);
  LaunchConfig cfg;
  cfg.grid[0] = 200, cfg.grid[1] = 3;
  cfg.workgroup[0] = 100;
  DispatchContext ctx;
  plan_dispatch(k, cfg, ctx);
  ctx.packet_address = 0x1000;
  ctx.queue_address = 0x2000;
  ctx.kernarg_address = 0x3000;
  ctx.scratch_address = 0x40000;
  ctx.scratch_lane_bytes = 512;
  ctx.scratch_wave_bytes = 512 * 64;
  Wave w(kd.arch_vgprs(), kd.agprs());
  const uint32_t wg[3] = {1, 2, 0};
  setup_wave(w, ctx, wg, 1);

  // User SGPRs in ABI order.
  unsigned s = 0;
  uint32_t srd[4];
  private_segment_buffer(ctx, srd);
  for (unsigned i = 0; i < 4; ++i) CHECK(w.s(s++) == srd[i]);
  CHECK((srd[0] | (uint64_t(srd[1] & 0xffff) << 32)) == 0x40000);
  CHECK(srd[1] >> 31 == 1);         // swizzled
  CHECK(((srd[3] >> 23) & 1) == 1);  // thread id added to the index
  if (kd.enable_dispatch_ptr) CHECK(w.s64(static_cast<uint16_t>((s += 2) - 2)) == 0x1000);
  if (kd.enable_queue_ptr) CHECK(w.s64(static_cast<uint16_t>((s += 2) - 2)) == 0x2000);
  CHECK(w.s64(static_cast<uint16_t>(s)) == 0x3000);
  // System SGPRs: workgroup ids, then the private segment wave offset.
  s = kd.user_sgpr_count;
  CHECK(w.s(static_cast<uint16_t>(s++)) == 1);
  if (kd.enable_workgroup_id[1]) CHECK(w.s(static_cast<uint16_t>(s++)) == 2);
  if (kd.enable_workgroup_id[2]) s++;
  CHECK(w.s(static_cast<uint16_t>(s)) == 512 * 64);  // wave 1 of the workgroup

  // Wave 1 holds work-items 64..99 of the 100-wide workgroup: 36 lanes.
  CHECK(w.exec() == (1ull << 36) - 1);
  CHECK(w.v(0)[0] == 64);
  CHECK(w.v(0)[35] == 99);
  CHECK(w.pc == k.entry_address);
  CHECK(w.scratch_base() == 0x40000 + 512 * 64);
  CHECK(w.mode.ieee == kd.ieee_mode);
  CHECK(w.mode.f32_denorms == (kd.float_denorm_mode_32 == 3));

  // The last workgroup in x is partial: 200 - 100 = 100 items, still 2 waves.
  uint32_t ext[3];
  const uint32_t last[3] = {1, 2, 0};
  workgroup_extent(ctx, last, ext);
  CHECK(ext[0] == 100);
  CHECK(ext[1] == 1);
}

TEST_CASE("dispatch: packed work-item ids in v0 for a 3-D workgroup", "[dispatch]") {
  const KernelInfo& k = *code().find_kernel("args");
  LaunchConfig cfg;
  cfg.grid[0] = 8, cfg.grid[1] = 4, cfg.grid[2] = 4;
  cfg.workgroup[0] = 8, cfg.workgroup[1] = 4, cfg.workgroup[2] = 4;  // 128 items: 2 waves
  DispatchContext ctx;
  plan_dispatch(k, cfg, ctx);
  Wave w(k.descriptor.arch_vgprs(), k.descriptor.agprs());
  const uint32_t wg[3] = {0, 0, 0};
  setup_wave(w, ctx, wg, 1);
  CHECK(w.exec() == ~0ull);
  for (unsigned lane = 0; lane < 64; ++lane) {
    const unsigned flat = 64 + lane;
    const uint32_t expect = (flat % 8) | ((flat / 8 % 4) << 10) | ((flat / 32) << 20);
    REQUIRE(w.v(0)[lane] == expect);
  }
}
