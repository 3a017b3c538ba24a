// The compute unit with memory: occupancy limits, LDS bank conflicts in the
// pipeline, results equal to the functional executor, fault reports, and
// functional mode. Timing conventions as in compute_unit_test.cpp: 1 ns
// cycles, fetch 10 / scalar 20 / vector 100 cycles, responses used the cycle
// after they arrive, launch_latency 0.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <random>

#include "models/cu/isa/executor.h"
#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

uint64_t resident_max(const CuRig& rig) {
  return rig.platform.stats.find("cu[0]")->to_json()["resident_waves"]["max"].get<uint64_t>();
}

// One wave per workgroup that stays resident for 10 x 64 cycles.
AsmKernel sleeper(unsigned vgprs, unsigned sgprs, unsigned lds) {
  AsmKernel k;
  k.name = "sleeper";
  k.body = "s_sleep 10\ns_endpgm";
  k.vgprs = vgprs;
  k.sgprs = sgprs;
  k.lds = lds;
  return k;
}

void occupancy(const AsmKernel& k, unsigned workgroups, unsigned expected_resident) {
  CuRig rig(assemble(k), "sleeper", quiet());
  rig.launch(0, workgroups * 64, 64);
  rig.run();
  CHECK(rig.dispatcher.finished.size() == workgroups);
  CHECK(resident_max(rig) == expected_resident);
  CHECK(rig.dispatcher.refusals > 0);
  CHECK(rig.stat("waves_launched") == workgroups);
}

}  // namespace

// 4 SIMDs x 10 slots.
TEST_CASE("compute unit occupancy: wave slots limit a small kernel to 40 waves", "[cu]") {
  occupancy(sleeper(8, 16, 0), 48, 40);
}

// 128 VGPRs per wave: 512 / 128 = 4 waves per SIMD.
TEST_CASE("compute unit occupancy: 128 VGPRs allow 4 waves per SIMD", "[cu]") { occupancy(sleeper(128, 16, 0), 24, 16); }

// 96 SGPRs per wave (a multiple of the granule 16): 800 / 96 = 8 per SIMD.
TEST_CASE("compute unit occupancy: 96 SGPRs allow 8 waves per SIMD", "[cu]") { occupancy(sleeper(8, 96, 0), 40, 32); }

// 16 KiB of LDS per workgroup: 64 KiB / 16 KiB = 4 workgroups.
TEST_CASE("compute unit occupancy: 16 KiB of LDS per workgroup allow 4 workgroups", "[cu]") {
  occupancy(sleeper(8, 16, 16384), 8, 4);
}

// A workgroup that can never fit is answered with a fault instead of waiting forever.
TEST_CASE("compute unit occupancy: a workgroup larger than the CU fails with a clear report", "[cu]") {
  CuRig rig(assemble(sleeper(8, 16, 0)), "sleeper", quiet({{"simds", 1}, {"wave_slots", 2}}));
  rig.launch(0, 192, 192);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.find("has 3 waves, the CU has 2 wave slots") != std::string::npos);
}

