// The LDS multicast unit in a compute unit (the rig of
// tests/cu/compute_unit_harness.h, one process per test case): marked reads
// of the waves of a workgroup merge in pairs and never across workgroups,
// results stay those of the functional executor, a deliberately wrong mark
// falls back to ordinary reads with one warning, and with the unit off
// nothing is marked or merged.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include "models/cu/inst_marks.h"
#include "models/lds/lds_multicast.h"
#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

// Every wave of a workgroup reads t[lid % 64]: an address that depends on
// the lane only, marked for multicast by the kernel analysis.
const char* const kShared = R"(
__kernel void shared_read(__global float* out) {
  __local float t[64];
  const uint lid = get_local_id(0);
  if (lid < 64) t[lid] = (float)(lid + 1000 * get_group_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[lid % 64] * 2.0f;
}
)";

// Wave w reads t[(lane * (w + 1)) % 256]: lane 0 reads t[0] in every wave,
// the other lanes differ, so a mark saying "the same in every wave" is wrong.
const char* const kWrong = R"(
__kernel void wrong_read(__global float* out) {
  __local float t[256];
  const uint lid = get_local_id(0);
  t[lid] = (float)(3 * lid + get_group_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[((lid % 64) * (lid / 64 + 1)) % 256];
}
)";

struct Run {
  std::vector<float> out;
  uint64_t cycles = 0;
  std::string log;
};

uint64_t stat(CuRig& rig, const char* name) { return rig.stat(name); }

// Runs `kernel` of `source` over `grid` work-items in workgroups of `block`
// on one CU with `params`, functionally or timed.
Run run(CuRig& rig, uint32_t grid, uint32_t block, bool functional = false) {
  const uint64_t out = rig.device.alloc(grid * 4);
  rig.launch(out, grid, block, functional);
  std::stringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  rig.run();
  std::cerr.rdbuf(old);
  Run r;
  r.out.resize(grid);
  rig.device.read(r.out.data(), out, grid * 4);
  r.cycles = rig.finish_cycle();
  r.log = err.str();
  return r;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

json on(json extra = json::object()) {
  extra["lds_multicast"] = true;
  return quiet(extra);
}

std::string kernel_path(const std::string& program) {
  return std::string(TESSERA_BINARY_DIR) + "/sw/kernels/" + program + ".hsaco";
}

// C = A * B, row-major m x k times k x n, launched as (a, b, c, m, n, k) over
// `grid` work-items in workgroups of `block`. Entries are small integers and
// halves, so every order of accumulation gives the exact product.
struct Gemm {
  uint32_t m, n, k;
  std::array<uint32_t, 2> grid, block;
};

float gemm_a(uint32_t index) { return float(index % 7) - 3.0f; }
float gemm_b(uint32_t index) { return float(index % 5) * 0.5f; }

std::vector<float> gemm_reference(const Gemm& g) {
  std::vector<float> ref(g.m * g.n, 0.0f);
  for (uint32_t i = 0; i < g.m; ++i)
    for (uint32_t j = 0; j < g.n; ++j) {
      float s = 0.0f;
      for (uint32_t p = 0; p < g.k; ++p) s += gemm_a(i * g.k + p) * gemm_b(p * g.n + j);
      ref[i * g.n + j] = s;
    }
  return ref;
}

std::vector<float> run_gemm(CuRig& rig, const Gemm& g) {
  std::vector<float> a(g.m * g.k), b(g.k * g.n);
  for (uint32_t i = 0; i < a.size(); ++i) a[i] = gemm_a(i);
  for (uint32_t i = 0; i < b.size(); ++i) b[i] = gemm_b(i);
  const uint64_t da = rig.device.alloc(a.size() * 4), db = rig.device.alloc(b.size() * 4);
  const uint64_t dc = rig.device.alloc(g.m * g.n * 4);
  rig.device.write(da, a.data(), a.size() * 4);
  rig.device.write(db, b.data(), b.size() * 4);
  isa::LaunchConfig cfg;
  for (int d = 0; d < 2; ++d) cfg.grid[d] = g.grid[d], cfg.workgroup[d] = g.block[d];
  for (uint64_t p : {da, db, dc}) {
    isa::ArgValue v;
    v.bytes.resize(8);
    std::memcpy(v.bytes.data(), &p, 8);
    cfg.args.push_back(v);
  }
  for (uint32_t dim : {g.m, g.n, g.k}) {
    isa::ArgValue v;
    v.bytes.resize(4);
    std::memcpy(v.bytes.data(), &dim, 4);
    cfg.args.push_back(v);
  }
  rig.launch(cfg);
  rig.run();
  std::vector<float> c(g.m * g.n);
  rig.device.read(c.data(), dc, c.size() * 4);
  return c;
}

}  // namespace

