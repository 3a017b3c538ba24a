#include "models/cu/isa/code_object.h"

#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include <nlohmann/json.hpp>

#include "platform/input_file.h"

namespace tessera::isa {

namespace {

constexpr uint16_t kEmAmdgpu = 224;
constexpr unsigned char kOsAbiAmdgpuHsa = 64;
constexpr uint32_t kMachMask = 0xff;
constexpr uint32_t kMachGfx90a = 0x3f;
constexpr uint32_t kNoteAmdgpuMetadata = 32;
// A code object's image in device memory; larger ones are refused rather
// than allocated (a corrupt p_memsz must not exhaust the host).
constexpr uint64_t kMaxImageBytes = 256ull << 20;

// Names of the EF_AMDGPU_MACH values a user is likely to hand us by mistake.
std::string mach_name(uint32_t mach) {
  switch (mach) {
    case 0x2c: return "gfx900";
    case 0x2f: return "gfx906";
    case 0x30: return "gfx908";
    case 0x3f: return "gfx90a";
    case 0x40: return "gfx940";
    case 0x33: return "gfx1010";
    case 0x36: return "gfx1030";
    case 0x41: return "gfx1100";
    default: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "machine 0x%x", mach);
      return buf;
    }
  }
}

uint32_t le32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

uint32_t field(uint32_t word, unsigned lo, unsigned width) { return (word >> lo) & ((1u << width) - 1); }

}  // namespace

KernelDescriptor parse_kernel_descriptor(const uint8_t* b, const std::string& where) {
  KernelDescriptor d;
  d.group_segment_fixed_size = le32(b + 0);
  d.private_segment_fixed_size = le32(b + 4);
  d.kernarg_size = le32(b + 8);
  std::memcpy(&d.entry_offset, b + 16, 8);
  d.rsrc3 = le32(b + 44);
  d.rsrc1 = le32(b + 48);
  d.rsrc2 = le32(b + 52);
  std::memcpy(&d.properties, b + 56, 2);

  d.vgpr_granules = field(d.rsrc1, 0, 6);
  d.sgpr_granules = field(d.rsrc1, 6, 4);
  d.float_round_mode_32 = field(d.rsrc1, 12, 2);
  d.float_round_mode_16_64 = field(d.rsrc1, 14, 2);
  d.float_denorm_mode_32 = field(d.rsrc1, 16, 2);
  d.float_denorm_mode_16_64 = field(d.rsrc1, 18, 2);
  d.dx10_clamp = field(d.rsrc1, 21, 1);
  d.ieee_mode = field(d.rsrc1, 23, 1);

  d.enable_private_segment = field(d.rsrc2, 0, 1);
  d.user_sgpr_count = field(d.rsrc2, 1, 5);
  for (unsigned i = 0; i < 3; ++i) d.enable_workgroup_id[i] = field(d.rsrc2, 7 + i, 1);
  d.enable_workgroup_info = field(d.rsrc2, 10, 1);
  d.vgpr_workitem_id = field(d.rsrc2, 11, 2);

  const unsigned accum = field(d.rsrc3, 0, 6);
  d.accum_offset = (accum + 1) * 4;
  d.tg_split = field(d.rsrc3, 16, 1);

  const uint16_t p = d.properties;
  d.enable_private_segment_buffer = p & (1u << 0);
  d.enable_dispatch_ptr = p & (1u << 1);
  d.enable_queue_ptr = p & (1u << 2);
  d.enable_kernarg_segment_ptr = p & (1u << 3);
  d.enable_dispatch_id = p & (1u << 4);
  d.enable_flat_scratch_init = p & (1u << 5);
  d.enable_private_segment_size = p & (1u << 6);
  d.wavefront_size32 = p & (1u << 10);
  d.uses_dynamic_stack = p & (1u << 11);

  const unsigned user_sgprs = 4 * d.enable_private_segment_buffer + 2 * d.enable_dispatch_ptr +
                              2 * d.enable_queue_ptr + 2 * d.enable_kernarg_segment_ptr +
                              2 * d.enable_dispatch_id + 2 * d.enable_flat_scratch_init +
                              d.enable_private_segment_size;
  if (user_sgprs > d.user_sgpr_count)
    throw CodeObjectError(where + ": kernel descriptor enables " + std::to_string(user_sgprs) +
                          " user SGPRs but COMPUTE_PGM_RSRC2.USER_SGPR_COUNT is " + std::to_string(d.user_sgpr_count));
  if (d.vgpr_workitem_id > 2)
    throw CodeObjectError(where + ": kernel descriptor has ENABLE_VGPR_WORKITEM_ID = 3, expected 0..2");
  if (d.accum_offset > d.allocated_vgprs())
    throw CodeObjectError(where + ": kernel descriptor's accum_offset " + std::to_string(d.accum_offset) +
                          " is beyond its " + std::to_string(d.allocated_vgprs()) + " VGPRs");
  return d;
}

