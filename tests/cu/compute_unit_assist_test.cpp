// CABA's assist warps in the compute unit: a test memory marks the lines it
// answers compressed (GpuAccess::cu_decompress, as the vector L1 does in the
// CABA design), the CU's decompression assist warps rebuild them with the
// Assist Warp Store's routine (checked against the line's bytes), and the load
// completes later by the routines' cost with the right values. Each run
// elaborates its own platform in a child process, so one test compares two.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <array>

#include "tests/cu/compute_unit_harness.h"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr unsigned kFigures = 8;
using Figures = std::array<uint64_t, kFigures>;

// Runs `f` in a child process and returns what it measured.
template <class F>
Figures in_child(F f) {
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    Figures r{};
    try {
      r = f();
    } catch (...) {
      _exit(2);
    }
    const bool ok = write(fd[1], r.data(), sizeof r) == static_cast<ssize_t>(sizeof r);
    _exit(ok ? 0 : 3);
  }
  close(fd[1]);
  Figures r{};
  const ssize_t n = read(fd[0], r.data(), sizeof r);
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(n == static_cast<ssize_t>(sizeof r));
  return r;
}

// Each lane loads out[lane], adds 1 and stores it at out[64 + lane]; then
// `busy` dependent scalar adds, one issued every cycle.
AsmKernel load_add_store(unsigned busy = 0) {
  AsmKernel k;
  k.name = "assist_load" + std::to_string(busy);
  k.body = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
  v_add_u32 v2, 1, v2
  global_store_dword v1, v2, s[4:5] offset:256
)";
  for (unsigned i = 0; i < busy; ++i) k.body += "  s_add_u32 s6, s6, 1\n";
  k.body += "  s_endpgm";
  return k;
}

// The 256 bytes the wave loads, four 64-byte lines: zeros, base4-delta1,
// repeated 8-byte values, and random values that do not compress.
std::vector<uint32_t> input() {
  std::vector<uint32_t> v(64, 0);
  for (unsigned i = 16; i < 32; ++i) v[i] = 0x40000000u + 3 * i;
  for (unsigned i = 32; i < 48; ++i) v[i] = i % 2 ? 0x01234567u : 0x89abcdefu;
  uint32_t x = 12345;
  for (unsigned i = 48; i < 64; ++i) v[i] = x = x * 1103515245u + 12345u;
  return v;
}

// Whether the kernel stored every input word plus one behind the input.
bool outputs_right(CuRig& rig, uint64_t out, const std::vector<uint32_t>& in) {
  std::vector<uint32_t> result(64);
  rig.device.read(result.data(), out + 256, 256);
  for (unsigned i = 0; i < 64; ++i)
    if (result[i] != in[i] + 1) return false;
  return true;
}

// One run: finish cycle, whether every output is right, then the statistics.
// `mark_all`: every answer marked compressed (base4-delta1), also the line
// that does not compress.
Figures run(bool assist, bool compressed_answers, unsigned per_wave = 1, bool mark_all = false) {
  json params = {{"assist_warps", assist}, {"assist_warp_check", true}};
  if (assist) params["assist_warps_per_wave"] = per_wave;
  CuRig rig(assemble(load_add_store()), "assist_load0", quiet(params));
  const uint64_t out = rig.device.alloc(512);
  const std::vector<uint32_t> in = input();
  rig.device.write(out, in.data(), 256);
  if (compressed_answers)
    rig.vmem.on_load = [&rig, mark_all](tlm::tlm_generic_payload& t, GpuAccess& a) {
      std::vector<uint8_t> line(64);
      rig.device.read_any(t.get_address() & ~uint64_t{63}, line.data(), 64);
      a.cu_decompress = mark_all ? bdi::Encoding::base4_delta1 : bdi::compress(line).encoding;
    };
  rig.launch(out, 64, 64);
  rig.run();
  const bool right = outputs_right(rig, out, in);
  auto s = [&](const char* name) { return assist ? rig.stat(name) : 0; };
  return {rig.finish_cycle(), right, s("assist_started_decompress_high"), s("assist_finished_decompress_high"),
          s("assist_instructions_high"), s("assist_parent_wait_cycles"), s("assist_lines_checked"),
          s("assist_lines_decompressed_zeros") * 100 + s("assist_lines_decompressed_b4d1") * 10 +
              s("assist_lines_decompressed_repeated")};
}

}  // namespace