namespace {

// v1 = lane << shift (a byte address), one ds_read_b32 from it, wait, end.
//   11 v_lshlrev_b32 (ready 15)   15 ds_read_b32: the LDS busy C cycles, done at 15 + C + 32
//   15 + C + 32 s_waitcnt lgkmcnt(0)   then s_endpgm: the workgroup finishes at 48 + C.
void lds_stride(const std::string& address, unsigned cycles, unsigned conflicts) {
  AsmKernel k;
  k.name = "ldsread";
  k.lds = 8192;
  k.body = address + "\nds_read_b32 v2, v1\ns_waitcnt lgkmcnt(0)\ns_endpgm";
  CuRig rig(assemble(k), "ldsread", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  CHECK(rig.finish_cycle() == 48 + cycles);
  CHECK(rig.stat("lds_busy_cycles") == cycles);
  CHECK(rig.stat("lds_conflict_cycles") == conflicts);
  CHECK(rig.stat("stall_waiting_lds") == 31 + cycles);  // cycles 16 .. 46 + C
}

}  // namespace

TEST_CASE("compute unit LDS: consecutive dwords read without conflicts in 2 cycles", "[cu]") {
  lds_stride("v_lshlrev_b32 v1, 2, v0", 2, 0);
}
TEST_CASE("compute unit LDS: a 2-dword stride costs 2 cycles per 32 lanes", "[cu]") {
  lds_stride("v_lshlrev_b32 v1, 3, v0", 4, 2);
}
TEST_CASE("compute unit LDS: a 32-dword stride puts 32 lanes in one bank", "[cu]") {
  lds_stride("v_lshlrev_b32 v1, 7, v0", 64, 62);
}
TEST_CASE("compute unit LDS: one address for all lanes is a broadcast", "[cu]") {
  lds_stride("v_mov_b32 v1, 0", 2, 0);
}

namespace {

const char* kKernels = R"CL(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] * 3.0f + b[i];
}
__kernel void block_sum(__global const int* in, __global int* out) {
  __local int tmp[256];
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
__kernel void histogram(__global const uint* in, __global uint* bins, uint n) {
  uint i = get_global_id(0);
  if (i < n) atomic_inc(&bins[in[i] % 16]);
}
__kernel void private_array(__global const int* in, __global int* out, int k) {
  int arr[64];
  int g = get_global_id(0);
  for (int i = 0; i < 64; ++i) arr[i] = in[(g + i) & 63] * i;
  out[g] = arr[(g * k) & 63] + arr[(g + k) & 63];
}
__kernel void ticket(__global uint* counter, __global uint* out) {
  out[get_global_id(0)] = atomic_add(counter, 1u);
}
__kernel void gather(__global const int* in, __global const int* idx, __global int* out) {
  int i = get_global_id(0);
  out[i] = in[idx[i]] + (int)get_group_id(0);
}
)CL";

isa::ArgValue pointer(uint64_t p) {
  isa::ArgValue a;
  a.bytes.resize(8);
  std::memcpy(a.bytes.data(), &p, 8);
  return a;
}
isa::ArgValue int_arg(int32_t v) {
  isa::ArgValue a;
  a.bytes.resize(4);
  std::memcpy(a.bytes.data(), &v, 4);
  return a;
}

// Runs `kernel` on the cycle-level CU and on the functional executor, each
// with its own device memory holding the same inputs (allocated in the same
// order, so at the same addresses), and compares every buffer afterwards.
// Returns the debug reads the CU made of vector and scalar memory.
// `check`, if given, looks at the CU's rig afterwards (its statistics).
unsigned same_as_functional_in(const std::string& path, const std::string& kernel,
                               const std::vector<std::vector<uint32_t>>& buffers, const std::vector<int32_t>& ints,
                               uint32_t grid, uint32_t block, const json& cu_params,
                               const std::function<void(CuRig&)>& check = {}) {
  CuRig rig(path, kernel, cu_params);
  isa::DeviceMemory ref_mem;
  isa::CodeObject ref_code = isa::CodeObject::load_file(path);
  isa::DecodeCache ref_program(ref_code);
  isa::LaunchConfig cfg;
  cfg.grid[0] = grid;
  cfg.workgroup[0] = block;
  std::vector<uint64_t> addr;
  for (const auto& b : buffers) {
    const uint64_t a = rig.device.alloc(b.size() * 4);
    REQUIRE(ref_mem.alloc(b.size() * 4) == a);
    rig.device.write(a, b.data(), b.size() * 4);
    ref_mem.write(a, b.data(), b.size() * 4);
    addr.push_back(a);
    cfg.args.push_back(pointer(a));
  }
  for (int32_t v : ints) cfg.args.push_back(int_arg(v));
  rig.launch(cfg);
  rig.run();
  for (const auto& f : rig.dispatcher.finished) REQUIRE(f.fault.empty());
  isa::Executor ex(ref_mem);
  const isa::ExecStats ref = ex.launch(ref_program, *ref_code.find_kernel(kernel), cfg);
  CHECK(rig.stat("instructions") == ref.wave_instructions);
  for (size_t i = 0; i < buffers.size(); ++i) {
    std::vector<uint32_t> got(buffers[i].size()), want(buffers[i].size());
    rig.device.read(got.data(), addr[i], got.size() * 4);
    ref_mem.read(want.data(), addr[i], want.size() * 4);
    CHECK(got == want);
  }
  if (check) check(rig);
  return rig.vmem.debug_accesses + rig.smem.debug_accesses;
}

// The same for a kernel of this file's kKernels.
unsigned same_as_functional(const std::string& kernel, const std::vector<std::vector<uint32_t>>& buffers,
                            const std::vector<int32_t>& ints, uint32_t grid, uint32_t block,
                            const json& cu_params = json::object()) {
  return same_as_functional_in(build_kernel("cu_equal", kKernels), kernel, buffers, ints, grid, block, cu_params);
}

std::vector<uint32_t> random_words(size_t n, uint32_t seed, uint32_t mod) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng() % mod;
  return v;
}

