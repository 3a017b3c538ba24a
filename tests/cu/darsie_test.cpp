// DARSIE in a compute unit (the rig of compute_unit_harness.h, one process
// per test case): followers skip the vector instructions their leader
// executed, with the results of the functional executor; the launch rule per
// workgroup shape; divergence leaving the majority path; s_barrier putting
// the waves back on it; a full skip table and no renamed VGPRs; and the
// checking mode catching a deliberately wrong mark.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "models/cu/darsie_unit.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/executor.h"
#include "models/cu/inst_marks.h"
#include "tests/cu/compute_unit_harness.h"
#include "tests/cu/kernel_builder.h"

using namespace tessera;
using namespace tessera::test;

namespace {

// Much arithmetic on work-item x only (CR), then a value that depends on y.
const char* const kXWork = R"(
__kernel void xwork(__global float* out, uint width) {
  const uint lx = get_local_id(0);
  float a = (float)lx * 0.5f + 1.0f;
  float s = 0.0f;
  for (int k = 0; k < 6; ++k) s = s * a + (float)(k + 1) * a;
  out[get_global_id(1) * width + get_global_id(0)] = s + (float)get_local_id(1);
}
)";

// Waves whose rows are 12..15 (the last wave of a 16x16 workgroup) take a
// branch the others do not, then every wave does x-only work, optionally
// after a barrier.
std::string diverge_source(bool barrier) {
  return std::string(R"(
__kernel void diverge(__global float* out, uint width) {
  const uint lx = get_local_id(0), ly = get_local_id(1);
  float v = (float)ly;
  if (ly >= 12) {
    float a = (float)lx + 3.0f;
    for (uint k = 0; k < ly; ++k) v = v * a + 1.0f;
  }
)") + (barrier ? "  barrier(CLK_LOCAL_MEM_FENCE);\n" : "") + R"(
  float b = (float)lx * 0.25f + 2.0f;
  float s = 0.0f;
  for (int k = 0; k < 6; ++k) s = s * b + (float)(k + 1);
  out[get_global_id(1) * width + get_global_id(0)] = s + v;
}
)";
}

struct Shape {
  uint32_t grid_x, grid_y, block_x, block_y;
};

struct Result {
  std::vector<float> out, ref;  // the CU's, the functional executor's
  uint64_t ref_instructions = 0;
  std::string fault;            // the first workgroup fault, if any
};

isa::ArgValue arg(const void* p, size_t n) {
  isa::ArgValue a;
  a.bytes.resize(n);
  std::memcpy(a.bytes.data(), p, n);
  return a;
}

// Runs `kernel` over `s` with (out, width) arguments on the rig's CU and on
// the functional executor (its own memory, the same addresses).
Result run(CuRig& rig, const std::string& hsaco, const std::string& kernel, const Shape& s) {
  const uint32_t n = s.grid_x * s.grid_y;
  const uint64_t out = rig.device.alloc(n * 4);
  isa::DeviceMemory ref_mem;
  REQUIRE(ref_mem.alloc(n * 4) == out);
  isa::LaunchConfig cfg;
  cfg.grid[0] = s.grid_x;
  cfg.grid[1] = s.grid_y;
  cfg.workgroup[0] = s.block_x;
  cfg.workgroup[1] = s.block_y;
  cfg.args = {arg(&out, 8), arg(&s.grid_x, 4)};
  rig.launch(cfg);
  rig.run();
  Result r;
  for (const WorkgroupTask& t : rig.dispatcher.finished)
    if (!t.fault.empty() && r.fault.empty()) r.fault = t.fault;
  r.out.resize(n);
  rig.device.read(r.out.data(), out, n * 4);
  isa::CodeObject ref_code = isa::CodeObject::load_file(hsaco);
  isa::DecodeCache ref_program(ref_code);
  isa::Executor ex(ref_mem);
  r.ref_instructions = ex.launch(ref_program, *ref_code.find_kernel(kernel), cfg).wave_instructions;
  r.ref.resize(n);
  ref_mem.read(r.ref.data(), out, n * 4);
  return r;
}

json on(json extra = json::object()) {
  extra["darsie"] = true;
  return quiet(extra);
}

uint64_t skipped(const CuRig& rig) { return rig.stat("darsie_skipped_dr") + rig.stat("darsie_skipped_cr"); }

// Runs xwork in workgroups of `shape` with DARSIE on; CR skipping is expected or not.
void launch_rule(const Shape& shape, bool cr) {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on());
  const Result r = run(rig, hsaco, "xwork", shape);
  REQUIRE(r.fault.empty());
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_executed_cr") > 0);
  if (cr)
    CHECK(rig.stat("darsie_skipped_cr") > 0);
  else
    CHECK(rig.stat("darsie_skipped_cr") == 0);
  CHECK(rig.stat("instructions") + skipped(rig) == r.ref_instructions);
}