std::vector<const KernelArg*> KernelInfo::explicit_args() const {
  std::vector<const KernelArg*> out;
  for (const KernelArg& a : args)
    if (!a.is_hidden()) out.push_back(&a);
  return out;
}

// Reads one ELF image into a CodeObject; every check names the file.
class CodeObjectReader {
 public:
  CodeObjectReader(std::vector<uint8_t> bytes, std::string name) : bytes_(std::move(bytes)), name_(std::move(name)) {}

  CodeObject read() {
    if (elf_version(EV_CURRENT) == EV_NONE) fail("libelf could not be initialised");
    if (bytes_.size() < 64) fail("file too small for an ELF header (" + std::to_string(bytes_.size()) + " bytes)");
    elf_.reset(elf_memory(reinterpret_cast<char*>(bytes_.data()), bytes_.size()));
    if (!elf_ || elf_kind(elf_.get()) != ELF_K_ELF) fail("not an ELF file");
    check_header();
    out_.name_ = name_;
    read_sections();
    read_segments();
    read_relocations();
    read_metadata();
    read_functions();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw CodeObjectError(name_ + ": " + what); }

  void check_header() {
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf_.get(), &eh)) fail("unreadable ELF header: " + std::string(elf_errmsg(-1)));
    if (eh.e_ident[EI_CLASS] != ELFCLASS64) fail("not a 64-bit ELF file; expected an AMD GPU code object");
    if (eh.e_ident[EI_DATA] != ELFDATA2LSB) fail("not a little-endian ELF file");
    if (eh.e_machine != kEmAmdgpu)
      fail("ELF machine " + std::to_string(eh.e_machine) + " is not AMDGPU (224); expected a gfx90a code object");
    if (eh.e_ident[EI_OSABI] != kOsAbiAmdgpuHsa)
      fail("ELF OS ABI " + std::to_string(eh.e_ident[EI_OSABI]) + " is not AMDGPU HSA (64)");
    out_.abi_version_ = eh.e_ident[EI_ABIVERSION];
    if (out_.abi_version_ < 1 || out_.abi_version_ > 3)
      fail("code object ABI version " + std::to_string(out_.abi_version_) + " is not supported (expected v3, v4 or v5)");
    const uint32_t mach = eh.e_flags & kMachMask;
    if (mach != kMachGfx90a) fail("code object is for " + mach_name(mach) + ", expected gfx90a");
  }

  void read_sections() {
    size_t shstrndx = 0;
    if (elf_getshdrstrndx(elf_.get(), &shstrndx) != 0) fail("no section name table");
    for (Elf_Scn* scn = elf_nextscn(elf_.get(), nullptr); scn; scn = elf_nextscn(elf_.get(), scn)) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh)) fail("unreadable section header");
      if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > bytes_.size() || bytes_.size() - sh.sh_offset < sh.sh_size))
        fail("section " + std::to_string(elf_ndxscn(scn)) + " extends past the end of the file (truncated?)");
      const char* nm = elf_strptr(elf_.get(), shstrndx, sh.sh_name);
      const std::string sname = nm ? nm : "";
      if (sh.sh_type == SHT_NOTE) notes_.push_back(scn);
      if (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB) symtabs_.push_back(scn);
      if (sh.sh_type == SHT_RELA && (sh.sh_flags & SHF_ALLOC)) dynamic_relocs_.push_back(scn);
      if (sh.sh_type == SHT_REL && (sh.sh_flags & SHF_ALLOC))
        fail("section " + sname + " holds REL relocations; AMDGPU code objects use RELA");
      if ((sh.sh_flags & SHF_ALLOC) && sh.sh_type == SHT_PROGBITS) loaded_.push_back({sh.sh_addr, sh.sh_size, sh.sh_offset});
      if (sname == ".text") {
        if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR)) fail(".text is not an executable section");
        out_.text_address_ = sh.sh_addr;
        out_.text_.assign(bytes_.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset),
                          bytes_.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset + sh.sh_size));
      }
    }
    if (out_.text_.empty()) fail("no .text section (no machine code)");
  }

  // The PT_LOAD program headers: what the loader copies to device memory.
  void read_segments() {
    size_t count = 0;
    if (elf_getphdrnum(elf_.get(), &count) != 0) fail("unreadable program headers");
    for (size_t i = 0; i < count; ++i) {
      GElf_Phdr ph;
      if (!gelf_getphdr(elf_.get(), static_cast<int>(i), &ph)) fail("unreadable program header " + std::to_string(i));
      if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
      const std::string where = "loadable segment " + std::to_string(i);
      if (ph.p_filesz > ph.p_memsz) fail(where + " has more file bytes than memory bytes");
      if (ph.p_offset > bytes_.size() || bytes_.size() - ph.p_offset < ph.p_filesz)
        fail(where + " extends past the end of the file (truncated?)");
      if (ph.p_vaddr > kMaxImageBytes || kMaxImageBytes - ph.p_vaddr < ph.p_memsz)
        fail(where + " ends beyond " + std::to_string(kMaxImageBytes >> 20) + " MiB; refusing to load it");
      Segment seg;
      seg.vaddr = ph.p_vaddr;
      seg.mem_size = ph.p_memsz;
      const auto first = bytes_.begin() + static_cast<std::ptrdiff_t>(ph.p_offset);
      seg.bytes.assign(first, first + static_cast<std::ptrdiff_t>(ph.p_filesz));
      out_.image_size_ = std::max(out_.image_size_, seg.vaddr + seg.mem_size);
      out_.segments_.push_back(std::move(seg));
    }
  }

  // The dynamic relocations, with the symbols they name resolved to their
  // vaddr (the loader adds the load base).
  void read_relocations() {
    for (Elf_Scn* scn : dynamic_relocs_) {
      GElf_Shdr sh;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!gelf_getshdr(scn, &sh) || !data || sh.sh_entsize == 0) fail("unreadable relocation section");
      Elf_Scn* symscn = elf_getscn(elf_.get(), sh.sh_link);
      Elf_Data* symdata = symscn ? elf_getdata(symscn, nullptr) : nullptr;
      GElf_Shdr symsh;
      const bool has_symbols = symdata && gelf_getshdr(symscn, &symsh);
      const size_t count = sh.sh_size / sh.sh_entsize;
      for (size_t i = 0; i < count; ++i) {
        GElf_Rela r;
        if (!gelf_getrela(data, static_cast<int>(i), &r)) fail("unreadable relocation " + std::to_string(i));
        Relocation rel;
        rel.offset = r.r_offset;
        rel.type = static_cast<uint32_t>(GELF_R_TYPE(r.r_info));
        rel.addend = r.r_addend;
        const size_t sym = GELF_R_SYM(r.r_info);
        if (sym != 0) {
          GElf_Sym s;
          if (!has_symbols || !gelf_getsym(symdata, static_cast<int>(sym), &s))
            fail("relocation " + std::to_string(i) + " names symbol " + std::to_string(sym) + ", which does not exist");
          const char* nm = elf_strptr(elf_.get(), symsh.sh_link, s.st_name);
          rel.has_symbol = true;
          rel.symbol = nm ? nm : "";
          rel.symbol_defined = s.st_shndx != SHN_UNDEF;
          rel.symbol_value = s.st_value;
        }
        out_.relocations_.push_back(std::move(rel));
      }
    }
  }

  // Function symbols inside .text, in address order, one per address.
  void read_functions() {
    const uint64_t text_end = out_.text_address_ + out_.text_.size();
    for (Elf_Scn* scn : symtabs_) {
      GElf_Shdr sh;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!gelf_getshdr(scn, &sh) || !data || sh.sh_entsize == 0) continue;
      const size_t count = sh.sh_size / sh.sh_entsize;
      for (size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
        const char* nm = elf_strptr(elf_.get(), sh.sh_link, sym.st_name);
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !nm || !*nm || sym.st_value < out_.text_address_ ||
            sym.st_value >= text_end)
          continue;
        out_.functions_.push_back({nm, sym.st_value, sym.st_size});
      }
    }
    if (out_.functions_.empty())
      for (const KernelInfo& k : out_.kernels_) out_.functions_.push_back({k.name, k.entry_address, 0});
    std::stable_sort(out_.functions_.begin(), out_.functions_.end(),
                     [](const Function& a, const Function& b) { return a.address < b.address; });
    // .dynsym repeats the kernels of .symtab: keep one entry per address.
    out_.functions_.erase(std::unique(out_.functions_.begin(), out_.functions_.end(),
                                      [](const Function& a, const Function& b) { return a.address == b.address; }),
                          out_.functions_.end());
  }

  // Bytes at a virtual address inside an allocated section, or nullptr.
  const uint8_t* at_address(uint64_t addr, uint64_t size) const {
    for (const Loaded& l : loaded_)
      if (addr >= l.addr && addr - l.addr <= l.size && l.size - (addr - l.addr) >= size)
        return bytes_.data() + l.offset + (addr - l.addr);
    return nullptr;
  }

  bool find_symbol(const std::string& name, GElf_Sym& out) const {
    for (Elf_Scn* scn : symtabs_) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0) continue;
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!data) continue;
      const size_t count = sh.sh_size / sh.sh_entsize;
      for (size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
        const char* nm = elf_strptr(elf_.get(), sh.sh_link, sym.st_name);
        if (nm && name == nm) {
          out = sym;
          return true;
        }
      }
    }
    return false;
  }

  std::vector<uint8_t> metadata_note() const {
    for (Elf_Scn* scn : notes_) {
      Elf_Data* data = elf_getdata(scn, nullptr);
      if (!data || !data->d_buf) fail("unreadable note section");
      size_t offset = 0, name_off = 0, desc_off = 0;
      GElf_Nhdr nh;
      while ((offset = gelf_getnote(data, offset, &nh, &name_off, &desc_off)) > 0) {
        const char* base = static_cast<const char*>(data->d_buf);
        const bool amdgpu = nh.n_namesz == 7 && std::memcmp(base + name_off, "AMDGPU", 7) == 0;
        if (amdgpu && nh.n_type == kNoteAmdgpuMetadata)
          return std::vector<uint8_t>(base + desc_off, base + desc_off + nh.n_descsz);
      }
    }
    fail("no NT_AMDGPU_METADATA note (not a code object v3+ or stripped)");
  }

  void read_metadata() {
    const std::vector<uint8_t> note = metadata_note();
    nlohmann::json md;
    try {
      md = nlohmann::json::from_msgpack(note);
    } catch (const nlohmann::json::exception& e) {
      fail(std::string("kernel metadata note is not valid msgpack: ") + e.what());
    }
    if (!md.is_object()) fail("kernel metadata is not a map");
    out_.target_ = md.value("amdhsa.target", std::string());
    if (!out_.target_.empty() && out_.target_.find("gfx90a") == std::string::npos)
      fail("metadata target is '" + out_.target_ + "', expected gfx90a");
    auto it = md.find("amdhsa.kernels");
    if (it == md.end() || !it->is_array()) fail("kernel metadata has no amdhsa.kernels list");
    for (size_t i = 0; i < it->size(); ++i) out_.kernels_.push_back(read_kernel((*it)[i], i));
  }

  template <class T>
  T field(const nlohmann::json& j, const char* key, const std::string& where, bool required, T dflt = T()) const {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) fail(where + ": metadata field " + key + " is missing");
      return dflt;
    }
    try {
      return it->get<T>();
    } catch (const nlohmann::json::exception&) {
      fail(where + ": metadata field " + key + " has the wrong type");
    }
  }

  KernelInfo read_kernel(const nlohmann::json& k, size_t index) {
    const std::string where = "amdhsa.kernels[" + std::to_string(index) + "]";
    if (!k.is_object()) fail(where + " is not a map");
    KernelInfo info;
    info.name = field<std::string>(k, ".name", where, true);
    const std::string kw = "kernel '" + info.name + "'";
    info.symbol = field<std::string>(k, ".symbol", kw, true);
    info.kernarg_segment_size = field<uint32_t>(k, ".kernarg_segment_size", kw, true);
    info.kernarg_segment_align = field<uint32_t>(k, ".kernarg_segment_align", kw, false, 8);
    info.group_segment_fixed_size = field<uint32_t>(k, ".group_segment_fixed_size", kw, false);
    info.private_segment_fixed_size = field<uint32_t>(k, ".private_segment_fixed_size", kw, false);
    info.sgpr_count = field<uint32_t>(k, ".sgpr_count", kw, false);
    info.vgpr_count = field<uint32_t>(k, ".vgpr_count", kw, false);
    info.agpr_count = field<uint32_t>(k, ".agpr_count", kw, false);
    info.wavefront_size = field<uint32_t>(k, ".wavefront_size", kw, false, 64);
    info.max_flat_workgroup_size = field<uint32_t>(k, ".max_flat_workgroup_size", kw, false, 1024);
    if (auto r = k.find(".reqd_workgroup_size"); r != k.end() && r->is_array() && r->size() == 3)
      for (unsigned d = 0; d < 3; ++d) info.reqd_workgroup_size[d] = (*r)[d].is_number_unsigned() ? (*r)[d].get<uint32_t>() : 0;
    if (info.wavefront_size != 64) fail(kw + " is compiled for wave" + std::to_string(info.wavefront_size) + ", expected wave64");
    check_segment_sizes(kw, info.kernarg_segment_size, info.group_segment_fixed_size, info.private_segment_fixed_size,
                        "metadata");
    if (auto a = k.find(".args"); a != k.end()) {
      if (!a->is_array()) fail(kw + ": .args is not a list");
      for (size_t i = 0; i < a->size(); ++i) info.args.push_back(read_arg((*a)[i], kw + " argument " + std::to_string(i), info));
    }
    read_descriptor(info, kw);
    return info;
  }

  // The segment sizes a launch allocates from, against what gfx90a can have,
  // so that a file cannot make the host allocate gigabytes.
  void check_segment_sizes(const std::string& kw, uint64_t kernarg, uint64_t group, uint64_t priv,
                           const char* source) const {
    struct Bound {
      const char* field;
      uint64_t value, max;
      const char* why;
    };
    const Bound bounds[] = {
        {"kernarg segment size", kernarg, kMaxKernargBytes, "the most any launch passes"},
        {"group segment (LDS) size", group, kMaxGroupSegmentBytes, "a gfx90a CU's LDS"},
        {"private segment size", priv, kMaxPrivateSegmentBytes, "what gfx90a's scratch wave size field can give a lane"},
    };
    for (const Bound& b : bounds)
      if (b.value > b.max)
        fail(kw + ": " + source + " " + b.field + " " + std::to_string(b.value) + " is larger than " +
             std::to_string(b.max) + " bytes (" + b.why + ")");
  }

  KernelArg read_arg(const nlohmann::json& j, const std::string& where, const KernelInfo& k) const {
    if (!j.is_object()) fail(where + " is not a map");
    KernelArg a;
    a.name = field<std::string>(j, ".name", where, false);
    a.type_name = field<std::string>(j, ".type_name", where, false);
    a.value_kind = field<std::string>(j, ".value_kind", where, true);
    a.address_space = field<std::string>(j, ".address_space", where, false);
    a.access = field<std::string>(j, ".access", where, false);
    a.offset = field<uint32_t>(j, ".offset", where, true);
    a.size = field<uint32_t>(j, ".size", where, true);
    a.pointee_align = field<uint32_t>(j, ".pointee_align", where, false);
    a.is_const = field<bool>(j, ".is_const", where, false);
    if (a.offset > k.kernarg_segment_size || k.kernarg_segment_size - a.offset < a.size)
      fail(where + " at offset " + std::to_string(a.offset) + " size " + std::to_string(a.size) +
           " lies outside the " + std::to_string(k.kernarg_segment_size) + "-byte kernarg segment");
    return a;
  }

  void read_descriptor(KernelInfo& info, const std::string& kw) {
    GElf_Sym sym;
    if (!find_symbol(info.symbol, sym)) fail(kw + ": descriptor symbol " + info.symbol + " not found");
    info.descriptor_address = sym.st_value;
    const uint8_t* kd = at_address(sym.st_value, 64);
    if (!kd) fail(kw + ": the 64-byte descriptor at " + std::to_string(sym.st_value) + " is not inside the file");
    info.descriptor = parse_kernel_descriptor(kd, name_ + ": " + kw);
    check_segment_sizes(kw, info.descriptor.kernarg_size, info.descriptor.group_segment_fixed_size,
                        info.descriptor.private_segment_fixed_size, "descriptor");
    std::copy(kd, kd + 64, info.descriptor_bytes.begin());
    info.entry_address = sym.st_value + static_cast<uint64_t>(info.descriptor.entry_offset);
    if (!out_.in_text(info.entry_address, 4) || (info.entry_address & 3))
      fail(kw + ": entry point is not an aligned address inside .text");
    if (info.descriptor.wavefront_size32) fail(kw + " is compiled for wave32; gfx90a runs wave64");
  }

  struct Loaded {
    uint64_t addr, size, offset;
  };
  std::vector<uint8_t> bytes_;
  std::string name_;
  // (A member type, not a file-local one: the reader is the code object's
  // friend, so it has external linkage, and so must the types of its fields.)
  struct ElfCloser {
    void operator()(Elf* e) const { elf_end(e); }
  };
  std::unique_ptr<Elf, ElfCloser> elf_;
  std::vector<Elf_Scn*> notes_, symtabs_, dynamic_relocs_;
  std::vector<Loaded> loaded_;
  CodeObject out_;
};

CodeObject CodeObject::load(std::vector<uint8_t> bytes, const std::string& name) {
  return CodeObjectReader(std::move(bytes), name).read();
}

CodeObject CodeObject::load_file(const std::string& path, uint64_t max_bytes) {
  std::vector<uint8_t> bytes;
  try {
    bytes = read_input_file(path, max_bytes, "code object", "code_object_bytes");
  } catch (const UserError& e) {
    throw CodeObjectError(e.what());
  }
  return load(std::move(bytes), path);
}

const KernelInfo* CodeObject::find_kernel(const std::string& name) const {
  for (const KernelInfo& k : kernels_)
    if (k.name == name) return &k;
  return nullptr;
}

std::string CodeObject::kernel_names() const {
  std::string out;
  for (const KernelInfo& k : kernels_) out += (out.empty() ? "" : ", ") + k.name;
  return out.empty() ? "(none)" : out;
}

}  // namespace tessera::isa