std::vector<uint32_t> floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-100.f, 100.f);
  std::vector<uint32_t> v(n);
  for (auto& x : v) {
    const float f = d(rng);
    std::memcpy(&x, &f, 4);
  }
  return v;
}

}  // namespace

TEST_CASE("compute unit results: vector add with a partial workgroup equals the functional executor", "[cu]") {
  const int n = 1000;
  same_as_functional("vadd", {floats(n, 1), floats(n, 2), std::vector<uint32_t>(n + 8, 7)}, {n}, 1024, 256);
}

TEST_CASE("compute unit results: an LDS tree reduction with barriers equals the functional executor", "[cu]") {
  same_as_functional("block_sum", {random_words(1024, 3, 1000), std::vector<uint32_t>(4, 0)}, {}, 1024, 256);
}

TEST_CASE("compute unit results: atomics on shared bins equal the functional executor", "[cu]") {
  const int n = 2000;
  same_as_functional("histogram", {random_words(n, 4, 1u << 30), std::vector<uint32_t>(16, 0)}, {n}, 2048, 128);
}

TEST_CASE("compute unit results: scattered loads equal the functional executor", "[cu]") {
  same_as_functional("gather", {random_words(4096, 5, 1u << 20), random_words(1024, 6, 4096), std::vector<uint32_t>(1024, 0)},
                     {}, 1024, 64);
}

TEST_CASE("compute unit results: private arrays in scratch equal the functional executor", "[cu]") {
  same_as_functional("private_array", {random_words(64, 7, 1000), std::vector<uint32_t>(256, 0)}, {5}, 256, 128);
}

// Values apart from timing (load_values execute): loads read their bytes
// when they execute, through the memory's debug transport, and their
// responses only time them. The bytes are the same as the functional
// executor's; a wave with its own stores in flight (the scratch array) reads
// from the responses.
TEST_CASE("compute unit results: loads valued at execute give the functional executor's bytes", "[cu]") {
  const json execute = {{"load_values", "execute"}};
  CHECK(same_as_functional("gather", {random_words(4096, 5, 1u << 20), random_words(1024, 6, 4096),
                                      std::vector<uint32_t>(1024, 0)},
                           {}, 1024, 64, execute) > 0);
}

TEST_CASE("compute unit results: loads valued at execute behind the wave's own stores", "[cu]") {
  const json execute = {{"load_values", "execute"}};
  CHECK(same_as_functional("private_array", {random_words(64, 7, 1000), std::vector<uint32_t>(256, 0)}, {5}, 256,
                           128, execute) > 0);
}

