// One wavefront: the architectural state (WaveState) plus what instruction
// semantics need beyond registers: device memory, the workgroup's LDS, the
// wave's private (scratch) segment, its identity and its run status.
//
// Contract with the semantics (ExecFn):
//   - When an ExecFn runs, `pc` already holds the address of the next
//     instruction; a branch overwrites it, anything else leaves it alone.
//   - A guest error (bad address, illegal operand) calls fault(): the wave
//     stops and the executor reports the message with the wave's identity, the
//     PC of the faulting instruction and the kernel. The first fault wins.
//   - Memory helpers return nullptr after faulting; the caller returns at once.
// A Wave built with only register counts (unit tests) has no memory, LDS or
// scratch: every access to them faults with a message saying so.
#pragma once
#include <cstdint>
#include <string>

#include "common/device_memory.h"
#include "models/cu/isa/wave_state.h"

namespace tessera::isa {


enum class WaveStatus : uint8_t { Running, AtBarrier, Ended, Faulted };

// Where a wave sits in the dispatch, for fault reports and s_getreg(HW_ID).
struct WaveId {
  uint32_t workgroup[3] = {0, 0, 0};
  uint32_t wave_in_group = 0;   // 0 .. waves per workgroup - 1
  uint64_t dispatch_wave = 0;   // index among all waves of the dispatch
};

struct DispatchContext;  // models/cu/isa/dispatch.h

class Wave : public WaveState {
 public:
  Wave(unsigned vgprs, unsigned agprs) : WaveState(vgprs, agprs) {}

  // Back to the state of a new wave: registers zeroed, running, no fault,
  // nothing attached (lets an executor reuse a wave's register storage).
  void reset();

  // --- Wiring (the executor sets these before the first instruction) ---
  void attach_memory(DeviceMemory* memory) { memory_ = memory; }
  void attach_lds(uint8_t* base, uint32_t bytes) {
    lds_ = base;
    lds_size_ = bytes;
  }
  // The wave's private segment in device memory: lane L's private byte A lives
  // at base + swizzle(A, L) (see scratch()); `lane_bytes` is the per-lane size.
  // The base lives in FLAT_SCRATCH, as on hardware, where kernels' prologs set it.
  void attach_scratch(uint64_t base, uint32_t lane_bytes) {
    set_s64(reg::kFlatScratchLo, base);
    scratch_lane_bytes_ = lane_bytes;
  }
  void set_context(const DispatchContext* ctx) { ctx_ = ctx; }
  const DispatchContext* context() const { return ctx_; }
  DeviceMemory* memory() { return memory_; }
  uint32_t lds_size() const { return lds_size_; }
  uint64_t scratch_base() const { return s64(reg::kFlatScratchLo); }
  uint32_t scratch_lane_bytes() const { return scratch_lane_bytes_; }

  WaveId id;
  // Bits of the MODE hardware register that FpMode does not hold (round
  // modes, exception enables), kept so s_getreg reads back what s_setreg wrote.
  uint32_t mode_other_bits = 0;
  // MODE.GPR_IDX_EN: s_set_gpr_idx_on has made VALU instructions add M0[7:0]
  // to the VGPR operands M0[15:12] selects (see execute() in wave_runner.h).
  bool gpr_idx_on = false;
  // Device address of the code object's vaddr 0 (DispatchContext::code_base):
  // `pc` holds code object addresses, the program sees pc + code_base.
  uint64_t code_base = 0;

  // --- Status ---
  WaveStatus status() const { return status_; }
  bool running() const { return status_ == WaveStatus::Running; }
  void fault(std::string message) {
    if (status_ == WaveStatus::Faulted) return;
    status_ = WaveStatus::Faulted;
    fault_message_ = std::move(message);
  }
  const std::string& fault_message() const { return fault_message_; }
  void end() {
    if (status_ != WaveStatus::Faulted) status_ = WaveStatus::Ended;
  }
  void arrive_at_barrier() {
    if (status_ == WaveStatus::Running) status_ = WaveStatus::AtBarrier;
  }
  void leave_barrier() {
    if (status_ == WaveStatus::AtBarrier) status_ = WaveStatus::Running;
  }

  // --- Memory. Each returns a host pointer to `bytes` bytes or, after
  // faulting with the address in the message, nullptr. ---

  // Device (global) memory at a 64-bit device address.
  uint8_t* global(uint64_t addr, unsigned bytes) {
    uint8_t* p = memory_ ? memory_->translate(addr, bytes) : nullptr;
    if (!p) fault_global(addr, bytes);
    return p;
  }
  // LDS at a byte offset into the workgroup's allocation.
  uint8_t* lds(uint64_t addr, unsigned bytes) {
    if (!lds_ || addr > lds_size_ || lds_size_ - addr < bytes) {
      fault_lds(addr, bytes);
      return nullptr;
    }
    return lds_ + addr;
  }
  // Lane `lane`'s private byte `addr`. Private memory is swizzled in 4-byte
  // elements across the 64 lanes, as the hardware lays out scratch:
  // device address = FLAT_SCRATCH + (addr / 4) * 256 + lane * 4 + addr % 4.
  // One access stays inside one 4-byte element; the semantics split wider
  // accesses into dwords.
  uint8_t* scratch(uint64_t addr, unsigned lane, unsigned bytes) {
    if (!memory_ || addr >= scratch_lane_bytes_ || scratch_lane_bytes_ - addr < bytes || (addr & 3) + bytes > 4) {
      fault_scratch(addr, lane, bytes);
      return nullptr;
    }
    const uint64_t dev = scratch_base() + (addr >> 2) * (4 * kWaveSize) + lane * 4 + (addr & 3);
    uint8_t* p = memory_->translate(dev, bytes);
    if (!p) fault_scratch(addr, lane, bytes);
    return p;
  }
  // Whole-wave range checks for the memory semantics' fast paths: the host
  // pointer of byte `lo` if [lo, end) lies inside the LDS (or inside one
  // device allocation), else nullptr. Never faults: on nullptr the caller
  // takes the per-lane path, which reports the first faulting lane exactly.
  uint8_t* lds_range(uint64_t lo, uint64_t end) {
    if (!lds_ || end < lo || end > lds_size_) return nullptr;
    return lds_ + lo;
  }
  uint8_t* global_range(uint64_t lo, uint64_t end) {
    if (!memory_ || end <= lo) return nullptr;
    return memory_->translate(lo, end - lo);
  }
  // A flat address: the LDS or private aperture, else device memory.
  uint8_t* flat(uint64_t addr, unsigned lane, unsigned bytes) {
    const uint64_t high = addr & ~(kApertureSize - 1);
    if (high == kSharedApertureBase) return lds(addr - kSharedApertureBase, bytes);
    if (high == kPrivateApertureBase) return scratch(addr - kPrivateApertureBase, lane, bytes);
    return global(addr, bytes);
  }

 private:
  void fault_global(uint64_t addr, unsigned bytes);
  void fault_lds(uint64_t addr, unsigned bytes);
  void fault_scratch(uint64_t addr, unsigned lane, unsigned bytes);

  DeviceMemory* memory_ = nullptr;
  uint8_t* lds_ = nullptr;
  uint32_t lds_size_ = 0;
  uint32_t scratch_lane_bytes_ = 0;
  const DispatchContext* ctx_ = nullptr;
  WaveStatus status_ = WaveStatus::Running;
  std::string fault_message_;
};

}  // namespace tessera::isa
