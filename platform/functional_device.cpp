#include "platform/functional_device.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "platform/errors.h"

namespace tessera {

using runtime::DeviceError;

FunctionalDevice::FunctionalDevice(std::string kernel_dir, isa::ExecutorOptions options)
    : kernel_dir_(std::move(kernel_dir)), executor_(memory_, options) {}

FunctionalDevice::~FunctionalDevice() {
  if (!std::getenv("TESSERA_FUNCTIONAL_STATS") || totals_.launches == 0) return;
  std::fprintf(stderr,
               "tessera-functional: %llu launches, %llu workgroups, %llu waves, %llu wave-instructions in %.3f s "
               "(%.2f M wave-instructions/s)\n",
               static_cast<unsigned long long>(totals_.launches), static_cast<unsigned long long>(totals_.workgroups),
               static_cast<unsigned long long>(totals_.waves), static_cast<unsigned long long>(totals_.wave_instructions),
               totals_.seconds, totals_.seconds > 0 ? double(totals_.wave_instructions) / totals_.seconds / 1e6 : 0.0);
}

runtime::DevicePtr FunctionalDevice::alloc(size_t bytes) {
  try {
    return memory_.alloc(bytes);
  } catch (const LimitError&) {
    throw;  // an input error (exit 3), as every limit is
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

void FunctionalDevice::free(runtime::DevicePtr p) {
  try {
    memory_.free(p);
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

void FunctionalDevice::write(runtime::DevicePtr dst, const void* src, size_t bytes) {
  try {
    memory_.write(dst, src, bytes);
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

void FunctionalDevice::read(void* dst, runtime::DevicePtr src, size_t bytes) {
  try {
    memory_.read(dst, src, bytes);
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

const isa::CodeObject& FunctionalDevice::load(const std::string& path) { return programs_.load(path).code; }

isa::ExecStats FunctionalDevice::launch_file(const std::string& path, const std::string& kernel,
                                             const isa::LaunchConfig& config) {
  ProgramCache::Program& p = programs_.load(path);
  const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
  const auto start = std::chrono::steady_clock::now();
  const isa::ExecStats s = executor_.launch(p.cache, k, config, p.code_base());
  totals_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++totals_.launches;
  totals_.wave_instructions += s.wave_instructions;
  totals_.waves += s.waves;
  totals_.workgroups += s.workgroups;
  return s;
}

runtime::LaunchStats FunctionalDevice::launch(const std::string& program_name, const std::string& kernel,
                                              runtime::Dim3 global, runtime::Dim3 local,
                                              const runtime::KernelArgs& args) {
  const std::string path = kernel_dir_ + "/" + program_name + ".hsaco";
  try {
    ProgramCache::Program& p = programs_.get(path);
    const isa::KernelInfo& k = ProgramCache::kernel(p, path, kernel);
    const isa::LaunchConfig config = make_launch_config(k, global, local, args);
    const isa::ExecStats s = launch_file(path, kernel, config);
    runtime::LaunchStats out;
    out.wave_instructions = s.wave_instructions;
    out.waves = s.waves;
    out.workgroups = s.workgroups;
    return out;
  } catch (const isa::KernelFault& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  } catch (const LimitError&) {
    throw;
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

}  // namespace tessera