// The lazy unit (lazy_loads, docs/LAZYGPU.md) defers global loads: the
// results stay the functional executor's, with gathers, barriers, atomics,
// scratch and loads behind the wave's own stores. A deferred load is valued
// by debug reads (load_values is "response" here), so their count shows that
// loads were deferred.
const json kLazyLoads = {{"lazy_loads", true}};

TEST_CASE("compute unit results: lazy loads in a vector add equal the functional executor", "[cu][lazy]") {
  const int n = 1000;
  CHECK(same_as_functional("vadd", {floats(n, 1), floats(n, 2), std::vector<uint32_t>(n + 8, 7)}, {n}, 1024, 256,
                           kLazyLoads) > 0);
}

TEST_CASE("compute unit results: lazy loads in a gather equal the functional executor", "[cu][lazy]") {
  CHECK(same_as_functional("gather", {random_words(4096, 5, 1u << 20), random_words(1024, 6, 4096),
                                      std::vector<uint32_t>(1024, 0)},
                           {}, 1024, 64, kLazyLoads) > 0);
}

TEST_CASE("compute unit results: lazy loads across barriers equal the functional executor", "[cu][lazy]") {
  CHECK(same_as_functional("block_sum", {random_words(1024, 3, 1000), std::vector<uint32_t>(4, 0)}, {}, 1024, 256,
                           kLazyLoads) > 0);
}

TEST_CASE("compute unit results: lazy loads with atomics equal the functional executor", "[cu][lazy]") {
  CHECK(same_as_functional("histogram", {random_words(2000, 4, 1u << 30), std::vector<uint32_t>(16, 0)}, {2000}, 2048,
                           128, kLazyLoads) > 0);
}

TEST_CASE("compute unit results: lazy loads behind the wave's own stores equal the functional executor", "[cu][lazy]") {
  CHECK(same_as_functional("private_array", {random_words(64, 7, 1000), std::vector<uint32_t>(256, 0)}, {5}, 256, 128,
                           kLazyLoads) > 0);
}

TEST_CASE("compute unit results: loads valued from their responses make no debug reads", "[cu]") {
  CHECK(same_as_functional("gather", {random_words(4096, 5, 1u << 20), random_words(1024, 6, 4096),
                                      std::vector<uint32_t>(1024, 0)},
                           {}, 1024, 64) == 0);
}

// Flat accesses through the shared aperture reach the CU's own LDS: lane L
// writes L*3 to LDS with ds_write, then reads it back with flat_load_dword
// from the flat address (src_shared_base << 32) + L*4 and stores it to out[L].
TEST_CASE("compute unit results: flat loads through the shared aperture read the LDS", "[cu]") {
  AsmKernel k;
  k.name = "flatlds";
  k.lds = 256;
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v2, 2, v0
v_mul_u32_u24 v1, 3, v0
ds_write_b32 v2, v1
s_mov_b32 s7, src_shared_base
v_mov_b32 v3, s7
s_waitcnt lgkmcnt(0)
flat_load_dword v4, v[2:3]
s_waitcnt vmcnt(0) lgkmcnt(0)
global_store_dword v2, v4, s[4:5]
s_endpgm)";
  CuRig rig(assemble(k), "flatlds", quiet());
  const uint64_t out = rig.device.alloc(256);
  rig.launch(out, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  std::vector<uint32_t> got(64);
  rig.device.read(got.data(), out, 256);
  for (uint32_t l = 0; l < 64; ++l) CHECK(got[l] == 3 * l);
  CHECK(rig.stat("vmem_requests") == 4);  // only the global store: 256 bytes in four 64-byte lines
}

