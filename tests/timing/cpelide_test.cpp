// CPElide (aql_cp_cpelide.elf, sw/firmware/policy/cpelide.c) on the chiplet
// netlists through the host runtime: the same packets under the baseline and
// CPElide firmware give the CPU reference's bytes; CPElide writes back fewer L2
// lines when each chiplet reuses what it wrote; and a firmware told to skip a
// write-back or an invalidation the table asked for gives stale data, so these
// tests can fail. One platform per test case (one process each).
#include <catch2/catch.hpp>
#include <cstdio>
#include <functional>

#include "platform/host_runtime.h"
#include "platform/timing_device.h"
#include "sw/workloads/chain_stages.h"

using namespace tessera;

namespace {

const std::string kKernels = std::string(TESSERA_BINARY_DIR) + "/sw/kernels/";

TimingDeviceOptions options(const std::string& netlist, const std::string& firmware, unsigned debug_flags) {
  TimingDeviceOptions o;
  o.netlist_file = std::string(TESSERA_SOURCE_DIR) + "/json/platforms/" + netlist;
  o.kernel_dir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
  o.overrides.push_back(parse_override("cp.firmware=" + firmware));
  o.overrides.push_back(parse_override("cp.debug_flags=" + std::to_string(debug_flags)));
  return o;
}

struct Run {
  std::vector<std::vector<uint32_t>> outputs;
  uint64_t l2_lines_written_back = 0, l2_lines_invalidated = 0;
};

// A counter summed over every chiplet's blocks whose names start with `part`.
uint64_t sum_chiplets(const json& stats, const std::string& part, const char* counter) {
  uint64_t sum = 0;
  for (const auto& [name, chiplet] : stats.items())
    if (name.rfind("chiplet[", 0) == 0)
      for (const auto& [block_name, block] : chiplet.items())
        if (block_name.rfind(part, 0) == 0) sum += block.at(counter).get<uint64_t>();
  return sum;
}

// The figures docs/CPELIDE.md quotes, on one line (run the test program with
// -s to see them): simulated cycles, L2 maintenance, DRAM and network bytes,
// the CP's instructions and busy cycles per kernel launch.
void print_figures(const json& stats) {
  const uint64_t launches = stats["cp"]["kernel_launches"].get<uint64_t>();
  std::printf("figures: cycles %.0f l2_lines_written_back %llu l2_lines_invalidated %llu dram_bytes %llu "
              "remote_bytes %llu cp_instructions_per_launch %llu cp_cycles_per_launch %llu dram_row_hits %llu "
              "dram_row_misses %llu dram_row_conflicts %llu dram_queue_wait_ns %llu\n",
              stats["simulation"]["simulated_cycles"].get<double>(),
              (unsigned long long)sum_chiplets(stats, "l2[", "lines_written_back"),
              (unsigned long long)sum_chiplets(stats, "l2[", "lines_invalidated"),
              (unsigned long long)(sum_chiplets(stats, "dram", "bytes_read") + sum_chiplets(stats, "dram", "bytes_written")),
              (unsigned long long)stats["noc"]["remote_bytes"].get<uint64_t>(),
              (unsigned long long)(stats["cp"]["instructions"].get<uint64_t>() / launches),
              (unsigned long long)((stats["cp"]["cycles"].get<uint64_t>() + stats["cp"]["stall_cycles"].get<uint64_t>()) /
                                   launches),
              (unsigned long long)sum_chiplets(stats, "dram", "row_hits"),
              (unsigned long long)sum_chiplets(stats, "dram", "row_misses"),
              (unsigned long long)sum_chiplets(stats, "dram", "row_conflicts"),
              (unsigned long long)(sum_chiplets(stats, "dram", "queue_wait_ps") / 1000));
}

// How the host submits a chain: all packets first, then one wait (as a stream
// does: the CP sees the next kernel while the current one runs), or a wait
// after each kernel (the CP sees only one kernel at a time).
enum class Submit { Ahead, WaitEach };

// A chain of kernels, each a dispatch with access modes and Agent scopes (the
// first acquires at System scope: the host wrote the input), then a barrier
// whose System-scope release makes the results visible to the host.
class Chain {
 public:
  Chain(const std::string& netlist, const std::string& firmware, unsigned debug_flags, Submit submit)
      : dev_(options(netlist, firmware, debug_flags)),
        rt_(*dev_.host_runtime()),
        q_(rt_.create_queue()),
        submit_(submit) {}

