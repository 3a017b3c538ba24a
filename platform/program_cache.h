// Code objects loaded once per device and decoded once per PC, shared by the
// devices that run kernels (functional and timing), plus the conversion of a
// host program's launch (sizes, arguments) into a checked launch configuration.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/cu/isa/code_loader.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"
#include "models/cu/isa/dispatch.h"
#include "sw/runtime/device.h"

namespace tessera {

class ProgramCache {
 public:
  struct Program {
    explicit Program(isa::CodeObject c) : code(std::move(c)), cache(code) {}
    isa::CodeObject code;
    isa::DecodeCache cache;
    std::unique_ptr<isa::LoadedCode> image;  // the code object in device memory
    uint64_t code_base() const { return image ? image->base() : 0; }
  };

  // A cache that only reads code objects (metadata, decoding).
  ProgramCache() = default;
  // A cache whose load() places programs in `memory`.
  explicit ProgramCache(isa::DeviceMemory& memory) : memory_(&memory) {}

  // The code object at `path`, read on first use. Throws isa::CodeObjectError.
  Program& get(const std::string& path);
  // The same, placed in device memory (segments and relocations, once) so
  // that its kernels can run. Throws isa::CodeObjectError, or UserError for
  // a cache without device memory.
  Program& load(const std::string& path);
  // Its kernel `name`; throws UserError listing the kernels it has.
  static const isa::KernelInfo& kernel(const Program& p, const std::string& path, const std::string& name);

 private:
  isa::DeviceMemory* memory_ = nullptr;
  std::map<std::string, std::unique_ptr<Program>> programs_;
};

// A host launch as a launch configuration, the arguments checked against the
// kernel's metadata: a buffer where it takes a pointer, a value of the declared
// size elsewhere. Throws UserError naming the argument.
isa::LaunchConfig make_launch_config(const isa::KernelInfo& kernel, runtime::Dim3 global, runtime::Dim3 local,
                                     const runtime::KernelArgs& args);

}  // namespace tessera