// Atomics that return the old value: every work-item takes a ticket from one
// counter. The order is the memory system's, so the tickets are a
// permutation of 0..n-1 and the counter ends at n.
TEST_CASE("compute unit results: returning atomics hand out every ticket once", "[cu]") {
  const std::string path = build_kernel("cu_equal", kKernels);
  CuRig rig(path, "ticket", json::object());
  const uint32_t n = 1024;
  const uint64_t counter = rig.device.alloc(4), out = rig.device.alloc(n * 4);
  isa::LaunchConfig cfg;
  cfg.grid[0] = n;
  cfg.workgroup[0] = 256;
  cfg.args = {pointer(counter), pointer(out)};
  rig.launch(cfg);
  rig.run();
  for (const auto& f : rig.dispatcher.finished) REQUIRE(f.fault.empty());
  uint32_t final_count = 0;
  rig.device.read(&final_count, counter, 4);
  CHECK(final_count == n);
  std::vector<uint32_t> tickets(n);
  rig.device.read(tickets.data(), out, n * 4);
  std::sort(tickets.begin(), tickets.end());
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  CHECK(tickets == all);
  CHECK(rig.stat("issued_atomic") >= 16);  // at least one per wave (the compiler may combine lanes)
}

// Lane L stores to out + L MiB: lane 0 is inside the 64-byte allocation,
// lane 1 is the first outside. The wave faults at issue of the store.
TEST_CASE("compute unit faults: a store outside every allocation names the wave and PC and address", "[cu]") {
  AsmKernel k;
  k.name = "badstore";
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_lshlrev_b32 v1, 20, v0
global_store_dword v1, v0, s[4:5]
s_endpgm)";
  CuRig rig(assemble(k), "badstore", quiet());
  const uint64_t out = rig.device.alloc(64);
  rig.launch(out, 128, 128);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  const std::string& f = rig.dispatcher.finished[0].fault;
  INFO(f);
  CHECK(f.find("kernel 'badstore'") != std::string::npos);
  CHECK(f.find("wave 0") != std::string::npos);
  const uint64_t pc = rig.info->entry_address + 16;  // s_load (8) + s_waitcnt (4) + v_lshlrev (4)
  char pc_text[32], addr_text[32];
  std::snprintf(pc_text, sizeof pc_text, "PC 0x%llx", static_cast<unsigned long long>(pc));
  std::snprintf(addr_text, sizeof addr_text, "0x%llx", static_cast<unsigned long long>(out + (1u << 20)));
  CHECK(f.find(pc_text) != std::string::npos);
  CHECK(f.find("global_store_dword") != std::string::npos);
  CHECK(f.find(addr_text) != std::string::npos);
  CHECK(rig.stat("faults") == 1);
  CHECK(rig.stat("vmem_requests") == 0);  // nothing of the faulting store left the CU
}

// Functional mode: the CU runs the workgroup inside the offer and answers it
// finished, with no simulated time.
TEST_CASE("compute unit functional mode: workgroups finish at once with the functional results", "[cu]") {
  const std::string path = build_kernel("cu_equal", kKernels);
  CuRig rig(path, "block_sum", json::object());
  const std::vector<uint32_t> in = random_words(512, 9, 1000);
  const uint64_t a = rig.device.alloc(512 * 4), b = rig.device.alloc(8);
  rig.device.write(a, in.data(), 512 * 4);
  isa::LaunchConfig cfg;
  cfg.grid[0] = 512;
  cfg.workgroup[0] = 256;
  cfg.args = {pointer(a), pointer(b)};
  rig.launch(cfg, true);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 2);
  CHECK(rig.finish_cycle() == 0);
  uint32_t sums[2];
  rig.device.read(sums, b, 8);
  CHECK(sums[0] == std::accumulate(in.begin(), in.begin() + 256, 0u));
  CHECK(sums[1] == std::accumulate(in.begin() + 256, in.end(), 0u));
  CHECK(rig.stat("workgroups_functional") == 2);
  CHECK(rig.stat("instructions") == 0);
  CHECK(rig.stat("functional_instructions") > 0);
  CHECK(rig.dispatcher.finished[0].wave_instructions > 0);
}