  uint64_t buffer(const std::vector<uint32_t>& init) {
    const uint64_t p = rt_.alloc(4ull * init.size());
    rt_.copy_to_device(p, init.data(), 4ull * init.size());
    return p;
  }
  void launch(const std::string& program, const std::string& kernel, uint32_t n,
              const std::vector<BufferAccess>& modes, const std::function<void(KernelArguments&)>& set_args) {
    const HostKernel& k = rt_.kernel(kKernels + program + ".hsaco", kernel);
    KernelArguments args(k);
    set_args(args);
    rt_.set_access_modes(q_, modes);
    const Signal done = submit_ == Submit::WaitEach ? rt_.create_signal(1) : Signal{};
    rt_.dispatch(q_, k, {n, 1, 1}, {256, 1, 1}, args, done, first_ ? FenceScope::System : FenceScope::Agent,
                 FenceScope::Agent);
    first_ = false;
    if (submit_ == Submit::Ahead) return;
    rt_.wait(done);
    rt_.destroy_signal(done);
  }
  Run finish(const std::vector<uint64_t>& outputs, uint32_t n) {
    const Signal synced = rt_.create_signal(1);
    rt_.barrier_and(q_, {}, synced, FenceScope::None, FenceScope::System);
    rt_.wait(synced);
    Run run;
    for (uint64_t p : outputs) {
      run.outputs.emplace_back(n);
      rt_.copy_to_host(run.outputs.back().data(), p, 4ull * n);
    }
    const json stats = dev_.finish();
    run.l2_lines_written_back = sum_chiplets(stats, "l2[", "lines_written_back");
    run.l2_lines_invalidated = sum_chiplets(stats, "l2[", "lines_invalidated");
    print_figures(stats);
    return run;
  }

