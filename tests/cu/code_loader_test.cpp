// Code objects placed in device memory as the HSA loader places them
// (models/cu/isa/code_loader.h): segments at load base + vaddr, dynamic
// relocations applied; functions of .text found for the disassembler; and
// program-scope data that kernels read and write through the loaded copy.
#include <catch2/catch.hpp>

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "models/cu/isa/code_loader.h"
#include "models/cu/isa/disasm_listing.h"
#include "platform/functional_device.h"
#include "tests/cu/kernel_builder.h"

using namespace tessera::isa;
using tessera::FunctionalDevice;
using namespace tessera::runtime;

namespace {

const std::string kLoaderKernelDir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";

std::vector<uint8_t> elf_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  INFO("needs " << path << ": build the tessera_kernels target first");
  REQUIRE(in.good());
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

template <class T>
T read_as(const std::vector<uint8_t>& b, uint64_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

// The header of the first section of `type` in an ELF image.
Elf64_Shdr first_section(const std::vector<uint8_t>& elf, uint32_t type) {
  const auto eh = read_as<Elf64_Ehdr>(elf, 0);
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    const auto sh = read_as<Elf64_Shdr>(elf, eh.e_shoff + uint64_t(i) * eh.e_shentsize);
    if (sh.sh_type == type) return sh;
  }
  FAIL("no section of type " << type);
  return {};
}

}  // namespace

TEST_CASE("code loader: segments at base + vaddr, RELATIVE64 pointers into the copy", "[code_loader]") {
  const CodeObject code = CodeObject::load_file(kLoaderKernelDir + "/program_globals.hsaco");
  REQUIRE(code.relocations().size() == 2);  // kTables[0], kTables[1]
  const uint64_t base = 0x7654'0000'0000ull;
  const std::vector<uint8_t> image = relocated_image(code, base);
  REQUIRE(image.size() == code.image_size());
  // .text is where its vaddr says.
  CHECK(std::equal(code.text().begin(), code.text().end(), image.begin() + code.text_address()));
  float firsts[2];
  for (int t = 0; t < 2; ++t) {
    const Relocation& r = code.relocations()[t];
    CHECK(r.type == 13);  // R_AMDGPU_RELATIVE64
    CHECK_FALSE(r.has_symbol);
    const uint64_t pointer = read_as<uint64_t>(image, r.offset);
    CHECK(pointer == base + uint64_t(r.addend));
    firsts[t] = read_as<float>(image, pointer - base);
  }
  CHECK(firsts[0] == 1.0f);
  CHECK(firsts[1] == 100.0f);
  // The same object loaded at another base: pointers follow, nothing else moves.
  const std::vector<uint8_t> other = relocated_image(code, base + 0x10000);
  for (size_t i = 0; i < image.size(); ++i) {
    bool in_reloc = false;
    for (const Relocation& r : code.relocations()) in_reloc |= i >= r.offset && i < r.offset + 8;
    if (!in_reloc && image[i] != other[i]) FAIL("byte " << i << " moved with the load base");
  }
}

