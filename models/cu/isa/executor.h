// The functional executor: runs a whole dispatch, workgroup by workgroup, with
// no timing. Each workgroup gets its LDS and its waves (ceil(size / 64)) with
// the HSA initial state; the waves run round-robin in time slices, and a wave
// that reaches s_barrier waits until every wave of its workgroup has reached
// it or ended.
//
// Guest errors (a bad address, an instruction without semantics, an invalid
// encoding, a jump outside the code) stop the dispatch with a KernelFault that
// names the kernel, the workgroup, the wave, the PC and the instruction.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/isa/decode_cache.h"
#include "common/device_memory.h"
#include "models/cu/isa/dispatch.h"
#include "models/cu/isa/wave_runner.h"

namespace tessera::isa {

struct ExecStats {
  uint64_t wave_instructions = 0;
  uint64_t waves = 0;
  uint64_t workgroups = 0;
};

struct ExecutorOptions {
  // Stop a dispatch as hung after this many wave-instructions (0: no limit).
  uint64_t instruction_limit = 0;
  // Wave-instructions a wave runs before the next wave of its workgroup gets a
  // turn, so waves that wait for each other through memory make progress.
  uint32_t time_slice = 4096;
};

class Executor {
 public:
  explicit Executor(DeviceMemory& memory, ExecutorOptions options = {}) : memory_(memory), options_(options) {}

  // Runs `kernel` of the cached code object to completion. Throws UserError for
  // a launch that does not fit the kernel (argument count/sizes, geometry) and
  // KernelFault if a wave faults. Device memory the dispatch needs for itself
  // (packet, kernargs, scratch) is allocated and freed here. `code_base` is
  // where the code object is loaded (DispatchContext::code_base; 0 when it
  // is not in device memory, for kernels without constant data).
  ExecStats launch(DecodeCache& program, const KernelInfo& kernel, const LaunchConfig& config,
                   uint64_t code_base = 0);

 private:
  class Dispatch;
  DeviceMemory& memory_;
  ExecutorOptions options_;
  uint64_t next_dispatch_id_ = 0;
};

}  // namespace tessera::isa