// Back-pressure: the vector memory is a `memory` block that accepts one
// request at a time (queue_depth 1) and withholds END_REQ meanwhile; a
// request is answered 21 cycles after it is accepted (1 ns to move 64 bytes
// at 64 GB/s, then 20 ns). A global_load_dwordx4 over 64 lanes x 16 bytes is
// 16 line requests:
//   33 load issues, request 1 sent and accepted, answered at 54
//   34 request 2 sent; END_REQ withheld until 54; answered at 75; request k
//      accepted at 54 + 21(k-2), request 16 answered at 369, used at 370
//  370 s_waitcnt, 371 the store (16 whole-line writes): request 1 answered
//      at 392, request 16 at 392 + 15 x 21 = 707, used at 708
//  708 s_waitcnt, 709 s_endpgm.
TEST_CASE("compute unit back-pressure: requests wait for END_REQ from a full memory", "[cu]") {
  AsmKernel k;
  k.name = "wide";
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 4, v0
v_mov_b32 v2, 7
s_waitcnt lgkmcnt(0)
global_load_dwordx4 v[4:7], v1, s[4:5]
s_waitcnt vmcnt(0)
global_store_dwordx4 v1, v[4:7], s[4:5]
s_waitcnt vmcnt(0)
s_endpgm)";
  MiniPlatform p;
  isa::DeviceMemory& device = p.shared.get<isa::DeviceMemory>("device");
  const std::string path = assemble(k);
  isa::CodeObject code = isa::CodeObject::load_file(path);
  isa::DecodeCache program(code);
  ComputeUnit& cu = p.create<ComputeUnit>("compute_unit", "cu[0]", quiet());
  Block& mem = p.create("memory", "vmem", {{"base", "0x100000000"}, {"size", "1 GiB"}, {"latency", "20 ns"},
                                            {"bandwidth", "64 GB/s"}, {"queue_depth", 1}});
  LatencyMemory smem("smem_mem", device, ns(20)), fetch("fetch_mem", device, ns(10));
  TestDispatcher dispatcher("dispatcher");
  dispatcher.socket.bind(cu.dispatch);
  cu.vmem.bind(*mem.target_socket("in", -1));
  cu.smem.bind(smem.socket);
  cu.ifetch.bind(fetch.socket);
  const uint64_t out = device.alloc(1024);
  isa::LaunchConfig cfg;
  cfg.grid[0] = cfg.workgroup[0] = 64;
  cfg.args.push_back(pointer(out));
  isa::PreparedDispatch prepared(device, program, *code.find_kernel("wide"), cfg, 0);
  WorkgroupTask t;
  t.ctx = &prepared.ctx();
  t.program = &program;
  dispatcher.tasks.push_back(t);
  sc_core::sc_start();
  REQUIRE(dispatcher.finished.size() == 1);
  CHECK(dispatcher.finished[0].fault.empty());
  CHECK(p.stat("cu[0]", "vmem_requests") == 16 + 16);  // the load's 16 lines, then the store's 16
  CHECK(p.stat("vmem", "reads") == 16);
  CHECK(p.stat("vmem", "writes") == 16);
  CHECK(dispatcher.finish_times.at(0) == ns(709));
}