TEST_CASE("code loader: ABS64 resolves its symbol, undefined symbols and static types are refused", "[code_loader]") {
  const std::string path = kLoaderKernelDir + "/program_globals.hsaco";
  std::vector<uint8_t> elf = elf_file_bytes(path);
  const Elf64_Shdr rela = first_section(elf, SHT_RELA), dynsym = first_section(elf, SHT_DYNSYM);
  // Relocation 0 becomes R_AMDGPU_ABS64 of dynamic symbol 1 (the kernel's code), addend 8.
  auto patch = [&](uint32_t sym, uint32_t type, int64_t addend) {
    auto r = read_as<Elf64_Rela>(elf, rela.sh_offset);
    r.r_info = ELF64_R_INFO(sym, type);
    r.r_addend = addend;
    std::memcpy(elf.data() + rela.sh_offset, &r, sizeof r);
  };
  patch(1, 3, 8);
  const auto sym1 = read_as<Elf64_Sym>(elf, dynsym.sh_offset + sizeof(Elf64_Sym));
  {
    const CodeObject code = CodeObject::load(elf, "abs64");
    const std::vector<uint8_t> image = relocated_image(code, 0x100000);
    CHECK(read_as<uint64_t>(image, code.relocations()[0].offset) == 0x100000 + sym1.st_value + 8);
  }
  patch(1, 5, 0);  // R_AMDGPU_REL64: resolved by the static linker, never by a loader
  CHECK_THROWS_WITH(relocated_image(CodeObject::load(elf, "rel64"), 0x100000),
                    Catch::Contains("type 5") && Catch::Contains("not a dynamic relocation"));
  patch(1, 3, 0);
  auto undefined = sym1;
  undefined.st_shndx = SHN_UNDEF;
  std::memcpy(elf.data() + dynsym.sh_offset + sizeof(Elf64_Sym), &undefined, sizeof undefined);
  CHECK_THROWS_WITH(relocated_image(CodeObject::load(elf, "undef"), 0x100000),
                    Catch::Contains("does not define"));
}

TEST_CASE("code object: functions of .text are the kernels and the functions they call", "[code_loader][disasm]") {
  const CodeObject code = CodeObject::load_file(kLoaderKernelDir + "/const_table.hsaco");
  REQUIRE(code.functions().size() == 2);
  CHECK(code.functions()[0].name == "weigh");
  CHECK(code.functions()[1].name == "const_table");
  CHECK(code.functions()[0].address < code.functions()[1].address);
  CHECK(code.functions()[1].address == code.find_kernel("const_table")->entry_address);
  std::ostringstream all, one;
  const ListingStats stats = write_listing(code, "", all);
  CHECK(stats.functions == 2);
  CHECK(stats.kernels == 1);
  CHECK(all.str().find("<weigh>:") < all.str().find("<const_table>:"));
  CHECK(all.str().find("s_setpc_b64 s[30:31]") != std::string::npos);
  write_listing(code, "const_table", one);  // one kernel: its own code only
  CHECK(one.str().find("<weigh>:") == std::string::npos);
  CHECK(one.str().find("s_swappc_b64") != std::string::npos);
}

TEST_CASE("program-scope data: an initialised global keeps its value from launch to launch", "[code_loader]") {
  FunctionalDevice dev(kLoaderKernelDir);
  const DevicePtr out = dev.alloc(8 * sizeof(float)), seen = dev.alloc(sizeof(int));
  for (int launch = 0; launch < 2; ++launch) {
    dev.launch("program_globals", "program_globals", {8, 1, 1}, {8, 1, 1},
               KernelArgs().pointer(out).pointer(seen).value(int32_t(launch)));
    const std::vector<float> got = dev.download<float>(out, 8);
    for (int i = 0; i < 8; ++i) CHECK(got[i] == (launch ? 100.0f : 1.0f) * float(i % 4 + 1));
    CHECK(dev.download<int>(seen, 1)[0] == 42 + launch);  // counter = 42, then incremented by the first launch
  }
}

TEST_CASE("a fault inside a called function names that function", "[code_loader]") {
  const std::string path = tessera::test::build_kernel("callee_fault", R"CL(
__attribute__((noinline)) void store_it(__global int* p, int i) { p[i * 4096] = i; }
__kernel void calls_store(__global int* p) { store_it(p, get_global_id(0)); }
)CL");
  FunctionalDevice dev(path.substr(0, path.rfind('/')));
  const DevicePtr small = dev.alloc(64);
  try {
    dev.launch("callee_fault", "calls_store", {64, 1, 1}, {64, 1, 1}, KernelArgs().pointer(small));
    FAIL("the launch should have faulted");
  } catch (const DeviceError& e) {
    INFO(e.what());
    CHECK_THAT(e.what(), Catch::Contains("kernel 'calls_store' faulted") && Catch::Contains("(store_it+0x") &&
                             Catch::Contains("global_store_dword"));
  }
}
