// The marks against execution: kernels of the suite run on the functional
// executor's wave machinery, and every instruction the analysis lets a
// workgroup of that shape skip (skippable(): DR, and CR by the launch rule)
// must write the same values, lane by lane, in every wave of the workgroup:
// the k-th execution of the instruction in one wave against the k-th in
// another. Each wave runs until it ends or reaches a barrier before the next
// one starts, the order in which a wave sees most of the other waves' stores.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/cu/analysis/kernel_analysis.h"
#include "models/cu/isa/code_loader.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"
#include "common/device_memory.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/dispatch.h"
#include "models/cu/isa/prepared_dispatch.h"
#include "models/cu/isa/wave.h"
#include "models/cu/isa/wave_runner.h"

using namespace tessera;
using namespace tessera::isa;
using analysis::InstructionMark;
using analysis::KernelMarks;

namespace {

// What one execution of a skippable instruction wrote: EXEC, then each
// destination dword's 64 lanes.
struct Written {
  uint64_t exec = 0;
  std::vector<uint32_t> lanes;
};
using WaveRecord = std::map<uint64_t, std::vector<Written>>;  // by PC, in execution order

struct Outcome {
  size_t compared = 0;    // lane values compared
  size_t mismatches = 0;
  size_t skippable_executions = 0;
  std::string first;      // the first mismatch
};

ArgValue buffer_arg(uint64_t address) {
  ArgValue a;
  a.bytes.resize(8);
  std::memcpy(a.bytes.data(), &address, 8);
  return a;
}
ArgValue u32_arg(uint32_t v) {
  ArgValue a;
  a.bytes.resize(4);
  std::memcpy(a.bytes.data(), &v, 4);
  return a;
}

class MarkChecker {
 public:
  MarkChecker(const std::string& file, const std::string& kernel)
      : object_(CodeObject::load_file(std::string(TESSERA_BINARY_DIR) + "/sw/kernels/" + file)),
        kernel_(object_.find_kernel(kernel)),
        program_(object_),
        loaded_(memory_, object_) {
    REQUIRE(kernel_);
    marks_ = analysis::analyze_kernel(object_, *kernel_);
    REQUIRE(marks_.unanalysed.empty());
  }

  // A buffer of `words` random 32-bit values (small floats, as the kernels read floats).
  uint64_t buffer(size_t words) {
    std::vector<float> data(words);
    for (float& f : data) f = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng_);
    const uint64_t address = memory_.alloc(words * 4);
    memory_.write(address, data.data(), words * 4);
    return address;
  }

  // Treats the instructions whose text starts with `text` as skippable: a
  // deliberately wrong marking, to show that the check can fail.
  void mark_wrongly(const std::string& text) {
    for (const Instruction& inst : analysis::kernel_code(object_, *kernel_))
      if (disassemble(inst).rfind(text, 0) == 0) wrongly_marked_.insert(inst.pc);
    REQUIRE(!wrongly_marked_.empty());
  }

  Outcome run(const LaunchConfig& config) {
    PreparedDispatch prepared(memory_, program_, *kernel_, config, 0);
    DispatchContext& ctx = prepared.ctx();
    ctx.code_base = loaded_.base();
    std::unique_ptr<ScopedAllocation> scratch;
    if (ctx.scratch_wave_bytes) {
      scratch = std::make_unique<ScopedAllocation>(memory_, prepared.scratch_bytes_per_workgroup());
      ctx.scratch_address = scratch->address();
    }
    const analysis::WorkgroupShape shape{config.workgroup[0], config.workgroup[1], config.workgroup[2]};
    Outcome out;
    uint32_t wg[3];
    for (wg[2] = 0; wg[2] < ctx.workgroup_count[2]; ++wg[2])
      for (wg[1] = 0; wg[1] < ctx.workgroup_count[1]; ++wg[1])
        for (wg[0] = 0; wg[0] < ctx.workgroup_count[0]; ++wg[0]) compare(run_workgroup(ctx, wg, shape, out), out);
    return out;
  }

