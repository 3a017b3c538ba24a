// The cycle-level compute unit: exact cycle counts for issue, dependencies,
// throughput, memory waits and barriers on hand-written gfx90a kernels.
//
// The rig (compute_unit_harness.h) runs at 1 GHz (a cycle is 1 ns) with an
// instruction fetch latency of 10 cycles, scalar memory 20 and vector memory
// 100, and launch_latency 0 unless a test says otherwise. The CU sees a
// response from the first clock edge after it arrives: a request sent at
// cycle c to a memory of latency L is answered at c + L and used at c + L + 1.
// With fetch_bytes 32 and ib_depth 2 a wave fetches its first two blocks at
// cycles 0 and 1; they arrive at 10 and 11, so its first instruction issues
// at cycle 11.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

std::string repeat(const std::string& line, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += line + "\n";
  return s;
}

}  // namespace

// 16 v_add_f32 each reading the previous result: with valu_latency 8 each
// waits 8 cycles for its predecessor. Issue cycles 11, 19, ..., 11 + 15*8 =
// 131; s_endpgm at 132, and with nothing outstanding the workgroup finishes
// there. 15 waits of 7 cycles are dependency stalls; cycles 0..10 wait for the
// first fetch.
TEST_CASE("compute unit: a chain of dependent VALU ops waits valu_latency each", "[cu]") {
  AsmKernel k;
  k.name = "chain";
  k.body = repeat("v_add_f32 v1, v1, v1", 16) + "s_endpgm";
  CuRig rig(assemble(k), "chain", quiet({{"valu_latency", 8}}));
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  CHECK(rig.finish_cycle() == 132);
  CHECK(rig.stat("issued_valu") == 16);
  CHECK(rig.stat("instructions") == 17);
  CHECK(rig.stat("stall_dependency") == 15 * 7);
  CHECK(rig.stat("stall_no_instruction") == 11);
  CHECK(rig.stat("active_cycles") == 132);
}

// Independent VALU ops of one wave: the SIMD takes one every 4 cycles
// (64 lanes / 16 per cycle): issue at 11, 15, ..., 71; s_endpgm at 72.
TEST_CASE("compute unit: independent VALU ops issue every 4 cycles on one SIMD", "[cu]") {
  AsmKernel k;
  k.name = "indep";
  std::string body;
  for (int i = 0; i < 16; ++i) body += "v_add_f32 v" + std::to_string(2 + i % 4) + ", v0, v1\n";
  k.body = body + "s_endpgm";
  CuRig rig(assemble(k), "indep", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 72);
  CHECK(rig.stat("stall_structural") == 15 * 3);
  CHECK(rig.stat("stall_dependency") == 0);
}

namespace {

// 16 independent VALU ops and s_endpgm, one wave per workgroup.
AsmKernel sixteen_valu() {
  AsmKernel k;
  k.name = "sixteen";
  for (int i = 0; i < 16; ++i) k.body += "v_add_f32 v" + std::to_string(2 + i % 4) + ", v0, v1\n";
  k.body += "s_endpgm";
  return k;
}

std::vector<uint64_t> finish_cycles(const CuRig& rig) {
  std::vector<uint64_t> v;
  for (const auto& t : rig.dispatcher.finish_times) v.push_back(uint64_t(t.to_seconds() * 1e9 + 0.5));
  return v;
}

}  // namespace

// Four one-wave workgroups. The CU fetches one block per cycle, so wave k's
// two blocks go out at cycles 2k and 2k+1 and it starts at 11 + 2k. On four
// SIMDs the waves run side by side and end at 72 + 2k. On one SIMD the oldest
// wave keeps the SIMD whenever it is ready: wave k's 16 ops take cycles
// 11 + 64k ... 71 + 64k and it ends one cycle after its last op.
void run_four_waves(int simds, const std::vector<uint64_t>& expected) {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet({{"simds", simds}}));
  rig.launch(0, 4 * 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 4);
  CHECK(finish_cycles(rig) == expected);
  CHECK(rig.stat("issued_valu") == 64);
}

TEST_CASE("compute unit: four waves run in parallel on four SIMDs", "[cu]") { run_four_waves(4, {72, 74, 76, 78}); }

TEST_CASE("compute unit: four waves serialise on one SIMD under oldest-first", "[cu]") {
  run_four_waves(1, {72, 136, 200, 264});
}

// Round-robin priority shares the one SIMD: the SIMD still never idles from
// cycle 11 (64 ops x 4 cycles, the last at 263, its s_endpgm at 264), but the
// first workgroup no longer finishes first, at 72.
TEST_CASE("compute unit: the round-robin scheduler shares a SIMD between waves", "[cu]") {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet({{"simds", 1}, {"scheduler", "round_robin"}}));
  rig.launch(0, 4 * 64, 64);
  rig.run();
  const std::vector<uint64_t> f = finish_cycles(rig);
  REQUIRE(f.size() == 4);
  CHECK(f.back() == 264);
  CHECK(f.front() > 200);
}