// An idle CU costs nothing: its process never runs. A CU whose only wave
// waits for memory sleeps through the wait: the s_waitcnt kernel of
// compute_unit_test.cpp (244 cycles) runs its process on 13 cycles only:
// 0 and 1 (fetches), 11 (s_load), 12 (the second block), 32 (s_waitcnt),
// 33 (v_mov), 37 (load), 138 (s_waitcnt), 139 (v_add), 143 (store),
// 144 (s_endpgm), 150 (a block prefetched past the end returns), 244 (the
// store is back: the wave retires).
TEST_CASE("compute unit idle: a CU without work never runs and a waiting CU sleeps", "[cu]") {
  AsmKernel k;
  k.name = "loadstore";
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
s_waitcnt lgkmcnt(0)
v_mov_b32 v1, 0
global_load_dword v2, v1, s[4:5]
s_waitcnt vmcnt(0)
v_add_u32 v2, 1, v2
global_store_dword v1, v2, s[4:5]
s_endpgm)";
  CuRig rig(assemble(k), "loadstore", quiet());
  ComputeUnit& idle = rig.platform.create<ComputeUnit>("compute_unit", "cu[1]", quiet());
  LatencyMemory m1("m1", rig.device, ns(10)), m2("m2", rig.device, ns(10)), m3("m3", rig.device, ns(10));
  TestDispatcher d1("d1");
  d1.socket.bind(idle.dispatch);
  idle.vmem.bind(m1.socket);
  idle.smem.bind(m2.socket);
  idle.ifetch.bind(m3.socket);
  const uint64_t out = rig.device.alloc(64);
  rig.launch(out, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 244);
  CHECK(rig.platform.stat("cu[1]", "ticks") == 0);
  CHECK(rig.platform.stat("cu[1]", "active_cycles") == 0);
  CHECK(rig.stat("ticks") == 13);
  CHECK(rig.stat("active_cycles") == 244);
}

// Zero-mask queries (zero_queries, docs/LAZYGPU.md) against a memory without
// zero caches (the queries are read like data there): inputs with runs of
// zeros, lazily (lazycore_zc, and with ⊗: lazygpu) and eagerly (eager_zc),
// give the functional executor's bytes.
namespace {
std::vector<uint32_t> with_zero_runs(std::vector<uint32_t> v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (i / 16 % 3 != 1) v[i] = 0;  // two 64-byte lines of zeros in every three
  return v;
}
}  // namespace

TEST_CASE("compute unit results: zero queries with lazy loads equal the functional executor", "[cu][lazy][zero]") {
  const int n = 1000;
  const json zc = {{"lazy_loads", true}, {"zero_queries", true}};
  CHECK(same_as_functional("vadd", {with_zero_runs(floats(n, 1)), floats(n, 2), std::vector<uint32_t>(n + 8, 7)}, {n},
                           1024, 256, zc) > 0);
}

TEST_CASE("compute unit results: zero queries with lazy loads in a gather equal the functional executor",
          "[cu][lazy][zero]") {
  const json zc = {{"lazy_loads", true}, {"zero_queries", true}};
  CHECK(same_as_functional("gather", {with_zero_runs(random_words(4096, 5, 1u << 20)), random_words(1024, 6, 4096),
                                      std::vector<uint32_t>(1024, 0)},
                           {}, 1024, 64, zc) > 0);
}

TEST_CASE("compute unit results: zero queries with lazy loads and zero products equal the functional executor",
          "[cu][lazy][zero]") {
  const int n = 1000;
  const json all = {{"lazy_loads", true}, {"zero_queries", true}, {"lazy_zero_products", true}};
  CHECK(same_as_functional("vadd", {with_zero_runs(floats(n, 1)), with_zero_runs(floats(n, 2)),
                                    std::vector<uint32_t>(n + 8, 7)},
                           {n}, 1024, 256, all) > 0);
}

TEST_CASE("compute unit results: zero queries with eager loads equal the functional executor", "[cu][zero]") {
  const int n = 1000;
  const json eager = {{"zero_queries", true}};
  CHECK(same_as_functional("vadd", {with_zero_runs(floats(n, 1)), with_zero_runs(floats(n, 2)),
                                    std::vector<uint32_t>(n + 8, 7)},
                           {n}, 1024, 256, eager) > 0);
}

// The wave's own stores in flight: its loads go as without queries.
TEST_CASE("compute unit results: zero queries with eager loads behind the wave's own stores", "[cu][zero]") {
  const json eager = {{"zero_queries", true}};
  same_as_functional("private_array", {with_zero_runs(random_words(64, 7, 1000)), std::vector<uint32_t>(256, 0)}, {5},
                     256, 128, eager);
}