 private:
  TimingDevice dev_;
  HostRuntime& rt_;
  unsigned q_;
  Submit submit_;
  bool first_ = true;
};

constexpr uint32_t kN = 8192;  // 32 KiB per buffer: each chiplet's share fits its L2

std::vector<uint32_t> input(uint32_t n) {
  std::vector<uint32_t> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = i * 2654435761u + 12345u;
  return x;
}

// producer_consumer's four stages, each reading the previous output where its
// own chiplet wrote it: partitioned access modes.
Run producer_consumer(const std::string& netlist, const std::string& firmware, unsigned debug_flags = 0,
                      Submit submit = Submit::Ahead, uint32_t n = kN) {
  Chain c(netlist, firmware, debug_flags, submit);
  std::vector<uint64_t> x{c.buffer(input(n))};
  for (const auto& stage : workloads::chain::stages()) {
    x.push_back(c.buffer(std::vector<uint32_t>(n, 0)));
    const uint64_t in = x[x.size() - 2], out = x.back();
    c.launch(workloads::chain::kProgram, stage.kernel, n,
             {{in, 4ull * n, AccessMode::ReadOnly, 0, true}, {out, 4ull * n, AccessMode::ReadWrite, 0, true}},
             [&](KernelArguments& a) { a.set_pointer(0, in).set_pointer(1, out).set_value(2, n); });
  }
  return c.finish({x.begin() + 1, x.end()}, n);
}

std::vector<std::vector<uint32_t>> producer_consumer_reference(uint32_t n = kN) {
  std::vector<std::vector<uint32_t>> want;
  std::vector<uint32_t> x = input(n);
  for (const auto& stage : workloads::chain::stages()) {
    for (uint32_t i = 0; i < n; ++i) x[i] = stage.reference(x[i], i);
    want.push_back(x);
  }
  return want;
}

// permuted_consumer's rounds: chiplet c reads what chiplet c+1 wrote, and in
// round 2 lines it cached in round 1 that another chiplet has rewritten since.
// The consumer's reads are declared over the whole buffer (a shifted share is
// not a proportional one).
Run permuted(const std::string& netlist, const std::string& firmware, unsigned debug_flags = 0,
             Submit submit = Submit::Ahead, uint32_t n = kN) {
  Chain c(netlist, firmware, debug_flags, submit);
  const uint64_t buf = c.buffer(std::vector<uint32_t>(n, 0));
  std::vector<uint64_t> outs;
  for (uint32_t round = 0; round < 2; ++round) {
    outs.push_back(c.buffer(std::vector<uint32_t>(n, 0)));
    const uint64_t out = outs.back();
    c.launch("permuted_consumer", "perm_produce", n, {{buf, 4ull * n, AccessMode::ReadWrite, 0, true}},
             [&](KernelArguments& a) { a.set_pointer(0, buf).set_value(1, round + 7).set_value(2, n); });
    c.launch("permuted_consumer", "perm_consume", n,
             {{buf, 4ull * n, AccessMode::ReadOnly}, {out, 4ull * n, AccessMode::ReadWrite, 0, true}},
             [&](KernelArguments& a) { a.set_pointer(0, buf).set_pointer(1, out).set_value(2, 4u).set_value(3, n); });
  }
  return c.finish(outs, n);
}

std::vector<std::vector<uint32_t>> permuted_reference(uint32_t n = kN) {
  std::vector<std::vector<uint32_t>> want;
  for (uint32_t round = 0; round < 2; ++round) {
    std::vector<uint32_t> out(n);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = (i + n / 4) % n;
      uint32_t v = (j + 1u) * 2654435761u + (round + 7) * 0x632be5abu;
      v ^= v >> 16;
      v *= 0x85ebca6bu;
      out[i] = (v ^ (v >> 13)) * 0xc2b2ae35u + i;
    }
    want.push_back(out);
  }
  return want;
}

}  // namespace

TEST_CASE("cpelide: producer_consumer on 4 chiplets: the reference's bytes, every L2 invalidation elided",
          "[cpelide]") {
  const Run run = producer_consumer("chiplet4_small.json", "aql_cp_cpelide.elf");
  CHECK(run.outputs == producer_consumer_reference());
  // Each chiplet reads only what it wrote: nothing goes stale, so no L2 line is
  // dropped, and each output's lines are written back once, at the barrier.
  CHECK(run.l2_lines_invalidated == 0);
  CHECK(run.l2_lines_written_back == 4ull * 4 * kN / 128);
}

TEST_CASE("cpelide: producer_consumer on 2 chiplets", "[cpelide]") {
  CHECK(producer_consumer("chiplet2_small.json", "aql_cp_cpelide.elf").outputs == producer_consumer_reference());
}

TEST_CASE("cpelide: producer_consumer on 8 chiplets", "[cpelide]") {
  CHECK(producer_consumer("chiplet8_small.json", "aql_cp_cpelide.elf").outputs == producer_consumer_reference());
}

TEST_CASE("cpelide: the baseline firmware runs the same packets to the same bytes, invalidating L2s", "[cpelide]") {
  const Run run = producer_consumer("chiplet4_small.json", "aql_cp.elf");
  CHECK(run.outputs == producer_consumer_reference());
  CHECK(run.l2_lines_invalidated > 0);
  CHECK(run.l2_lines_written_back == 4ull * 4 * kN / 128);
}

TEST_CASE("cpelide: permuted_consumer on 4 chiplets", "[cpelide]") {
  CHECK(permuted("chiplet4_small.json", "aql_cp_cpelide.elf").outputs == permuted_reference());
}

TEST_CASE("cpelide: permuted_consumer on 2 chiplets", "[cpelide]") {
  CHECK(permuted("chiplet2_small.json", "aql_cp_cpelide.elf").outputs == permuted_reference());
}