// sgemm_tile16's marks with one wrong: its work-item y extract taken as DR.
void register_wrong_mark() {
  register_inst_marker("test_wrong_darsie", [](isa::DecodeCache& program, const isa::KernelInfo&, InstMarks& marks) {
    const uint64_t text = program.code().text_address(), end = text + program.code().text().size();
    for (uint64_t pc = text; pc < end;) {
      const isa::DecodedOp* op = program.at(pc);
      if (!op) break;
      if (isa::disassemble(op->inst).find("v_bfe_u32") == 0 && isa::disassemble(op->inst).find(", 10, 10") != std::string::npos)
        marks.set(pc, kDarsieDR);
      pc += op->inst.size;
    }
  });
}

}  // namespace

TEST_CASE("DARSIE: a 16x16 workgroup skips x-only work, fewer vector issues, the results of the functional executor",
          "[darsie]") {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on());
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  REQUIRE(r.fault.empty());
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_skipped_cr") > 0);
  CHECK(rig.stat("darsie_table_hits") == skipped(rig));
  // Every skip is an instruction the CU did not fetch and issue.
  CHECK(rig.stat("instructions") + skipped(rig) == r.ref_instructions);
  CHECK(rig.stat("darsie_vector_issued") + rig.stat("darsie_scalar_issued") == rig.stat("instructions"));
  // Four waves per workgroup: at most three of every four executions skipped.
  CHECK(skipped(rig) * 4 <= (rig.stat("darsie_executed_cr") + rig.stat("darsie_executed_dr") + skipped(rig)) * 3);
  CHECK(rig.stat("darsie_rename_allocations") > 0);
  CHECK(rig.stat("darsie_path_exits") == 0);
  CHECK(rig.stat("darsie_table_full") == 0);
}

TEST_CASE("DARSIE off: nothing skipped, classes counted with darsie_count", "[darsie]") {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", quiet({{"darsie_count", true}}));
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("instructions") == r.ref_instructions);
  CHECK(rig.stat("darsie_executed_cr") > 0);
  CHECK(rig.stat("darsie_executed_v") > 0);
  CHECK(skipped(rig) == 0);
  CHECK(rig.stat("darsie_vector_issued") ==
        rig.stat("darsie_executed_dr") + rig.stat("darsie_executed_cr") + rig.stat("darsie_executed_v"));
}

TEST_CASE("DARSIE launch rule: a 256x1 workgroup skips no CR instruction", "[darsie]") { launch_rule({256, 16, 256, 1}, false); }
TEST_CASE("DARSIE launch rule: a 24x8 workgroup skips no CR instruction", "[darsie]") { launch_rule({48, 32, 24, 8}, false); }
TEST_CASE("DARSIE launch rule: a 16x16 workgroup skips CR instructions", "[darsie]") { launch_rule({64, 32, 16, 16}, true); }
TEST_CASE("DARSIE launch rule: an 8x32 workgroup skips CR instructions", "[darsie]") { launch_rule({64, 64, 8, 32}, true); }

TEST_CASE("DARSIE: a wave that takes another branch leaves the majority path and copies back", "[darsie]") {
  const std::string hsaco = build_kernel("darsie_diverge", diverge_source(false));
  CuRig rig(hsaco, "diverge", on());
  const Result r = run(rig, hsaco, "diverge", {32, 32, 16, 16});
  REQUIRE(r.fault.empty());
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_path_exits") > 0);
  CHECK(rig.stat("instructions") + skipped(rig) == r.ref_instructions);
  CHECK(rig.stat("darsie_copied_back") > 0);
  // The waves that left run the x-only loop after the branch themselves: fewer
  // skips than executions (with the barrier of the next test, over twice as many).
  CHECK(skipped(rig) < rig.stat("darsie_executed_cr") + rig.stat("darsie_executed_dr"));
}

TEST_CASE("DARSIE: s_barrier puts every wave back on the majority path", "[darsie]") {
  // The same kernel with a barrier after the branch: the waves that left
  // rejoin the majority path there and skip the x-only loop after it.
  const std::string hsaco = build_kernel("darsie_diverge_barrier", diverge_source(true));
  CuRig rig(hsaco, "diverge", on());
  const Result r = run(rig, hsaco, "diverge", {32, 32, 16, 16});
  REQUIRE(r.fault.empty());
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_path_exits") > 0);
  // After the barrier three followers per workgroup skip each skippable
  // execution of the leader (without it, fewer skips than executions).
  const uint64_t executed = rig.stat("darsie_executed_cr") + rig.stat("darsie_executed_dr");
  CHECK(skipped(rig) > 0);
  CHECK(skipped(rig) > 2 * executed);  // at least 3 of 4 of the x-only loop after the barrier
}

TEST_CASE("DARSIE: a one-entry skip table is often full and the results stay right", "[darsie]") {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on({{"darsie_skip_table", 1}}));
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_table_full") > 0);
  CHECK(skipped(rig) > 0);
  CHECK(rig.stat("instructions") + skipped(rig) == r.ref_instructions);
}