// The pruned layer by dense code (sw/kernels/pruned_gemv_dense.cl: every
// weight multiplied, the weight the v_fmac_f32's src0), 8 rows of 259 weights of
// which about 60 % are pruned, with lazy loads and zero queries, with and
// without ⊗ elimination: the result is the functional executor's, bit for bit.
namespace {
void pruned_gemv_same_as_functional(const std::string& kernel, int cols, const json& cu_params,
                                    const std::function<void(CuRig&, size_t)>& check) {
  const int rows = 8;
  std::vector<uint32_t> w = floats(size_t(rows) * size_t(cols), 11);
  std::mt19937 rng(12);
  size_t zero_weights = 0;
  for (auto& v : w)
    if (rng() % 10 < 6) v = 0, ++zero_weights;
  const std::string code = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/" + kernel + ".hsaco";
  same_as_functional_in(code, kernel, {w, floats(size_t(cols), 13), std::vector<uint32_t>(rows, 0)},
                        {rows, cols}, rows * 64, 64, cu_params, [&](CuRig& rig) { check(rig, zero_weights); });
}
void dense_gemv_same_as_functional(const json& cu_params, const std::function<void(CuRig&, size_t)>& check) {
  pruned_gemv_same_as_functional("pruned_gemv_dense", 259, cu_params, check);
}
}  // namespace

// With ⊗ elimination the x lane of every zero weight is suspended, then
// eliminated when the next iteration's load overwrites it (or the wave ends).
TEST_CASE("compute unit results: the dense pruned GEMV with zero products suspends the x of every zero weight",
          "[cu][lazy][zero]") {
  dense_gemv_same_as_functional({{"lazy_loads", true}, {"zero_queries", true}, {"lazy_zero_products", true}},
                                [](CuRig& rig, size_t zero_weights) {
                                  CHECK(rig.stat("lazy_suspended_lanes") == zero_weights);
                                  CHECK(rig.stat("lazy_eliminated_zero_product") == zero_weights);
                                });
}

TEST_CASE("compute unit results: the dense pruned GEMV without zero products suspends nothing", "[cu][lazy][zero]") {
  dense_gemv_same_as_functional({{"lazy_loads", true}, {"zero_queries", true}}, [](CuRig& rig, size_t) {
    CHECK(rig.stat("lazy_suspended_lanes") == 0);
    CHECK(rig.stat("lazy_eliminated_zero_cache") > 0);
  });
}

// The same layer by the unrolled kernel (sw/kernels/pruned_gemv_unrolled.cl:
// 8 weight and 8 x loads per lane before the first FMA), 8 rows of 1 027
// weights (two unrolled steps and a remainder of 3): with lazy loads, zero
// queries and ⊗, 16 deferred loads per wave at a time, the result is the
// functional executor's, and every zero weight's x lane is suspended and
// eliminated; eagerly with queries, the same result.
TEST_CASE("compute unit results: the unrolled pruned GEMV with zero products suspends the x of every zero weight",
          "[cu][lazy][zero]") {
  pruned_gemv_same_as_functional("pruned_gemv_unrolled", 1027,
                                 {{"lazy_loads", true}, {"zero_queries", true}, {"lazy_zero_products", true}},
                                 [](CuRig& rig, size_t zero_weights) {
                                   CHECK(rig.stat("lazy_eliminated_zero_cache") >= zero_weights);
                                   CHECK(rig.stat("lazy_suspended_lanes") == zero_weights);
                                   CHECK(rig.stat("lazy_eliminated_zero_product") == zero_weights);
                                 });
}

TEST_CASE("compute unit results: the unrolled pruned GEMV with eager zero queries equals the functional executor",
          "[cu][zero]") {
  pruned_gemv_same_as_functional("pruned_gemv_unrolled", 1027, {{"zero_queries", true}},
                                 [](CuRig& rig, size_t) { CHECK(rig.stat("zero_queries") > 0); });
}
