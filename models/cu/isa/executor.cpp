#include "models/cu/isa/executor.h"

#include <algorithm>

#include "models/cu/isa/prepared_dispatch.h"
#include "platform/limits.h"

namespace tessera::isa {

// One dispatch in flight: its prepared context, its scratch (one workgroup's
// worth: workgroups run one after another) and its run loop.
class Executor::Dispatch {
 public:
  Dispatch(Executor& ex, DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config,
           uint64_t code_base)
      : ex_(ex), prepared_(ex.memory_, program, kernel, config, ex.next_dispatch_id_++) {
    DispatchContext& ctx = prepared_.ctx();
    ctx.code_base = code_base;
    if (ctx.scratch_wave_bytes) {
      scratch_ = std::make_unique<ScopedAllocation>(ex.memory_, prepared_.scratch_bytes_per_workgroup());
      ctx.scratch_address = scratch_->address();
    }
    lds_.resize(std::max<uint32_t>(ctx.lds_bytes, 1));
  }

  ExecStats run() {
    const DispatchContext& ctx = prepared_.ctx();
    ExecStats stats;
    uint32_t wg[3];
    for (wg[2] = 0; wg[2] < ctx.workgroup_count[2]; ++wg[2])
      for (wg[1] = 0; wg[1] < ctx.workgroup_count[1]; ++wg[1])
        for (wg[0] = 0; wg[0] < ctx.workgroup_count[0]; ++wg[0]) run_workgroup(wg, stats);
    return stats;
  }

 private:
  void run_workgroup(const uint32_t wg[3], ExecStats& stats) {
    const DispatchContext& ctx = prepared_.ctx();
    const KernelInfo& kernel = prepared_.kernel();
    const KernelDescriptor& kd = kernel.descriptor;
    uint32_t ext[3];
    workgroup_extent(ctx, wg, ext);
    const uint64_t items = uint64_t(ext[0]) * ext[1] * ext[2];
    const uint32_t nwaves = static_cast<uint32_t>((items + kWaveSize - 1) / kWaveSize);
    std::fill(lds_.begin(), lds_.end(), 0);
    // Waves are reused from workgroup to workgroup, reset to a new wave's state.
    while (pool_.size() < nwaves) pool_.push_back(std::make_unique<Wave>(kd.arch_vgprs(), kd.agprs()));
    waves_.clear();
    for (uint32_t i = 0; i < nwaves; ++i) {
      Wave* w = pool_[i].get();
      w->reset();
      w->attach_memory(&ex_.memory_);
      w->attach_lds(lds_.data(), ctx.lds_bytes);
      setup_wave(*w, ctx, wg, i);
      w->id.dispatch_wave = stats.waves + i;
      waves_.push_back(w);
    }
    stats.waves += nwaves;
    ++stats.workgroups;

    DecodeCache& program = prepared_.program();
    executed_.assign(nwaves, 0);
    for (;;) {
      bool any_running = false;
      for (size_t i = 0; i < waves_.size(); ++i) {
        Wave* w = waves_[i];
        if (!w->running()) continue;
        const uint32_t n = run_wave(program, *w, ex_.options_.time_slice, site_);
        stats.wave_instructions += n;
        if ((executed_[i] += n) > limits().wave_instructions && w->running()) report_spinning(program, *w);
        if (w->status() == WaveStatus::Faulted) throw_fault(kernel, *w, site_);
        any_running |= w->running();
      }
      if (ex_.options_.instruction_limit && stats.wave_instructions > ex_.options_.instruction_limit)
        throw KernelFault("kernel '" + kernel.name + "' did not finish within " +
                              std::to_string(ex_.options_.instruction_limit) + " wave-instructions (hung?)",
                          kernel.name, waves_.front()->id, waves_.front()->pc, "instruction limit reached");
      if (any_running) continue;
      // Nobody runs: either every wave ended, or the rest wait at the barrier.
      bool released = false;
      for (Wave* w : waves_)
        if (w->status() == WaveStatus::AtBarrier) {
          w->leave_barrier();
          released = true;
        }
      if (!released) return;
    }
  }

  // A wave past the limit on one wave's instructions: a kernel that spins.
  // Reported as a fault, with the wave, its PC and its instruction.
  void report_spinning(DecodeCache& program, Wave& w) {
    site_.pc = w.pc;
    site_.op = program.at(w.pc);
    w.fault(spinning_message(limits().wave_instructions));
  }

  Executor& ex_;
  PreparedDispatch prepared_;
  std::vector<uint64_t> executed_;  // instructions of each wave of the current workgroup
  std::unique_ptr<ScopedAllocation> scratch_;
  std::vector<uint8_t> lds_;
  std::vector<std::unique_ptr<Wave>> pool_;
  std::vector<Wave*> waves_;  // the current workgroup's, from pool_
  FaultSite site_;
};

ExecStats Executor::launch(DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config,
                           uint64_t code_base) {
  Dispatch d(*this, program, kernel, config, code_base);
  return d.run();
}

}  // namespace tessera::isa