TEST_CASE("LDS multicast in a CU: the waves of a workgroup merge their marked reads in pairs", "[lds]") {
  CuRig rig(build_kernel("mc_shared_read", kShared), "shared_read", on());
  const Run r = run(rig, 4 * 256, 256);  // four workgroups of four waves
  for (uint32_t i = 0; i < 4 * 256; ++i) REQUIRE(r.out[i] == float((i % 64) + 1000 * (i / 256)) * 2.0f);
  CHECK(stat(rig, "lds_reads") == 16);
  CHECK(stat(rig, "lds_reads_marked") == 16);
  CHECK(stat(rig, "lds_reads_merged") == 8);  // two pairs per workgroup
  CHECK(stat(rig, "lds_multicast_fallbacks") == 0);
  CHECK(stat(rig, "lds_multicast_expired") == 0);
  CHECK(stat(rig, "lds_read_bytes") == 8 * 64 * 4);  // one access per pair
  CHECK(r.log.find("LDS multicast") == std::string::npos);
}

TEST_CASE("LDS multicast in a CU: off, the same results and every read served", "[lds]") {
  CuRig rig(build_kernel("mc_shared_read", kShared), "shared_read", quiet());
  const Run r = run(rig, 4 * 256, 256);
  for (uint32_t i = 0; i < 4 * 256; ++i) REQUIRE(r.out[i] == float((i % 64) + 1000 * (i / 256)) * 2.0f);
  CHECK(stat(rig, "lds_reads") == 16);
  CHECK(stat(rig, "lds_reads_marked") == 0);
  CHECK(stat(rig, "lds_reads_merged") == 0);
  CHECK(stat(rig, "lds_read_bytes") == 16 * 64 * 4);
}

TEST_CASE("LDS multicast in a CU: no merge across workgroups", "[lds]") {
  // Workgroups of three waves, all resident together: each has one pair and
  // one read left over; the left-over reads of two workgroups have the same
  // addresses and registers but must not merge. They are served alone when
  // their wave's workgroup has no other wave left to send a partner.
  CuRig rig(build_kernel("mc_shared_read", kShared), "shared_read", on());
  const Run r = run(rig, 4 * 192, 192);
  for (uint32_t i = 0; i < 4 * 192; ++i) REQUIRE(r.out[i] == float((i % 64) + 1000 * (i / 192)) * 2.0f);
  CHECK(stat(rig, "lds_reads_marked") == 12);
  CHECK(stat(rig, "lds_reads_merged") == 4);
  CHECK(stat(rig, "lds_multicast_released") + stat(rig, "lds_multicast_expired") == 4);
  CHECK(stat(rig, "lds_multicast_fallbacks") == 0);
}

TEST_CASE("LDS multicast in a CU: a full table serves reads alone", "[lds]") {
  CuRig rig(build_kernel("mc_shared_read", kShared), "shared_read", on({{"lds_multicast_table", 0}}));
  const Run r = run(rig, 2 * 256, 256);
  for (uint32_t i = 0; i < 2 * 256; ++i) REQUIRE(r.out[i] == float((i % 64) + 1000 * (i / 256)) * 2.0f);
  CHECK(stat(rig, "lds_reads_marked") == 8);
  CHECK(stat(rig, "lds_multicast_table_full") == 8);
  CHECK(stat(rig, "lds_reads_merged") == 0);
}