 private:
  std::vector<WaveRecord> run_workgroup(const DispatchContext& ctx, const uint32_t wg[3],
                                        const analysis::WorkgroupShape& shape, Outcome& out) {
    const KernelDescriptor& kd = kernel_->descriptor;
    uint32_t ext[3];
    workgroup_extent(ctx, wg, ext);
    const uint32_t nwaves = static_cast<uint32_t>((uint64_t(ext[0]) * ext[1] * ext[2] + kWaveSize - 1) / kWaveSize);
    std::vector<uint8_t> lds(std::max<uint32_t>(ctx.lds_bytes, 1), 0);
    std::vector<std::unique_ptr<Wave>> waves;
    for (uint32_t i = 0; i < nwaves; ++i) {
      waves.push_back(std::make_unique<Wave>(kd.arch_vgprs(), kd.agprs()));
      waves.back()->attach_memory(&memory_);
      waves.back()->attach_lds(lds.data(), ctx.lds_bytes);
      setup_wave(*waves.back(), ctx, wg, i);
    }
    std::vector<WaveRecord> records(nwaves);
    for (;;) {
      for (uint32_t i = 0; i < nwaves; ++i)
        while (waves[i]->running()) step(*waves[i], shape, records[i], out);
      bool released = false;
      for (auto& w : waves)
        if (w->status() == WaveStatus::AtBarrier) w->leave_barrier(), released = true;
      if (!released) break;
    }
    return records;
  }

  void step(Wave& w, const analysis::WorkgroupShape& shape, WaveRecord& record, Outcome& out) {
    FaultSite site;
    const DecodedOp* op = next_op(program_, w, site);
    REQUIRE(op);
    execute(w, *op);
    REQUIRE(w.status() != WaveStatus::Faulted);
    const InstructionMark* mark = marks_.at(op->inst.pc);
    const Operand& dst = op->inst.dst[0];
    const bool skip = (mark && analysis::skippable(*mark, shape)) || wrongly_marked_.count(op->inst.pc);
    if (!skip || dst.kind != OperandKind::Vgpr) return;
    Written written;
    written.exec = w.exec();
    for (unsigned d = 0; d < dst.dwords; ++d) written.lanes.insert(written.lanes.end(), w.v(dst.reg + d), w.v(dst.reg + d) + kWaveSize);
    record[op->inst.pc].push_back(std::move(written));
    ++out.skippable_executions;
  }

  // Every wave against wave 0: the same PC's k-th execution, lanes active in both.
  void compare(const std::vector<WaveRecord>& records, Outcome& out) {
    for (size_t w = 1; w < records.size(); ++w)
      for (const auto& [pc, runs] : records[0]) {
        auto other = records[w].find(pc);
        if (other == records[w].end()) continue;
        for (size_t k = 0; k < std::min(runs.size(), other->second.size()); ++k) compare_run(pc, runs[k], other->second[k], w, out);
      }
  }

  void compare_run(uint64_t pc, const Written& a, const Written& b, size_t wave, Outcome& out) {
    const uint64_t both = a.exec & b.exec;
    for (size_t i = 0; i < a.lanes.size() && i < b.lanes.size(); ++i) {
      if (!(both >> (i % kWaveSize) & 1)) continue;
      ++out.compared;
      if (a.lanes[i] == b.lanes[i]) continue;
      if (out.mismatches++ == 0) {
        std::ostringstream s;
        s << "PC 0x" << std::hex << pc << std::dec << ": wave " << wave << " lane " << i % kWaveSize << " wrote "
          << b.lanes[i] << ", wave 0 wrote " << a.lanes[i];
        out.first = s.str();
      }
    }
  }

  CodeObject object_;
  const KernelInfo* kernel_;
  DeviceMemory memory_;
  DecodeCache program_;
  LoadedCode loaded_;
  KernelMarks marks_;
  std::set<uint64_t> wrongly_marked_;
  std::mt19937 rng_{42};
};

LaunchConfig config_2d(uint32_t gx, uint32_t gy, uint32_t wx, uint32_t wy) {
  LaunchConfig c;
  c.grid[0] = gx, c.grid[1] = gy, c.workgroup[0] = wx, c.workgroup[1] = wy;
  return c;
}

}  // namespace

