// An AMD GPU code object (HSA code object v4 as clang emits it for gfx90a):
// the machine code, the kernels' 64-byte descriptors and the kernel metadata
// (the NT_AMDGPU_METADATA msgpack note).
//
// Loading validates everything the executor later trusts: ELF class and
// machine, the target (gfx90a), every descriptor inside the file, every entry
// point inside .text, argument offsets inside the kernarg segment. A file that
// is not such a code object throws CodeObjectError naming the file and what
// was wrong; nothing in a file can crash the loader.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/errors.h"
#include "platform/limits.h"

namespace tessera::isa {

class CodeObjectError : public UserError {
 public:
  using UserError::UserError;
};

// The largest segment sizes a kernel's metadata or descriptor may ask for:
// 64 KiB of kernel arguments (16 times what the HSA runtime accepts), a CU's
// 64 KiB of LDS, and gfx90a's most scratch per lane (the 13-bit wave size
// field in KiB per wave of 64 lanes).
constexpr uint64_t kMaxKernargBytes = 64 * 1024;
constexpr uint64_t kMaxGroupSegmentBytes = 64 * 1024;
constexpr uint64_t kMaxPrivateSegmentBytes = 8191 * 1024 / 64;

// The fields of the kernel descriptor and its COMPUTE_PGM_RSRC1/2/3 words.
struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0;    // static LDS bytes
  uint32_t private_segment_fixed_size = 0;  // scratch bytes per work-item
  uint32_t kernarg_size = 0;
  int64_t entry_offset = 0;                 // entry point relative to the descriptor
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  uint16_t properties = 0;                  // kernel_code_properties

  // COMPUTE_PGM_RSRC1
  unsigned vgpr_granules = 0;     // GRANULATED_WORKITEM_VGPR_COUNT
  unsigned sgpr_granules = 0;     // GRANULATED_WAVEFRONT_SGPR_COUNT
  unsigned float_round_mode_32 = 0, float_round_mode_16_64 = 0;    // 0 = round to nearest even
  unsigned float_denorm_mode_32 = 0, float_denorm_mode_16_64 = 0;  // 3 = keep input and output denormals
  bool dx10_clamp = false, ieee_mode = false;
  // COMPUTE_PGM_RSRC2
  bool enable_private_segment = false;  // scratch in use: the wave offset SGPR is passed
  unsigned user_sgpr_count = 0;
  bool enable_workgroup_id[3] = {false, false, false};
  bool enable_workgroup_info = false;
  unsigned vgpr_workitem_id = 0;  // 0: x in v0; 1: x, y; 2: x, y, z (packed in v0 on gfx90a)
  // COMPUTE_PGM_RSRC3 (gfx90a)
  unsigned accum_offset = 0;  // first AGPR in the unified register file, in VGPRs
  bool tg_split = false;
  // kernel_code_properties: the user SGPRs, in ABI order
  bool enable_private_segment_buffer = false;  // 4 SGPRs
  bool enable_dispatch_ptr = false;            // 2
  bool enable_queue_ptr = false;               // 2
  bool enable_kernarg_segment_ptr = false;     // 2
  bool enable_dispatch_id = false;             // 2
  bool enable_flat_scratch_init = false;       // 2
  bool enable_private_segment_size = false;    // 1
  bool wavefront_size32 = false;
  bool uses_dynamic_stack = false;

  // Registers the hardware allocates for one wave (gfx90a: unified VGPR file in
  // granules of 8; the AGPRs start at accum_offset).
  unsigned allocated_vgprs() const { return (vgpr_granules + 1) * 8; }
  unsigned arch_vgprs() const { return accum_offset ? accum_offset : allocated_vgprs(); }
  unsigned agprs() const { return allocated_vgprs() > arch_vgprs() ? allocated_vgprs() - arch_vgprs() : 0; }
};

// Decodes the 64 descriptor bytes. Throws CodeObjectError (with `where` in the
// message) if a reserved field that must be zero is not.
KernelDescriptor parse_kernel_descriptor(const uint8_t* bytes64, const std::string& where);

// One kernel argument as the metadata describes it.
struct KernelArg {
  std::string name;           // may be empty
  std::string type_name;      // "float*", "int"...
  std::string value_kind;     // by_value, global_buffer, dynamic_shared_pointer, hidden_global_offset_x, ...
  std::string address_space;  // global, constant, local, private, generic or empty
  std::string access;         // read_only / write_only / read_write or empty
  uint32_t offset = 0, size = 0;
  uint32_t pointee_align = 0;
  bool is_const = false;
  bool is_hidden() const { return value_kind.rfind("hidden_", 0) == 0; }
};