TEST_CASE("assist warps: a load of compressed lines completes after their decompression with the right values",
          "[assist]") {
  const Figures plain = in_child([] { return run(true, false); });
  const Figures off = in_child([] { return run(false, false); });
  const Figures compressed = in_child([] { return run(true, true); });
  INFO("finish cycles: plain " << plain[0] << ", assist warps off " << off[0] << ", compressed " << compressed[0]);
  CHECK(plain[1] == 1);
  CHECK(compressed[1] == 1);
  // Nothing compressed: no decompression; the stored lines' compression
  // (the next tests) makes both runs with assist warps later than without.
  CHECK(plain[2] == 0);
  CHECK(plain[0] > off[0]);
  // Three of the four lines compress (zeros, b4d1, repeated): one assist warp each,
  // every rebuilt line checked against the line's bytes (and the four stored
  // lines the store buffer takes, against bdi::compress).
  CHECK(compressed[2] == 3);
  CHECK(compressed[3] == 3);
  CHECK(compressed[6] == 3 + 4);
  CHECK(compressed[7] == 111);
  // The three run one after another in the wave's reserved registers, each
  // issuing at most one instruction per cycle: the load completes at least
  // that many cycles later, and no later than the cycles it waited for them.
  const uint64_t delay = compressed[0] - plain[0];
  INFO("assist instructions " << compressed[4] << ", parent wait cycles " << compressed[5]);
  CHECK(compressed[0] > plain[0]);
  CHECK(delay >= compressed[4]);
  CHECK(delay <= compressed[5]);
}

TEST_CASE("assist warps: no decompression assist warp for a line whose bytes are stored uncompressed", "[assist]") {
  // All four answers marked compressed; the random line's bytes do not
  // compress (it is stored as itself), so only the other three are rebuilt.
  const Figures f = in_child([] { return run(true, true, 1, true); });
  CHECK(f[1] == 1);
  CHECK(f[2] == 3);
  CHECK(f[3] == 3);
  CHECK(f[7] == 111);
}

TEST_CASE("assist warps: with assist_warps_per_wave a wave's compressed lines are rebuilt side by side", "[assist]") {
  const Figures one = in_child([] { return run(true, true, 1); });
  const Figures three = in_child([] { return run(true, true, 3); });
  INFO("finish cycles: one at a time " << one[0] << ", three at once " << three[0] << "; parent wait cycles "
                                       << one[5] << ", " << three[5]);
  CHECK(three[1] == 1);
  CHECK(three[2] == 3);
  CHECK(three[6] == 3 + 4);  // every rebuilt line (and the four compressed stores) checked
  CHECK(three[7] == 111);
  // The routines are a few instructions (a masked add): each line's ends
  // before the next line arrives here, so running them side by side gains
  // nothing, and must cost nothing.
  CHECK(three[0] <= one[0]);
}

TEST_CASE("assist warps: the VGPRs reserved for them count against occupancy", "[assist]") {
  // 128 VGPRs a wave, 256 a SIMD: two waves fit, but not with 16 more reserved.
  auto refusals = [](bool assist) {
    AsmKernel k;
    k.name = "assist_big";
    k.vgprs = 128;
    k.body = "  s_nop 7\n  s_endpgm";
    CuRig rig(assemble(k), "assist_big",
              quiet({{"simds", 1}, {"vgprs", 256}, {"wave_slots", 4}, {"assist_warps", assist}}));
    rig.launch(0, 128, 64);
    rig.run();
    return Figures{rig.dispatcher.refusals, rig.dispatcher.finished.size()};
  };
  const Figures without = in_child([&] { return refusals(false); });
  const Figures with = in_child([&] { return refusals(true); });
  CHECK(without[1] == 2);
  CHECK(with[1] == 2);
  CHECK(without[0] == 0);
  CHECK(with[0] >= 1);
}