TEST_CASE("sgemm: every skippable instruction writes the same values in every wave", "[analysis][marks]") {
  for (uint32_t tile : {16u, 32u}) {
    MarkChecker k("sgemm.hsaco", tile == 16 ? "sgemm_tile16" : "sgemm_tile32");
    const uint32_t n = 64;
    LaunchConfig c = config_2d(n, n, tile, tile);
    c.args = {buffer_arg(k.buffer(n * n)), buffer_arg(k.buffer(n * n)), buffer_arg(k.buffer(n * n)), u32_arg(n),
              u32_arg(n), u32_arg(n)};
    const Outcome o = k.run(c);
    INFO("tile " << tile << ": " << o.first);
    CHECK(o.mismatches == 0);
    CHECK(o.skippable_executions > 1000);
    CHECK(o.compared > 100000);
  }
}

TEST_CASE("transpose and stencil5: every skippable instruction writes the same values in every wave",
          "[analysis][marks]") {
  {
    MarkChecker k("transpose.hsaco", "transpose");
    LaunchConfig c = config_2d(48, 32, 16, 16);
    c.args = {buffer_arg(k.buffer(48 * 32)), buffer_arg(k.buffer(48 * 32)), u32_arg(32), u32_arg(48)};
    const Outcome o = k.run(c);
    INFO(o.first);
    CHECK(o.mismatches == 0);
    CHECK(o.compared > 0);
  }
  {
    MarkChecker k("stencil2d.hsaco", "stencil5");
    LaunchConfig c = config_2d(32, 32, 16, 16);
    c.args = {buffer_arg(k.buffer(32 * 32)), buffer_arg(k.buffer(32 * 32)), u32_arg(32), u32_arg(32)};
    const Outcome o = k.run(c);
    INFO(o.first);
    CHECK(o.mismatches == 0);
    CHECK(o.compared > 0);
  }
}

TEST_CASE("conv2d and a 1D kernel: every skippable instruction writes the same values in every wave",
          "[analysis][marks]") {
  {
    MarkChecker k("conv2d.hsaco", "conv2d");
    LaunchConfig c = config_2d(48, 32, 16, 16);
    c.args = {buffer_arg(k.buffer(48 * 32)), buffer_arg(k.buffer(25)), buffer_arg(k.buffer(48 * 32)), u32_arg(48),
              u32_arg(32)};
    const Outcome o = k.run(c);
    INFO(o.first);
    CHECK(o.mismatches == 0);
    CHECK(o.compared > 0);
  }
  {
    // 1D, 256 work-items per workgroup: only DR instructions are skippable.
    MarkChecker k("vector_add.hsaco", "vector_add");
    LaunchConfig c;
    c.grid[0] = 1000, c.workgroup[0] = 256;
    c.args = {buffer_arg(k.buffer(1000)), buffer_arg(k.buffer(1000)), buffer_arg(k.buffer(1000)), u32_arg(1000)};
    const Outcome o = k.run(c);
    INFO(o.first);
    CHECK(o.mismatches == 0);
    CHECK(o.compared > 0);
  }
}

TEST_CASE("the check fails on a wrong mark: work-item y taken for uniform", "[analysis][marks]") {
  MarkChecker k("sgemm.hsaco", "sgemm_tile16");
  k.mark_wrongly("v_bfe_u32 v5, v0, 10, 10");  // ly: each wave of a 16x16 workgroup holds other rows
  const uint32_t n = 32;
  LaunchConfig c = config_2d(n, n, 16, 16);
  c.args = {buffer_arg(k.buffer(n * n)), buffer_arg(k.buffer(n * n)), buffer_arg(k.buffer(n * n)), u32_arg(n),
            u32_arg(n), u32_arg(n)};
  const Outcome o = k.run(c);
  INFO(o.first);
  CHECK(o.mismatches > 0);
  CHECK(o.first.find("wave 1") != std::string::npos);
}