TEST_CASE("cpelide: permuted_consumer on 8 chiplets", "[cpelide]") {
  CHECK(permuted("chiplet8_small.json", "aql_cp_cpelide.elf").outputs == permuted_reference());
}

TEST_CASE("cpelide: skipping the write-backs the table asks for gives stale data", "[cpelide]") {
  // debug_flags 1: no release. Chiplet c reads what c+1 wrote and still holds dirty.
  CHECK(permuted("chiplet4_small.json", "aql_cp_cpelide.elf", 1).outputs != permuted_reference());
}

TEST_CASE("cpelide: skipping the invalidations the table asks for gives stale data", "[cpelide]") {
  // debug_flags 2: no L2 acquire. In round 2 chiplet c reads its round-1 copy.
  CHECK(permuted("chiplet4_small.json", "aql_cp_cpelide.elf", 2).outputs != permuted_reference());
}

TEST_CASE("cpelide: the baseline firmware runs permuted_consumer's packets to the same bytes", "[cpelide]") {
  CHECK(permuted("chiplet4_small.json", "aql_cp.elf").outputs == permuted_reference());
}

TEST_CASE("cpelide: producer_consumer with a wait after each kernel (no look-ahead) on 4 chiplets", "[cpelide]") {
  const Run run = producer_consumer("chiplet4_small.json", "aql_cp_cpelide.elf", 0, Submit::WaitEach);
  CHECK(run.outputs == producer_consumer_reference());
  CHECK(run.l2_lines_invalidated == 0);
}

TEST_CASE("cpelide: permuted_consumer with a wait after each kernel (no look-ahead) on 4 chiplets", "[cpelide]") {
  CHECK(permuted("chiplet4_small.json", "aql_cp_cpelide.elf", 0, Submit::WaitEach).outputs == permuted_reference());
}

TEST_CASE("cpelide: skipping write-backs without look-ahead gives stale data", "[cpelide]") {
  CHECK(permuted("chiplet4_small.json", "aql_cp_cpelide.elf", 1, Submit::WaitEach).outputs != permuted_reference());
}

namespace {

// permuted_consumer's two rounds over two queues, each queue waiting for the
// other's kernel with a barrier-AND, so that the CP goes back and forth:
//   queue 0: produce round 1 (s0), wait for s1, consume round 2 -> out1, System barrier
//   queue 1: wait for s0, consume round 1 -> out0, produce round 2 (s1)
// The CP serves queue 0 until its barrier blocks, then queue 1, whose
// look-ahead prepares its produce while its consume runs, then queue 0 again:
// one table, written by both queues' kernels. Each consume reads what another
// chiplet wrote on the other queue (a release), and round 2's what its own
// chiplet cached in round 1 (an invalidation).
std::vector<std::vector<uint32_t>> permuted_two_queues(unsigned debug_flags) {
  TimingDevice dev(options("chiplet4_small.json", "aql_cp_cpelide.elf", debug_flags));
  HostRuntime& rt = *dev.host_runtime();
  const unsigned q0 = rt.create_queue(), q1 = rt.create_queue();
  const uint32_t n = kN;
  auto buffer = [&] {
    const uint64_t p = rt.alloc(4ull * n);
    const std::vector<uint32_t> zero(n, 0);
    rt.copy_to_device(p, zero.data(), 4ull * n);
    return p;
  };
  const uint64_t buf = buffer(), out0 = buffer(), out1 = buffer();
  const HostKernel& produce = rt.kernel(kKernels + "permuted_consumer.hsaco", "perm_produce");
  const HostKernel& consume = rt.kernel(kKernels + "permuted_consumer.hsaco", "perm_consume");
  auto produce_on = [&](unsigned q, uint32_t round, Signal done, FenceScope acquire) {
    KernelArguments a(produce);
    a.set_pointer(0, buf).set_value(1, round + 7).set_value(2, n);
    rt.set_access_modes(q, {{buf, 4ull * n, AccessMode::ReadWrite, 0, true}});
    rt.dispatch(q, produce, {n, 1, 1}, {256, 1, 1}, a, done, acquire, FenceScope::Agent);
  };
  auto consume_on = [&](unsigned q, uint64_t out) {
    KernelArguments a(consume);
    a.set_pointer(0, buf).set_pointer(1, out).set_value(2, 4u).set_value(3, n);
    rt.set_access_modes(q, {{buf, 4ull * n, AccessMode::ReadOnly}, {out, 4ull * n, AccessMode::ReadWrite, 0, true}});
    rt.dispatch(q, consume, {n, 1, 1}, {256, 1, 1}, a, Signal{}, FenceScope::Agent, FenceScope::Agent);
  };
  const Signal s0 = rt.create_signal(1), s1 = rt.create_signal(1), done = rt.create_signal(1);
  produce_on(q0, 0, s0, FenceScope::System);  // the host wrote the buffers
  rt.barrier_and(q0, {s1}, Signal{});
  consume_on(q0, out1);
  rt.barrier_and(q0, {}, done, FenceScope::None, FenceScope::System);
  rt.barrier_and(q1, {s0}, Signal{});
  consume_on(q1, out0);
  produce_on(q1, 1, s1, FenceScope::Agent);
  rt.wait(done);
  std::vector<std::vector<uint32_t>> outputs(2, std::vector<uint32_t>(n));
  rt.copy_to_host(outputs[0].data(), out0, 4ull * n);
  rt.copy_to_host(outputs[1].data(), out1, 4ull * n);
  print_figures(dev.finish());
  return outputs;
}

}  // namespace