// s_waitcnt waits exactly for the configured latencies (scalar 20, vector 100),
// each response used the cycle after it arrives:
//   11 s_load_dwordx2 (answered at 31)     32 s_waitcnt lgkmcnt(0)
//   33 v_mov_b32 v1 (ready 37)             37 global_load_dword (needs v1; answered at 137)
//  138 s_waitcnt vmcnt(0)                 139 v_add_u32 v2 (ready 143)
//  143 global_store_dword (answered 243)  144 s_endpgm: the wave drains, retiring at 244
TEST_CASE("compute unit: s_waitcnt waits for the scalar and vector memory latencies", "[cu]") {
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
  const uint64_t out = rig.device.alloc(64);
  const uint32_t v = 41;
  rig.device.write(out, &v, 4);
  rig.launch(out, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  uint32_t got = 0;
  rig.device.read(&got, out, 4);
  CHECK(got == 42);
  CHECK(rig.finish_cycle() == 244);
  CHECK(rig.stat("stall_waiting_smem") == 20);     // cycles 12..31
  CHECK(rig.stat("stall_waiting_memory") == 100);  // cycles 38..137
  CHECK(rig.stat("stall_dependency") == 6);        // 34..36 and 140..142
  CHECK(rig.stat("vmem_requests") == 2);
  CHECK(rig.stat("smem_requests") == 1);
  CHECK(rig.stat("issued_vmem_load") == 1);
  CHECK(rig.stat("issued_vmem_store") == 1);
  REQUIRE(rig.vmem.requests.size() == 2);
  CHECK(rig.vmem.requests[0].len == 4);  // every lane reads out[0]: one request of 4 bytes
}

// Two waves, one barrier. Wave 0 (work-items 0..63) sleeps 2 x 64 cycles
// before the barrier; wave 1 branches around the sleep.
//   wave 0: 11 v_readfirstlane (s4 ready 15), 15 s_cmp, 16 s_cbranch (not
//           taken, next issue 18), 18 s_sleep 2 (until 146), 146 s_barrier
//   wave 1: 13 v_readfirstlane, 17 s_cmp, 18 s_cbranch taken: the buffer
//           refetches (cycles 18 and 19, usable at 29), 29 s_barrier
// The barrier opens at 146; both issue s_endpgm at 147.
TEST_CASE("compute unit: s_barrier holds the workgroup until its last wave arrives", "[cu]") {
  AsmKernel k;
  k.name = "barrier";
  k.body = R"(v_readfirstlane_b32 s4, v0
s_cmp_eq_u32 s4, 0
s_cbranch_scc0 BB1
s_sleep 2
BB1:
s_barrier
s_endpgm)";
  CuRig rig(assemble(k), "barrier", quiet());
  rig.launch(0, 128, 128);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.finish_cycle() == 147);
  CHECK(rig.stat("stall_barrier") == 146 - 30);  // wave 1, cycles 30..145
  CHECK(rig.stat("stall_sleep") == 146 - 19);    // wave 0, cycles 19..145
  CHECK(rig.stat("issued_barrier") == 2);
  CHECK(rig.stat("issued_branch") == 2);
}

// MFMA 32x32x8f16 holds the matrix core 64 cycles and its result is usable
// 64 cycles after issue; an independent VALU op still issues in between.
//   11 MFMA (SIMD issue 4 cycles, result at 75)   15 v_add_f32
//   75 the second MFMA (reads the first's result)  76 s_endpgm
TEST_CASE("compute unit: an MFMA holds the matrix core and its result for its cycles", "[cu]") {
  AsmKernel k;
  k.name = "mfma";
  k.agprs = 16;
  k.body = R"(v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
v_add_f32 v4, v0, v1
v_mfma_f32_32x32x8f16 a[0:15], v[0:1], v[2:3], a[0:15]
s_endpgm)";
  CuRig rig(assemble(k), "mfma", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  CHECK(rig.finish_cycle() == 76);
  CHECK(rig.stat("issued_mfma") == 2);
  CHECK(rig.stat("stall_dependency") == 75 - 16);  // cycles 16..74
}

