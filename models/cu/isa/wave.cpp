#include "models/cu/isa/wave.h"

#include <cstring>

#include "models/cu/isa/hex.h"

namespace tessera::isa {

void Wave::reset() {
  for (uint16_t r = 0; r < reg::kScalarFileSize; ++r) s(r) = 0;
  for (unsigned r = 0; r < num_vgprs(); ++r) std::memset(v(r), 0, sizeof(VReg));
  for (unsigned r = 0; r < num_agprs(); ++r) std::memset(a(r), 0, sizeof(VReg));
  scc = false;
  pc = 0;
  mode = FpMode{};
  mode_other_bits = 0;
  gpr_idx_on = false;
  code_base = 0;
  id = WaveId{};
  memory_ = nullptr;
  lds_ = nullptr;
  lds_size_ = 0;
  scratch_lane_bytes_ = 0;
  ctx_ = nullptr;
  status_ = WaveStatus::Running;
  fault_message_.clear();
}

void Wave::fault_global(uint64_t addr, unsigned bytes) {
  if (!memory_) {
    fault("memory access at " + hex(addr) + " but this wave has no device memory attached");
    return;
  }
  fault("GPU memory fault: " + std::to_string(bytes) + "-byte access at " + hex(addr) +
        " is outside every device allocation");
}

void Wave::fault_lds(uint64_t addr, unsigned bytes) {
  fault("LDS access out of range: " + std::to_string(bytes) + " bytes at LDS offset " + hex(addr) +
        ", the workgroup has " + std::to_string(lds_size_) + " bytes of LDS");
}

void Wave::fault_scratch(uint64_t addr, unsigned lane, unsigned bytes) {
  if ((addr & 3) + bytes > 4 && addr < scratch_lane_bytes_) {
    fault("private memory access of " + std::to_string(bytes) + " bytes at private offset " + hex(addr) +
          " (lane " + std::to_string(lane) + ") crosses a 4-byte element");
    return;
  }
  fault("private (scratch) memory fault: " + std::to_string(bytes) + " bytes at private offset " + hex(addr) +
        " (lane " + std::to_string(lane) + "), the private segment has " + std::to_string(scratch_lane_bytes_) +
        " bytes per lane");
}

}  // namespace tessera::isa
