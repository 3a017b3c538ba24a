#include "platform/functional_device.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

FunctionalDevice::Program& FunctionalDevice::program(const std::string& path) {
  auto it = programs_.find(path);
  if (it == programs_.end()) it = programs_.emplace(path, std::make_unique<Program>(isa::CodeObject::load_file(path))).first;
  return *it->second;
}

const isa::CodeObject& FunctionalDevice::load(const std::string& path) { return program(path).code; }

isa::ExecStats FunctionalDevice::launch_file(const std::string& path, const std::string& kernel,
                                             const isa::LaunchConfig& config) {
  Program& p = program(path);
  const isa::KernelInfo* k = p.code.find_kernel(kernel);
  if (!k) throw UserError(path + " has no kernel '" + kernel + "'; it has: " + p.code.kernel_names());
  const auto start = std::chrono::steady_clock::now();
  const isa::ExecStats s = executor_.launch(p.cache, *k, config);
  totals_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++totals_.launches;
  totals_.wave_instructions += s.wave_instructions;
  totals_.waves += s.waves;
  totals_.workgroups += s.workgroups;
  return s;
}

// Host arguments to the executor's form, checked against the metadata: a
// buffer where the kernel takes a pointer, a value of the declared size elsewhere.
std::vector<isa::ArgValue> FunctionalDevice::convert_args(const isa::KernelInfo& kernel,
                                                          const runtime::KernelArgs& args) const {
  const std::vector<const isa::KernelArg*> expl = kernel.explicit_args();
  if (args.args().size() != expl.size())
    throw UserError("kernel '" + kernel.name + "' takes " + std::to_string(expl.size()) + " arguments, " +
                    std::to_string(args.args().size()) + " given");
  std::vector<isa::ArgValue> out;
  for (size_t i = 0; i < expl.size(); ++i) {
    const isa::KernelArg& m = *expl[i];
    const runtime::KernelArgs::Arg& a = args.args()[i];
    const std::string what = "kernel '" + kernel.name + "' argument " + std::to_string(i) + " (" +
                             (m.type_name.empty() ? m.value_kind : m.type_name) + ")";
    const bool takes_pointer = m.value_kind == "global_buffer";
    if (m.value_kind == "dynamic_shared_pointer")
      throw UserError(what + " is a __local pointer; the device interface cannot size dynamic local memory yet "
                      "(declare the __local array inside the kernel)");
    if (a.is_pointer != takes_pointer)
      throw UserError(what + (takes_pointer ? " is a buffer pointer, but a value was given"
                                            : " is passed by value, but a buffer was given"));
    isa::ArgValue v;
    if (a.is_pointer) {
      v.bytes.resize(8);
      std::memcpy(v.bytes.data(), &a.pointer, 8);
    } else {
      v.bytes = a.bytes;
    }
    out.push_back(std::move(v));
  }
  return out;
}

runtime::LaunchStats FunctionalDevice::launch(const std::string& program_name, const std::string& kernel,
                                              runtime::Dim3 global, runtime::Dim3 local,
                                              const runtime::KernelArgs& args) {
  const std::string path = kernel_dir_ + "/" + program_name + ".hsaco";
  try {
    Program& p = program(path);
    const isa::KernelInfo* k = p.code.find_kernel(kernel);
    if (!k) throw UserError(path + " has no kernel '" + kernel + "'; it has: " + p.code.kernel_names());
    isa::LaunchConfig config;
    const uint32_t g[3] = {global.x, global.y, global.z}, l[3] = {local.x, local.y, local.z};
    for (int d = 0; d < 3; ++d) {
      config.grid[d] = g[d];
      config.workgroup[d] = l[d];
    }
    config.args = convert_args(*k, args);
    const isa::ExecStats s = launch_file(path, kernel, config);
    runtime::LaunchStats out;
    out.wave_instructions = s.wave_instructions;
    out.waves = s.waves;
    out.workgroups = s.workgroups;
    return out;
  } catch (const isa::KernelFault& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  } catch (const UserError& e) {
    throw DeviceError(std::string("tessera-functional: ") + e.what());
  }
}

}  // namespace tessera