// Independent MFMAs of the smaller 16x16x16f16 shape (32 cycles) queue on
// the matrix core: 11, 43; s_endpgm at 44.
TEST_CASE("compute unit: independent MFMAs wait for the matrix core", "[cu]") {
  AsmKernel k;
  k.name = "mfma16";
  k.agprs = 8;
  k.body = R"(v_mfma_f32_16x16x16f16 a[0:3], v[0:1], v[2:3], a[0:3]
v_mfma_f32_16x16x16f16 a[4:7], v[0:1], v[2:3], a[4:7]
s_endpgm)";
  CuRig rig(assemble(k), "mfma16", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 44);
  CHECK(rig.stat("stall_structural") == 43 - 12);  // cycles 12..42
}

// Transcendental ops occupy the SIMD trans_cycles (16): 11, 27; s_endpgm 28.
TEST_CASE("compute unit: transcendental ops occupy the SIMD trans_cycles", "[cu]") {
  AsmKernel t;
  t.name = "trans";
  t.body = "v_exp_f32 v1, v0\nv_exp_f32 v2, v0\ns_endpgm";
  CuRig rig(assemble(t), "trans", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 28);
  CHECK(rig.stat("stall_structural") == 27 - 12);
}

// f64 ops occupy the SIMD dp_cycles (here 8): 11, 19; s_endpgm 20.
TEST_CASE("compute unit: f64 ops occupy the SIMD dp_cycles", "[cu]") {
  AsmKernel d;
  d.name = "dp";
  d.body = "v_add_f64 v[2:3], v[0:1], v[0:1]\nv_add_f64 v[4:5], v[0:1], v[0:1]\ns_endpgm";
  CuRig rig(assemble(d), "dp", quiet({{"dp_cycles", 8}}));
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 20);
}

namespace {

void bad_config(const json& params, const std::string& expected) {
  MiniPlatform p;
  try {
    p.create<ComputeUnit>("compute_unit", "cu[3]", params);
    FAIL("no error for " << params.dump());
  } catch (const UserError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(expected) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("compute unit parameters: LDS banks must be a power of two", "[cu]") {
  bad_config({{"lds_banks", 24}}, "cu[3]: parameter 'lds_banks': expected a power of two, got 24");
}
TEST_CASE("compute unit parameters: MFMA cycles must map fragments to cycle counts", "[cu]") {
  bad_config({{"mfma_cycles", {{"32x32", "fast"}}}}, "parameter 'mfma_cycles': entry '32x32'");
}
TEST_CASE("compute unit parameters: the instruction buffer must hold the longest instruction", "[cu]") {
  bad_config({{"fetch_bytes", "4 B"}, {"ib_depth", 2}}, "(ib_depth - 1) x fetch_bytes must be at least 8 bytes");
  // One 32-byte block holds 16 bytes and more, but not an instruction that
  // crosses into the next block: such a wave could never issue.
  bad_config({{"fetch_bytes", "32 B"}, {"ib_depth", 1}}, "got ib_depth 1 and fetch_bytes 32");
}
TEST_CASE("compute unit parameters: zero SIMDs are refused by the schema", "[cu]") {
  bad_config({{"simds", 0}}, "value 0 is out of range; expected [1, 16]");  // the netlist loader adds the path
}

// A branch on VCC waits for the VALU compare that writes it:
//   11 v_cmp_eq_u32 (VCC usable at 15)   15 s_cbranch_vccz (not taken; next issue 17)   17 s_endpgm
TEST_CASE("compute unit: s_cbranch_vccz waits for the compare that writes VCC", "[cu]") {
  AsmKernel k;
  k.name = "vccbranch";
  k.body = "v_cmp_eq_u32 vcc, v0, v0\ns_cbranch_vccz BB1\nBB1:\ns_endpgm";
  CuRig rig(assemble(k), "vccbranch", quiet());
  rig.launch(0, 64, 64);
  rig.run();
  CHECK(rig.finish_cycle() == 17);
  CHECK(rig.stat("stall_dependency") == 3);  // cycles 12..14
  CHECK(rig.stat("stall_branch") == 1);      // cycle 16
}

// Instruction fetches go to the task's code_address when it has one: the
// first block of the kernel (entry at text + 0x0 here) is fetched from
// code_address + (entry - text start), aligned to fetch_bytes.
TEST_CASE("compute unit: instruction fetches follow the task's code address", "[cu]") {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet());
  rig.launch(0, 64, 64);
  const uint64_t code = 0x7000'0000;
  for (WorkgroupTask& t : rig.dispatcher.tasks) t.code_address = code;
  rig.run();
  REQUIRE(rig.fetch.requests.size() >= 2);
  const uint64_t entry = rig.info->entry_address - rig.code.text_address();
  CHECK(rig.fetch.requests[0].addr == code + entry);
  CHECK(rig.fetch.requests[1].addr == code + entry + 32);
  CHECK(rig.fetch.requests[0].kind == AccessKind::InstFetch);
  CHECK(rig.finish_cycle() == 72);  // the same timing as at the code object's own addresses
}

// A fetch answered with an error leaves a failed block in the instruction
// buffer: the wave faults when it comes to execute from it, at the first
// instruction there, and the report names the fetch and its status.
TEST_CASE("compute unit faults: a failed instruction fetch faults the wave at the instruction it held", "[cu]") {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet());
  const uint64_t entry = rig.info->entry_address;
  rig.fetch.refuse_from = entry + 32;  // the second 32-byte block: v_add_f32 8 to 15
  rig.fetch.refuse_to = entry + 64;
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  const std::string& f = rig.dispatcher.finished[0].fault;
  INFO(f);
  char pc_text[32], fetch_text[64];
  std::snprintf(pc_text, sizeof pc_text, "PC 0x%llx", static_cast<unsigned long long>(entry + 32));
  std::snprintf(fetch_text, sizeof fetch_text, "instruction fetch at 0x%llx",
                static_cast<unsigned long long>(entry + 32));
  CHECK(f.find(pc_text) != std::string::npos);
  CHECK(f.find("v_add_f32") != std::string::npos);
  CHECK(f.find(fetch_text) != std::string::npos);
  CHECK(f.find("TLM_ADDRESS_ERROR_RESPONSE") != std::string::npos);
  CHECK(rig.stat("faults") == 1);
  CHECK(rig.stat("memory_errors") == 1);
  CHECK(rig.stat("issued_valu") == 8);
}

// The buffer fetches ahead: a failed fetch of a block past s_endpgm is never
// executed from, so the wave ends normally.
TEST_CASE("compute unit: a failed fetch ahead of the code a wave runs does not fault it", "[cu]") {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet());
  const uint64_t entry = rig.info->entry_address;
  rig.fetch.refuse_from = entry + 96;  // s_endpgm is at entry + 64
  rig.fetch.refuse_to = entry + 4096;
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.dispatcher.finished[0].fault.empty());
  CHECK(rig.stat("issued_valu") == 16);
  CHECK(rig.stat("faults") == 0);
  bool fetched_ahead = false;
  for (const auto& r : rig.fetch.requests) fetched_ahead |= r.addr == entry + 96;
  CHECK(fetched_ahead);
  CHECK(rig.stat("memory_errors") == 1);
}