TEST_CASE("LDS multicast in a CU: a wrong mark falls back to two reads, counted, reported once", "[lds]") {
  // A marker that wrongly says every ds_read of wrong_read has the same
  // addresses in every wave (the analysis does not mark it).
  register_inst_marker("test_wrong_multicast", [](isa::DecodeCache& program, const isa::KernelInfo& kernel,
                                                  InstMarks& marks) {
    if (kernel.name != "wrong_read") return;
    const uint64_t text = program.code().text_address(), end = text + program.code().text().size();
    for (uint64_t pc = text; pc < end;) {
      const isa::DecodedOp* op = program.at(pc);
      if (!op) break;
      if (std::strncmp(op->inst.mnemonic(), "ds_read", 7) == 0) marks.set(pc, lds::kMulticastMark);
      pc += op->inst.size;
    }
  });
  const std::string hsaco = build_kernel("mc_wrong_read", kWrong);
  std::vector<float> expected(4 * 256);
  for (uint32_t i = 0; i < expected.size(); ++i) {
    const uint32_t lid = i % 256, j = ((lid % 64) * (lid / 64 + 1)) % 256;
    expected[i] = float(3 * j + i / 256);
  }
  CuRig rig(hsaco, "wrong_read", on());
  const Run r = run(rig, 4 * 256, 256);
  for (uint32_t i = 0; i < expected.size(); ++i) REQUIRE(r.out[i] == expected[i]);
  CHECK(stat(rig, "lds_reads_marked") == 16);
  CHECK(stat(rig, "lds_reads_merged") == 0);
  CHECK(stat(rig, "lds_multicast_fallbacks") == 8);  // waves 1 and 3 of each workgroup find 0 and 2
  CHECK(stat(rig, "lds_read_bytes") == 16 * 64 * 4);
  CHECK(count(r.log, "LDS multicast: marked read with different addresses") == 1);
  CHECK(r.log.find("kernel wrong_read") != std::string::npos);
}

TEST_CASE("LDS multicast in a CU: the same results as the functional executor on an LDS-tiled GEMM", "[lds]") {
  // sgemm_tile16 (16 x 16 workgroups): its B-tile reads are marked for
  // multicast; a 64 x 64 product, timed with the unit against the exact
  // product.
  const Gemm g{64, 64, 64, {64, 64}, {16, 16}};
  CuRig timed(kernel_path("sgemm"), "sgemm_tile16", on());
  const std::vector<float> c = run_gemm(timed, g);
  CHECK(timed.stat("lds_reads_merged") > 0);
  CHECK(timed.stat("lds_multicast_fallbacks") == 0);
  const std::vector<float> ref = gemm_reference(g);
  for (uint32_t i = 0; i < g.m * g.n; ++i) REQUIRE(c[i] == ref[i]);
}

TEST_CASE("LDS multicast in a CU: the software-pipelined MFMA GEMM merges its reads and equals the product",
          "[lds]") {
  // mfma_gemm_lds_pipe_2x2 (64 x 64 blocks of four waves, two LDS buffers):
  // 96 x 100 x 70 is four workgroups and five K-steps, the last one and the
  // edge blocks zero-padded. Every A and B fragment is read by two waves, so
  // with the unit on half the reads merge, and the product is exact.
  const Gemm g{96, 100, 70, {2 * 256, 2}, {256, 1}};
  CuRig timed(kernel_path("mfma_gemm_lds_pipe"), "mfma_gemm_lds_pipe_2x2", on());
  const std::vector<float> c = run_gemm(timed, g);
  CHECK(timed.stat("lds_reads_merged") > 0);
  CHECK(timed.stat("lds_reads_merged") * 4 >= timed.stat("lds_reads_marked"));
  CHECK(timed.stat("lds_multicast_fallbacks") == 0);
  const std::vector<float> ref = gemm_reference(g);
  for (uint32_t i = 0; i < g.m * g.n; ++i) REQUIRE(c[i] == ref[i]);
}