namespace {

// One run storing whole lines with assist warps on: finish cycle, whether the
// outputs are right, the encodings the four stored lines went with
// (encoding + 1, 0 for a line not seen), the cycle the first stored line
// arrived, then the statistics.
Figures run_stores(unsigned busy, unsigned store_buffer = 8, const std::string& compress_off = "") {
  CuRig rig(assemble(load_add_store(busy)), "assist_load" + std::to_string(busy),
            quiet({{"assist_warps", true},
                   {"assist_warp_check", true},
                   {"assist_store_buffer", store_buffer},
                   {"assist_compress_off", compress_off},
                   {"ib_depth", 16}}));  // the whole kernel buffered
  const uint64_t out = rig.device.alloc(512);
  const std::vector<uint32_t> in = input();
  rig.device.write(out, in.data(), 256);
  Figures f{};
  rig.vmem.on_store = [&](tlm::tlm_generic_payload& t, GpuAccess& a) {
    const uint64_t k = (t.get_address() - out - 256) / 64;
    if (k < 4) f[2 + k] = uint64_t(a.cu_compressed) + 1;
    if (k == 0 && !f[6]) f[6] = uint64_t(sc_core::sc_time_stamp().to_seconds() * 1e9 + 0.5);
  };
  rig.launch(out, 64, 64);
  rig.run();
  const bool right = outputs_right(rig, out, in);
  f[0] = rig.finish_cycle();
  f[1] = right;
  f[7] = rig.stat("assist_compress_static_skipped") * 100000 + rig.stat("assist_started_compress_low") * 10000 + rig.stat("assist_finished_compress_low") * 1000 +
         rig.stat("assist_buffer_full") * 100 + rig.stat("assist_lines_compressed_repeated") * 10 +
         rig.stat("assist_lines_compressed_b4d1");
  return f;
}

}  // namespace

TEST_CASE("assist warps: whole-line stores wait in the store buffer for low-priority compression and go with its encoding",
          "[assist]") {
  const Figures f = in_child([] { return run_stores(0); });
  CHECK(f[1] == 1);
  // The store writes four lines, all buffered: the two low-priority entries
  // compress the first two (ones: repeated; base4-delta1), then the other two
  // (repeated 8-byte values; random: uncompressed).
  CHECK(f[2] == uint64_t(bdi::Encoding::repeated) + 1);
  CHECK(f[3] == uint64_t(bdi::Encoding::base4_delta1) + 1);
  CHECK(f[4] == uint64_t(bdi::Encoding::repeated) + 1);
  CHECK(f[5] == uint64_t(bdi::Encoding::uncompressed) + 1);
  CHECK(f[7] == 4 * 10000 + 4 * 1000 + 0 * 100 + 20 + 1);
  // A store buffer of two lines: the other two go uncompressed at once.
  const Figures two = in_child([] { return run_stores(0, 2); });
  CHECK(two[1] == 1);
  CHECK(two[2] == uint64_t(bdi::Encoding::repeated) + 1);
  CHECK(two[3] == uint64_t(bdi::Encoding::base4_delta1) + 1);
  CHECK(two[4] == uint64_t(bdi::Encoding::uncompressed) + 1);
  CHECK(two[5] == uint64_t(bdi::Encoding::uncompressed) + 1);
  CHECK(two[7] == 2 * 10000 + 2 * 1000 + 2 * 100 + 10 + 1);
}

