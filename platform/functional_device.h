// The functional Tessera device: host programs' device memory, code objects
// and launches served by the ISA-level functional executor, with no timing.
//
// Launches load `<kernel_dir>/<program>.hsaco` (each code object loaded and
// decoded once, then cached), lay the arguments out as the kernel metadata
// says and run the whole grid. The same objects (code object, decode cache,
// dispatch set-up, semantics) serve the command processor and the
// cycle-level CU later; only the orchestration here is functional-only.
#pragma once
#include <string>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"
#include "common/device_memory.h"
#include "models/cu/isa/executor.h"
#include "platform/program_cache.h"
#include "sw/runtime/device.h"

namespace tessera {

class FunctionalDevice : public runtime::Device {
 public:
  explicit FunctionalDevice(std::string kernel_dir, isa::ExecutorOptions options = {});
  // With TESSERA_FUNCTIONAL_STATS set in the environment, prints the totals
  // below to stderr: execution speed without the host program's own work.
  ~FunctionalDevice() override;

  std::string name() const override { return "tessera-functional"; }
  runtime::DevicePtr alloc(size_t bytes) override;
  void free(runtime::DevicePtr p) override;
  void write(runtime::DevicePtr dst, const void* src, size_t bytes) override;
  void read(void* dst, runtime::DevicePtr src, size_t bytes) override;
  runtime::LaunchStats launch(const std::string& program, const std::string& kernel, runtime::Dim3 global,
                              runtime::Dim3 local, const runtime::KernelArgs& args) override;

  // A code object by path, loaded once. Throws isa::CodeObjectError.
  const isa::CodeObject& load(const std::string& path);
  // Launches a kernel of a code object file with arguments already in the
  // executor's form (the `tessera launch` command uses this). Throws
  // isa::CodeObjectError / UserError for bad input, isa::KernelFault on a fault.
  isa::ExecStats launch_file(const std::string& path, const std::string& kernel, const isa::LaunchConfig& config);

  isa::DeviceMemory& memory() { return memory_; }

  // Everything this device has executed, and the wall time spent executing.
  struct Totals {
    uint64_t launches = 0, wave_instructions = 0, waves = 0, workgroups = 0;
    double seconds = 0;
  };
  const Totals& totals() const { return totals_; }

 private:
  std::string kernel_dir_;
  isa::DeviceMemory memory_;
  isa::Executor executor_;
  ProgramCache programs_{memory_};
  Totals totals_;
};

}  // namespace tessera