TEST_CASE("DARSIE: no renamed VGPRs, nothing skipped", "[darsie]") {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on({{"darsie_rename_vgprs", 0}}));
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_rename_failures") > 0);
  CHECK(skipped(rig) == 0);
  CHECK(rig.stat("instructions") == r.ref_instructions);
}

TEST_CASE("DARSIE checking mode: correct marks, every skip compared, no mismatch", "[darsie]") {
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on({{"darsie_check", true}}));
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  REQUIRE(r.fault.empty());
  REQUIRE(r.out == r.ref);
  CHECK(rig.stat("darsie_checked") == skipped(rig));
  CHECK(rig.stat("darsie_checked") > 0);
}

TEST_CASE("DARSIE: a wrong mark (work-item y taken as DR) gives wrong results without checking", "[darsie]") {
  register_wrong_mark();
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on());
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  CHECK(r.fault.empty());
  CHECK(r.out != r.ref);  // the followers took the leader's y
}

TEST_CASE("DARSIE checking mode: a wrong mark faults with the kernel, PC, instruction, wave, lane and values",
          "[darsie]") {
  register_wrong_mark();
  const std::string hsaco = build_kernel("darsie_xwork", kXWork);
  CuRig rig(hsaco, "xwork", on({{"darsie_check", true}}));
  const Result r = run(rig, hsaco, "xwork", {64, 32, 16, 16});
  INFO(r.fault);
  CHECK(r.fault.find("DARSIE check: a wrong DR/CR mark: kernel xwork, pc ") != std::string::npos);
  CHECK(r.fault.find("(v_bfe_u32 ") != std::string::npos);
  CHECK(r.fault.find(", wave ") != std::string::npos);
  CHECK(r.fault.find(", lane 0, v") != std::string::npos);
  CHECK(r.fault.find(": leader 0x") != std::string::npos);
  CHECK(r.fault.find(", this wave 0x") != std::string::npos);
  CHECK(rig.stat("faults") > 0);
}

TEST_CASE("DARSIE: bad parameters are refused with the parameter named", "[darsie]") {
  MiniPlatform platform;
  REQUIRE_THROWS_WITH(platform.create<ComputeUnit>("compute_unit", "cu[0]", json{{"darsie_check", true}}),
                      Catch::Contains("'darsie_check': needs darsie"));
}

TEST_CASE("DARSIE: sgemm_tile16 (LDS reads skipped) gives the functional executor's bits, checked", "[darsie]") {
  // The suite's LDS-tiled GEMM in 16x16 workgroups: its CR B-tile LDS reads
  // and x-only arithmetic are skipped; a 64x64 product with inputs that
  // round, compared bit for bit with the functional executor's.
  const std::string hsaco = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/sgemm.hsaco";
  const uint32_t n = 64;
  CuRig rig(hsaco, "sgemm_tile16", on({{"darsie_check", true}}));
  isa::DeviceMemory ref_mem;
  std::vector<float> a(n * n), b(n * n);
  for (uint32_t i = 0; i < n * n; ++i) a[i] = float(i % 13) * 0.37f - 2.0f, b[i] = float(i % 11) * 0.19f + 0.5f;
  isa::LaunchConfig cfg;
  cfg.grid[0] = cfg.grid[1] = n;
  cfg.workgroup[0] = cfg.workgroup[1] = 16;
  uint64_t dc = 0;
  const std::vector<float>* inputs[] = {&a, &b, nullptr};  // A, B, then C (the output)
  for (const std::vector<float>* v : inputs) {
    const uint64_t p = rig.device.alloc(n * n * 4);
    REQUIRE(ref_mem.alloc(n * n * 4) == p);
    if (v) {
      rig.device.write(p, v->data(), n * n * 4);
      ref_mem.write(p, v->data(), n * n * 4);
    }
    dc = p;
    cfg.args.push_back(arg(&p, 8));
  }
  for (int k = 0; k < 3; ++k) cfg.args.push_back(arg(&n, 4));
  rig.launch(cfg);
  rig.run();
  for (const WorkgroupTask& t : rig.dispatcher.finished) REQUIRE(t.fault.empty());
  isa::CodeObject ref_code = isa::CodeObject::load_file(hsaco);
  isa::DecodeCache ref_program(ref_code);
  isa::Executor ex(ref_mem);
  const uint64_t ref_instructions = ex.launch(ref_program, *ref_code.find_kernel("sgemm_tile16"), cfg).wave_instructions;
  std::vector<uint32_t> got(n * n), want(n * n);
  rig.device.read(got.data(), dc, n * n * 4);
  ref_mem.read(want.data(), dc, n * n * 4);
  CHECK(got == want);
  CHECK(rig.stat("darsie_skipped_cr") > 0);
  CHECK(rig.stat("darsie_checked") == skipped(rig));
  CHECK(rig.stat("instructions") + skipped(rig) == ref_instructions);
  // 16 workgroups of 4 waves, 12 LDS reads per wave and tile, 4 tiles: followers skipped some.
  CHECK(rig.stat("lds_reads") < 16 * 4 * 12 * (n / 16));
}