TEST_CASE("assist warps: the static switch sends a named kernel's stores uncompressed without assist warps",
          "[assist][policy]") {
  const Figures on = in_child([] { return run_stores(0, 8, "assist_other"); });
  const Figures off = in_child([] { return run_stores(0, 8, "assist_other,assist_load0"); });
  CHECK(on[1] == 1);
  CHECK(off[1] == 1);
  // Another kernel named: compressed as without the switch.
  CHECK(on[2] == uint64_t(bdi::Encoding::repeated) + 1);
  CHECK(on[7] == 4 * 10000 + 4 * 1000 + 0 * 100 + 20 + 1);
  // This kernel named: no compression assist warp, all four lines plain, and
  // the stores no longer wait for compression.
  for (unsigned k = 2; k < 6; ++k) CHECK(off[k] == uint64_t(bdi::Encoding::uncompressed) + 1);
  CHECK(off[7] == 4 * 100000);
  CHECK(off[0] < on[0]);
}

TEST_CASE("assist warps: low-priority compression issues only in cycles where no wave issues", "[assist]") {
  // After its store the wave issues 60 scalar adds, one a cycle: the
  // compression waits for them, and so does the held store.
  const Figures idle = in_child([] { return run_stores(0); });
  const Figures busy = in_child([] { return run_stores(60); });
  INFO("first store arrives at cycle " << idle[6] << " (idle after the store), " << busy[6] << " (60 adds)");
  CHECK(idle[1] == 1);
  CHECK(busy[1] == 1);
  CHECK(busy[6] >= idle[6] + 60);
}

namespace {

// Two waves of one workgroup load the same 256 bytes (out[lane]), add 1 and
// store them at out[64 + lane]: every line is asked for twice. With `reload`
// one wave loads them twice, the second time after the first load's lines
// were rebuilt.
AsmKernel shared_load_add_store(bool reload) {
  AsmKernel k;
  k.name = reload ? "assist_reload" : "assist_shared";
  k.body = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_and_b32 v1, 63, v0
  v_lshlrev_b32 v1, 2, v1
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[4:5]
  s_waitcnt vmcnt(0)
)";
  if (reload) k.body += "  global_load_dword v2, v1, s[4:5]\n  s_waitcnt vmcnt(0)\n";
  k.body += R"(  v_add_u32 v2, 1, v2
  global_store_dword v1, v2, s[4:5] offset:256
  s_endpgm)";
  return k;
}

// The loads' answers are all marked compressed: as one fill of each line
// (`one_fill`, every answer of a line carries the same fill number, as the
// L1 answers the requests an MSHR merged) or as a fill per answer (as after
// an eviction). Finish cycle, outputs right, then the statistics.
Figures run_shared(bool reload, bool one_fill) {
  CuRig rig(assemble(shared_load_add_store(reload)), reload ? "assist_reload" : "assist_shared",
            quiet({{"assist_warps", true}, {"assist_warp_check", true}}));
  const uint64_t out = rig.device.alloc(512);
  const std::vector<uint32_t> in = input();
  rig.device.write(out, in.data(), 256);
  uint64_t answers = 0;
  rig.vmem.on_load = [&](tlm::tlm_generic_payload& t, GpuAccess& a) {
    std::vector<uint8_t> line(64);
    rig.device.read_any(t.get_address() & ~uint64_t{63}, line.data(), 64);
    a.cu_decompress = bdi::compress(line).encoding;
    a.cu_fill = one_fill ? (t.get_address() >> 6) + 1 : ++answers;
  };
  rig.launch(out, reload ? 64 : 128, reload ? 64 : 128);
  rig.run();
  const bool right = outputs_right(rig, out, in);
  return {rig.finish_cycle(), right, rig.stat("assist_started_decompress_high"),
          rig.stat("assist_finished_decompress_high"), rig.stat("assist_fill_waiters"), rig.stat("assist_hits_waited"),
          rig.stat("assist_lines_checked"), rig.stat("assist_lines_decompressed_b4d1")};
}

}  // namespace

