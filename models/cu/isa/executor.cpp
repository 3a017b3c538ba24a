#include "models/cu/isa/executor.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace tessera::isa {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Private memory per lane for kernels whose stack size is not known at
// compile time (the descriptor's USES_DYNAMIC_STACK).
constexpr uint32_t kDynamicStackBytes = 16 * 1024;

// Device memory a dispatch needs for itself, freed when the dispatch ends.
class ScopedAllocation {
 public:
  ScopedAllocation(DeviceMemory& mem, uint64_t bytes) : mem_(mem), addr_(mem.alloc(bytes)) {}
  ~ScopedAllocation() {
    try {
      mem_.free(addr_);
    } catch (const UserError&) {
      // Already gone: nothing to release.
    }
  }
  ScopedAllocation(const ScopedAllocation&) = delete;
  ScopedAllocation& operator=(const ScopedAllocation&) = delete;
  uint64_t address() const { return addr_; }

 private:
  DeviceMemory& mem_;
  uint64_t addr_;
};

}  // namespace

// One dispatch in flight: its context, its memory and its run loop.
class Executor::Dispatch {
 public:
  Dispatch(Executor& ex, DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config)
      : ex_(ex), program_(program), kernel_(kernel) {
    ctx_.code = &program.code();
    plan_dispatch(kernel, config, ctx_);
    ctx_.dispatch_id = ex.next_dispatch_id_++;
    std::vector<uint8_t> kernargs = build_kernargs(kernel, config.args, ctx_);
    plan_scratch();

    // The packet and a zeroed queue descriptor share one allocation.
    control_ = std::make_unique<ScopedAllocation>(ex.memory_, 64 + 256);
    ctx_.packet_address = control_->address();
    ctx_.queue_address = control_->address() + 64;
    // Whole 256-byte units, as a runtime's kernarg pool hands them out: the
    // compiler fetches kernargs with wide scalar loads that may read past the
    // last argument (a 36-byte segment read as dwordx4 at offset 24).
    kernargs_ = std::make_unique<ScopedAllocation>(ex.memory_, (kernargs.size() + 255) / 256 * 256);
    ctx_.kernarg_address = kernargs_->address();
    if (ctx_.scratch_wave_bytes) {
      scratch_ = std::make_unique<ScopedAllocation>(ex.memory_, uint64_t(ctx_.scratch_wave_bytes) * ctx_.waves_per_workgroup);
      ctx_.scratch_address = scratch_->address();
    }
    // Hidden arguments may name the queue: lay the kernargs out again now that
    // its address is known.
    kernargs = build_kernargs(kernel, config.args, ctx_);
    ex.memory_.write(ctx_.kernarg_address, kernargs.data(), kernargs.size());
    const AqlDispatchPacket packet = make_dispatch_packet(ctx_);
    ex.memory_.write(ctx_.packet_address, &packet, sizeof packet);
    lds_.resize(std::max<uint32_t>(ctx_.lds_bytes, 1));
  }

  ExecStats run() {
    ExecStats stats;
    uint32_t wg[3];
    for (wg[2] = 0; wg[2] < ctx_.workgroup_count[2]; ++wg[2])
      for (wg[1] = 0; wg[1] < ctx_.workgroup_count[1]; ++wg[1])
        for (wg[0] = 0; wg[0] < ctx_.workgroup_count[0]; ++wg[0]) run_workgroup(wg, stats);
    return stats;
  }

 private:
  // Private segment bytes per lane rounded to dwords (scratch is swizzled in
  // dwords); a wave's share rounded to 1 KiB.
  void plan_scratch() {
    const KernelDescriptor& kd = kernel_.descriptor;
    uint32_t lane = std::max(kd.private_segment_fixed_size, kernel_.private_segment_fixed_size);
    if (kd.uses_dynamic_stack) lane = std::max(lane, kDynamicStackBytes);
    if (kd.enable_private_segment && lane == 0) lane = 4;
    lane = (lane + 3) & ~3u;
    ctx_.scratch_lane_bytes = lane;
    ctx_.scratch_wave_bytes = (lane * kWaveSize + 1023) & ~1023u;
  }

