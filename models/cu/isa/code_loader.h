// A code object placed in device memory as the HSA loader places it: one
// allocation holds the whole image, every loadable segment (text, read-only
// data, data) at load base + its vaddr with the rest zeroed, and the dynamic
// relocations applied for that base (AMDGPUUsage: R_AMDGPU_ABS32_LO/HI,
// R_AMDGPU_ABS32, R_AMDGPU_ABS64, R_AMDGPU_RELATIVE64). Code then finds its
// constant data with s_getpc_b64 plus a link-time offset, and pointers stored
// in data segments point into this copy.
//
// The executors keep PCs in the code object's own addresses (those
// llvm-objdump prints, which the decode cache is indexed by); what a program
// reads as its PC (s_getpc_b64, the return address of s_swappc_b64) is
// load base + that address, and an address it jumps to is taken back the
// same way (DispatchContext::code_base).
#pragma once
#include <cstdint>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/prepared_dispatch.h"

namespace tessera::isa {

// The image_size() bytes of `code` as they are once loaded at `base`.
// Throws CodeObjectError for a relocation that cannot be applied (a type a
// loader does not process, an undefined symbol, a place outside the image).
std::vector<uint8_t> relocated_image(const CodeObject& code, uint64_t base);

class LoadedCode {
 public:
  // Allocates the image in `memory` and writes it there; throws CodeObjectError.
  LoadedCode(DeviceMemory& memory, const CodeObject& code);
  uint64_t base() const { return image_.address(); }  // device address of vaddr 0

 private:
  ScopedAllocation image_;
};

}  // namespace tessera::isa