// 64-byte fetch blocks: the sixteen VALU ops (64 bytes from an aligned entry)
// are one block and s_endpgm starts the next; both are fetched at cycles 0
// and 1, so the timing is that of 32-byte blocks. The instruction buffer
// finds an instruction's block by the PC's offset divided by fetch_bytes.
TEST_CASE("compute unit: 64-byte fetch blocks hold sixteen VALU ops each", "[cu]") {
  CuRig rig(assemble(sixteen_valu()), "sixteen", quiet({{"fetch_bytes", "64 B"}}));
  rig.launch(0, 64, 64);
  rig.run();
  REQUIRE(rig.fetch.requests.size() >= 2);
  const uint64_t entry = rig.info->entry_address;
  CHECK(entry % 64 == 0);
  CHECK(rig.fetch.requests[0].addr == entry);
  CHECK(rig.fetch.requests[1].addr == entry + 64);
  CHECK(rig.finish_cycle() == 72);
}

// vmem_inst_latency runs from a vector memory instruction's issue to its last
// response, so it includes the wait for the vmem port that vmem_latency (from
// each request's sending) leaves out: with one request in flight at a time, a
// dword load of 64 lanes (four 64-byte lines) sends its lines one after the
// other, each answered 100 cycles after it leaves.
TEST_CASE("compute unit: vmem_inst_latency includes the wait for the vmem port", "[cu]") {
  AsmKernel k;
  k.name = "lines4";
  k.body = R"(s_load_dwordx2 s[4:5], s[0:1], 0x0
v_lshlrev_b32 v1, 2, v0
s_waitcnt lgkmcnt(0)
global_load_dword v2, v1, s[4:5]
s_waitcnt vmcnt(0)
s_endpgm)";
  CuRig rig(assemble(k), "lines4", quiet({{"max_vmem_requests", 1}}));
  const uint64_t buf = rig.device.alloc(256);
  rig.launch(buf, 64, 64);
  rig.run();
  REQUIRE(rig.dispatcher.finished.size() == 1);
  CHECK(rig.stat("vmem_requests") == 4);
  const json st = rig.platform.stats.find("cu[0]")->to_json();
  CHECK(st["vmem_latency"]["count"].get<uint64_t>() == 4);
  CHECK(st["vmem_latency"]["max"].get<uint64_t>() < 200);
  CHECK(st["vmem_inst_latency"]["count"].get<uint64_t>() == 1);
  CHECK(st["vmem_inst_latency"]["max"].get<uint64_t>() >= 400);
}
