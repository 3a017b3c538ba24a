#include "models/cp/firmware_image.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "models/cu/isa/hex.h"
#include "platform/errors.h"
#include "platform/input_file.h"
#include "platform/limits.h"

namespace tessera {

namespace {

// Owns the descriptor and the libelf handle so every error path releases both.
struct ElfFile {
  int fd = -1;
  Elf* elf = nullptr;
  ~ElfFile() {
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
  }
};

void check_header(const std::string& path, Elf* elf, GElf_Ehdr& ehdr) {
  if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr))
    throw UserError("firmware '" + path + "': not an ELF file (expected an RV32 executable from sw/firmware)");
  if (gelf_getclass(elf) != ELFCLASS32 || ehdr.e_machine != EM_RISCV)
    throw UserError("firmware '" + path + "': wrong architecture (machine " + std::to_string(ehdr.e_machine) +
                    ", class " + std::to_string(gelf_getclass(elf)) +
                    "); expected a 32-bit RISC-V (EM_RISCV, ELFCLASS32) executable");
  if (ehdr.e_ident[EI_DATA] != ELFDATA2LSB)
    throw UserError("firmware '" + path + "': big-endian ELF; expected little-endian RISC-V");
  if (ehdr.e_type != ET_EXEC)
    throw UserError("firmware '" + path + "': not an executable (e_type " + std::to_string(ehdr.e_type) +
                    "); expected a linked firmware image");
}

FirmwareSegment read_segment(const std::string& path, Elf* elf, const GElf_Phdr& ph, uint64_t sram_size) {
  if (ph.p_filesz > ph.p_memsz || ph.p_paddr + ph.p_memsz > sram_size || ph.p_paddr + ph.p_memsz < ph.p_paddr)
    throw UserError("firmware '" + path + "': segment at " + hex(ph.p_paddr) + " of " + hex(ph.p_memsz) +
                    " bytes does not fit the CP SRAM [0, " + hex(sram_size) + ")");
  size_t file_size = 0;
  const char* raw = elf_rawfile(elf, &file_size);
  if (!raw || ph.p_offset + ph.p_filesz > file_size)
    throw UserError("firmware '" + path + "': segment data lies beyond the end of the file (truncated ELF?)");
  FirmwareSegment seg;
  seg.address = static_cast<uint32_t>(ph.p_paddr);
  seg.bytes.assign(ph.p_memsz, 0);
  if (ph.p_filesz) std::memcpy(seg.bytes.data(), raw + ph.p_offset, ph.p_filesz);
  return seg;
}

// Named functions and objects of .symtab; a file without one is not an error.
std::map<std::string, uint32_t> read_symbols(Elf* elf) {
  std::map<std::string, uint32_t> symbols;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
      const int type = GELF_ST_TYPE(sym.st_info);
      const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
      if ((type == STT_FUNC || type == STT_OBJECT) && name && *name)
        symbols.emplace(name, static_cast<uint32_t>(sym.st_value));
    }
  }
  return symbols;
}

}  // namespace

FirmwareImage load_firmware_image(const std::string& path, uint64_t sram_size) {
  check_path_text(path, "firmware");
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0)
    throw UserError("firmware '" + path + "': cannot open (" + std::strerror(errno) +
                    "); expected the path of an RV32 ELF built in sw/firmware");
  close(fd);
  return parse_firmware_image(read_input_file(path, limits().firmware_bytes, "firmware", "firmware_bytes"), path,
                              sram_size);
}

FirmwareImage parse_firmware_image(std::vector<uint8_t> bytes, const std::string& path, uint64_t sram_size) {
  if (elf_version(EV_CURRENT) == EV_NONE) throw UserError("libelf: " + std::string(elf_errmsg(-1)));
  ElfFile f;
  f.elf = elf_memory(reinterpret_cast<char*>(bytes.data()), bytes.size());
  if (!f.elf) throw UserError("firmware '" + path + "': " + elf_errmsg(-1));
  GElf_Ehdr ehdr;
  check_header(path, f.elf, ehdr);
  size_t count = 0;
  if (elf_getphdrnum(f.elf, &count) != 0) throw UserError("firmware '" + path + "': bad program headers");
  FirmwareImage image;
  image.path = path;
  image.entry = static_cast<uint32_t>(ehdr.e_entry);
  for (size_t i = 0; i < count; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(f.elf, static_cast<int>(i), &ph)) throw UserError("firmware '" + path + "': bad program header");
    // Load at the physical address: initialised data is stored after the code and
    // copied to its run-time address by the C start-up code.
    if (ph.p_type == PT_LOAD && ph.p_memsz > 0) image.segments.push_back(read_segment(path, f.elf, ph, sram_size));
  }
  if (image.segments.empty()) throw UserError("firmware '" + path + "': no loadable segments");
  image.symbols = read_symbols(f.elf);
  if (image.entry >= sram_size)
    throw UserError("firmware '" + path + "': entry point " + hex(image.entry) + " lies outside the CP SRAM");
  return image;
}

}  // namespace tessera
