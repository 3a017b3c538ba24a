// The kernels a host runtime has loaded into device memory, by the device
// address of their 64-byte kernel descriptor (the `kernel_object` of an AQL
// kernel-dispatch packet).
//
// On hardware a dispatcher reads the descriptor and fetches instructions from
// the code it points to. Here the descriptor and the code are in device memory
// too (the runtime copies them there when it loads a code object), and the
// table gives a dispatcher what only the simulator has: the kernel's parsed
// metadata and the program's decode cache. A dispatcher that finds no entry
// for a packet's kernel object reports a bad packet, as hardware would fault.
//
// One table per platform, shared by its dispatchers and the runtime under the
// name "kernel_objects" (SharedObjects).
#pragma once
#include <cstdint>
#include <map>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decode_cache.h"

namespace tessera {

struct LoadedKernel {
  const isa::KernelInfo* kernel = nullptr;
  isa::DecodeCache* program = nullptr;  // the code object's decoded instructions
  uint64_t code_address = 0;            // device address of the program's .text (instruction fetches)
  uint64_t code_base = 0;               // device address of the code object's vaddr 0 (DispatchContext::code_base)
};

class KernelObjectTable {
 public:
  void add(uint64_t descriptor_address, const LoadedKernel& k) { kernels_[descriptor_address] = k; }
  void remove(uint64_t descriptor_address) { kernels_.erase(descriptor_address); }
  // nullptr if no kernel was loaded there.
  const LoadedKernel* find(uint64_t descriptor_address) const {
    auto it = kernels_.find(descriptor_address);
    return it == kernels_.end() ? nullptr : &it->second;
  }
  size_t size() const { return kernels_.size(); }

 private:
  std::map<uint64_t, LoadedKernel> kernels_;
};

}  // namespace tessera