struct KernelInfo {
  std::string name;
  std::string symbol;               // "<name>.kd"
  uint64_t descriptor_address = 0;  // virtual address of the descriptor
  uint64_t entry_address = 0;       // virtual address of the first instruction
  KernelDescriptor descriptor;
  std::array<uint8_t, 64> descriptor_bytes{};  // as in the file, for a runtime that copies it to device memory
  std::vector<KernelArg> args;      // in metadata order (= declaration order, hidden ones last)
  uint32_t kernarg_segment_size = 0, kernarg_segment_align = 0;
  uint32_t group_segment_fixed_size = 0, private_segment_fixed_size = 0;
  uint32_t sgpr_count = 0, vgpr_count = 0, agpr_count = 0;
  uint32_t wavefront_size = 64, max_flat_workgroup_size = 0;
  uint32_t reqd_workgroup_size[3] = {0, 0, 0};  // 0: not required

  // Explicit (not hidden) arguments, in declaration order.
  std::vector<const KernelArg*> explicit_args() const;
};

// A loadable (PT_LOAD) segment: `bytes` are the file's, the rest of
// mem_size up to the end is zero (e.g. .bss).
struct Segment {
  uint64_t vaddr = 0, mem_size = 0;
  std::vector<uint8_t> bytes;
};

// A dynamic relocation (.rela.dyn): what the loader patches at vaddr `offset`
// once it knows where the segments are. AMDGPUUsage's R_AMDGPU_* numbering.
struct Relocation {
  uint64_t offset = 0;
  uint32_t type = 0;
  int64_t addend = 0;
  bool has_symbol = false;     // false: S is 0 (R_AMDGPU_RELATIVE64 names none)
  std::string symbol;
  bool symbol_defined = false; // defined in this code object (else the loader cannot resolve it)
  uint64_t symbol_value = 0;   // its vaddr when defined
};

// A function of .text: a kernel's code or a function it calls (s_swappc_b64).
struct Function {
  std::string name;
  uint64_t address = 0, size = 0;
};

class CodeObject {
 public:
  // Throws CodeObjectError for a file that cannot be read or is not a gfx90a code object.
  // Files larger than max_bytes are refused (the --limit code_object_bytes).
  static CodeObject load_file(const std::string& path, uint64_t max_bytes = Limits{}.code_object_bytes);
  // `name` identifies the bytes in error messages.
  static CodeObject load(std::vector<uint8_t> bytes, const std::string& name);

  const std::string& name() const { return name_; }
  const std::string& target() const { return target_; }  // "amdgcn-amd-amdhsa--gfx90a"
  unsigned abi_version() const { return abi_version_; }  // 2 = code object v4

  // The executable section: its bytes and the virtual address of the first.
  const std::vector<uint8_t>& text() const { return text_; }
  uint64_t text_address() const { return text_address_; }
  bool in_text(uint64_t addr, uint64_t bytes) const {
    return addr >= text_address_ && addr - text_address_ <= text_.size() && text_.size() - (addr - text_address_) >= bytes;
  }

  // What a loader places in device memory: the segments at load base + vaddr,
  // image_size() bytes from the load base, then the relocations applied
  // (models/cu/isa/code_loader.h).
  const std::vector<Segment>& segments() const { return segments_; }
  uint64_t image_size() const { return image_size_; }
  const std::vector<Relocation>& relocations() const { return relocations_; }
  // Every function symbol inside .text (kernels and the functions they call),
  // by address; the kernels' entry points if the file has no symbol table.
  const std::vector<Function>& functions() const { return functions_; }

  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  const KernelInfo* find_kernel(const std::string& name) const;  // nullptr if absent
  std::string kernel_names() const;                              // "a, b, c" for error messages

 private:
  std::string name_;
  std::string target_;
  unsigned abi_version_ = 0;
  std::vector<uint8_t> text_;
  uint64_t text_address_ = 0;
  std::vector<Segment> segments_;
  uint64_t image_size_ = 0;
  std::vector<Relocation> relocations_;
  std::vector<Function> functions_;
  std::vector<KernelInfo> kernels_;
  friend class CodeObjectReader;
};

}  // namespace tessera::isa