  void run_workgroup(const uint32_t wg[3], ExecStats& stats) {
    const KernelDescriptor& kd = kernel_.descriptor;
    uint32_t ext[3];
    workgroup_extent(ctx_, wg, ext);
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
      w->attach_lds(lds_.data(), ctx_.lds_bytes);
      setup_wave(*w, ctx_, wg, i);
      w->id.dispatch_wave = stats.waves + i;
      waves_.push_back(w);
    }
    stats.waves += nwaves;
    ++stats.workgroups;

    for (;;) {
      bool any_running = false;
      for (Wave* w : waves_) {
        if (!w->running()) continue;
        stats.wave_instructions += run_slice(*w);
        if (w->status() == WaveStatus::Faulted) report(*w);
        any_running |= w->running();
      }
      if (ex_.options_.instruction_limit && stats.wave_instructions > ex_.options_.instruction_limit)
        throw KernelFault("kernel '" + kernel_.name + "' did not finish within " +
                              std::to_string(ex_.options_.instruction_limit) + " wave-instructions (hung?)",
                          kernel_.name, waves_.front()->id, waves_.front()->pc, "instruction limit reached");
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

  // Runs one wave until it stops running or its time slice is used up. The
  // current entry stays in a local (not a member) so the loop keeps it in a
  // register across the semantics call; it is recorded only when the wave faults.
  uint64_t run_slice(Wave& w) {
    const uint32_t budget = ex_.options_.time_slice;
    uint32_t n = 0;
    const DecodedOp* op = nullptr;
    while (n < budget) {
      op = program_.at(w.pc);
      if (!op) {
        w.fault("jump to " + hex(w.pc) + ", which is not an instruction address of the kernel's code");
        break;
      }
      if (!op->fn) {
        w.fault(DecodeCache::error(*op));
        break;
      }
      if (op->vgpr_end > w.num_vgprs() || op->agpr_end > w.num_agprs() || op->scalar_end > reg::kScalarFileSize) {
        w.fault(std::string(op->inst.mnemonic()) + " names a register beyond the wave's allocation (" +
                std::to_string(w.num_vgprs()) + " VGPRs, " + std::to_string(w.num_agprs()) +
                " AGPRs from the kernel descriptor)");
        break;
      }
      w.pc = op->inst.pc + op->inst.size;
      op->fn(w, op->inst);
      ++n;
      if (!w.running()) break;
    }
    if (w.status() == WaveStatus::Faulted) {
      fault_op_ = op;
      fault_pc_ = op ? op->inst.pc : w.pc;
    }
    return n;
  }

  [[noreturn]] void report(const Wave& w) {
    const WaveId& id = w.id;
    std::string where = "workgroup (" + std::to_string(id.workgroup[0]) + "," + std::to_string(id.workgroup[1]) + "," +
                        std::to_string(id.workgroup[2]) + ") wave " + std::to_string(id.wave_in_group) + ", PC " +
                        hex(fault_pc_);
    if (fault_pc_ >= kernel_.entry_address) where += " (" + kernel_.name + "+" + hex(fault_pc_ - kernel_.entry_address) + ")";
    if (fault_op_ && fault_op_->inst.op) where += std::string(" in ") + fault_op_->inst.mnemonic();
    throw KernelFault("kernel '" + kernel_.name + "' faulted at " + where + ": " + w.fault_message(), kernel_.name, id,
                      fault_pc_, w.fault_message());
  }

  Executor& ex_;
  DecodeCache& program_;
  const KernelInfo& kernel_;
  DispatchContext ctx_;
  std::unique_ptr<ScopedAllocation> control_, kernargs_, scratch_;
  std::vector<uint8_t> lds_;
  std::vector<std::unique_ptr<Wave>> pool_;
  std::vector<Wave*> waves_;  // the current workgroup's, from pool_
  uint64_t fault_pc_ = 0;
  const DecodedOp* fault_op_ = nullptr;
};

ExecStats Executor::launch(DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config) {
  Dispatch d(*this, program, kernel, config);
  return d.run();
}

}  // namespace tessera::isa
