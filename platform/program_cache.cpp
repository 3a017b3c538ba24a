#include "platform/program_cache.h"

#include <cstring>

#include "platform/errors.h"
#include "platform/limits.h"

namespace tessera {

ProgramCache::Program& ProgramCache::get(const std::string& path) {
  auto it = programs_.find(path);
  if (it == programs_.end())
    it = programs_.emplace(path, std::make_unique<Program>(isa::CodeObject::load_file(path, limits().code_object_bytes))).first;
  return *it->second;
}

ProgramCache::Program& ProgramCache::load(const std::string& path) {
  Program& p = get(path);
  if (!memory_) throw UserError(path + ": this program cache has no device memory to load code objects into");
  if (!p.image) p.image = std::make_unique<isa::LoadedCode>(*memory_, p.code);
  return p;
}

const isa::KernelInfo& ProgramCache::kernel(const Program& p, const std::string& path, const std::string& name) {
  const isa::KernelInfo* k = p.code.find_kernel(name);
  if (!k) throw UserError(path + " has no kernel '" + name + "'; it has: " + p.code.kernel_names());
  return *k;
}

namespace {

std::vector<isa::ArgValue> convert_args(const isa::KernelInfo& kernel, const runtime::KernelArgs& args) {
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

}  // namespace

isa::LaunchConfig make_launch_config(const isa::KernelInfo& kernel, runtime::Dim3 global, runtime::Dim3 local,
                                     const runtime::KernelArgs& args) {
  isa::LaunchConfig config;
  const uint32_t g[3] = {global.x, global.y, global.z}, l[3] = {local.x, local.y, local.z};
  for (int d = 0; d < 3; ++d) {
    config.grid[d] = g[d];
    config.workgroup[d] = l[d];
  }
  config.args = convert_args(kernel, args);
  return config;
}

}  // namespace tessera