TEST_CASE("cpelide: two queues that wait for each other share the table: the reference's bytes", "[cpelide]") {
  CHECK(permuted_two_queues(0) == permuted_reference());
}

TEST_CASE("cpelide: two queues, skipping the table's write-backs, give stale data", "[cpelide]") {
  CHECK(permuted_two_queues(1) != permuted_reference());
}

TEST_CASE("cpelide: two queues, skipping the table's invalidations, give stale data", "[cpelide]") {
  CHECK(permuted_two_queues(2) != permuted_reference());
}


// The paper's machine (4 x 60 CUs, 8 MiB of L2 per chiplet) at 64 Ki elements
// per buffer: one workgroup per CU, each kernel longer than on the small
// netlists. docs/CPELIDE.md quotes the figures of these four. Each takes
// minutes.
constexpr uint32_t kPaperN = 65536;

// Hidden for its run time: 27 minutes on a loaded machine (it passed).
TEST_CASE("cpelide: producer_consumer on cpelide_4chiplet", "[.][cpelide-figures]") {
  const Run run = producer_consumer("cpelide_4chiplet.json", "aql_cp_cpelide.elf", 0, Submit::Ahead, kPaperN);
  CHECK(run.outputs == producer_consumer_reference(kPaperN));
  CHECK(run.l2_lines_invalidated == 0);
}

// The baseline's figures on the paper's machine, for comparison only (hidden:
// run them with `timing_tests "[cpelide-figures]" -s`).
TEST_CASE("cpelide: producer_consumer on cpelide_4chiplet, baseline firmware", "[.][cpelide-figures]") {
  CHECK(producer_consumer("cpelide_4chiplet.json", "aql_cp.elf", 0, Submit::Ahead, kPaperN).outputs ==
        producer_consumer_reference(kPaperN));
}

TEST_CASE("cpelide: permuted_consumer on cpelide_4chiplet", "[cpelide]") {
  CHECK(permuted("cpelide_4chiplet.json", "aql_cp_cpelide.elf", 0, Submit::Ahead, kPaperN).outputs ==
        permuted_reference(kPaperN));
}

TEST_CASE("cpelide: permuted_consumer on cpelide_4chiplet, baseline firmware", "[.][cpelide-figures]") {
  CHECK(permuted("cpelide_4chiplet.json", "aql_cp.elf", 0, Submit::Ahead, kPaperN).outputs ==
        permuted_reference(kPaperN));
}