TEST_CASE("assist warps: a compressed fill is decompressed once for every request waiting on it", "[assist]") {
  const Figures f = in_child([] { return run_shared(false, true); });
  CHECK(f[1] == 1);
  // Three of the four lines compress; both waves' requests of each are
  // answered from one fill: one assist warp each (in the context of the first
  // wave served), the other wave's request waits for it; every rebuilt line
  // checked against the line's bytes.
  CHECK(f[2] == 3);
  CHECK(f[3] == 3);
  CHECK(f[4] == 3);
  CHECK(f[7] == 1);
  CHECK(f[6] >= 3);
}

TEST_CASE("assist warps: a line rebuilt from a fill costs no assist warp again, a new fill does", "[assist]") {
  const Figures same = in_child([] { return run_shared(true, true); });
  const Figures refilled = in_child([] { return run_shared(true, false); });
  INFO("finish cycles: second load from the same fills " << same[0] << ", from new fills " << refilled[0]);
  CHECK(same[1] == 1);
  CHECK(refilled[1] == 1);
  CHECK(same[2] == 3);      // the second load's lines are held rebuilt
  CHECK(refilled[2] == 6);  // the second load's lines arrived compressed again
  CHECK(same[0] < refilled[0]);
}

namespace {

// Stores four whole lines at out[64 + lane], then loads a line no store
// writes (out[16 + lane / 4], the input's second line) and one the store
// wrote (out[64 + lane]).
AsmKernel store_then_load() {
  AsmKernel k;
  k.name = "assist_store_load";
  k.body = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  v_mov_b32 v2, 1
  s_waitcnt lgkmcnt(0)
  global_store_dword v1, v2, s[4:5] offset:256
  v_lshrrev_b32 v3, 2, v1
  v_and_b32 v3, -4, v3
  global_load_dword v4, v3, s[4:5] offset:64
  global_load_dword v5, v1, s[4:5] offset:256
  s_waitcnt vmcnt(0)
  v_add_u32 v4, v4, v5
  global_store_dword v1, v4, s[4:5] offset:512
  s_endpgm)";
  return k;
}

}  // namespace

TEST_CASE("assist warps: a store held for compression lets requests to other lines pass, not to its own",
          "[assist]") {
  CuRig rig(assemble(store_then_load()), "assist_store_load",
            quiet({{"assist_warps", true}, {"assist_warp_check", true}, {"ib_depth", 16}}));
  const uint64_t out = rig.device.alloc(1024);
  const std::vector<uint32_t> in = input();
  rig.device.write(out, in.data(), 256);
  rig.launch(out, 64, 64);
  rig.run();
  // When the first stored line, the other line's load and the stored line's
  // load reached memory.
  auto arrival = [&](uint64_t addr, AccessKind kind) {
    for (const LatencyMemory::Seen& s : rig.vmem.requests)
      if (s.addr == addr && s.kind == kind) return s.at.to_seconds();
    return -1.0;
  };
  const double store = arrival(out + 256, AccessKind::Store);
  const double other = arrival(out + 64, AccessKind::Load);
  const double own = arrival(out + 256, AccessKind::Load);
  INFO("store " << store << " s, other line's load " << other << " s, own line's load " << own << " s");
  REQUIRE(store > 0);
  REQUIRE(other > 0);
  REQUIRE(own > 0);
  CHECK(rig.stat("assist_started_compress_low") >= 2);
  CHECK(other < store);  // not held behind the store being compressed
  CHECK(own > store);    // behind it: it reads the stored line
  // out[128 + lane] = in[16 + lane / 4] + 1 (the stored value read back).
  std::vector<uint32_t> result(64);
  rig.device.read(result.data(), out + 512, 256);
  bool right = true;
  for (unsigned i = 0; i < 64; ++i) right = right && result[i] == in[16 + i / 4] + 1;
  CHECK(right);
}
