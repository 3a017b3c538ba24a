// The disassembler against llvm-objdump-14, the decode oracle:
//  - the assembly corpus tests/cu/asm/*.s (every opcode of the tables, every
//    operand kind and modifier) is assembled with llvm-mc-14 and disassembled
//    with llvm-objdump-14; every instruction must decode from its encoding
//    words and print exactly as llvm-objdump prints it;
//  - every kernel of every code object built from sw/kernels must decode
//    completely (no unknown words) and print as the llvm-objdump listing that
//    the build writes next to it.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <dirent.h>
#include <random>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/decoder.h"
#include "models/cu/isa/disasm_listing.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/op_table.h"

using namespace tessera::isa;

namespace {

// One instruction line of an llvm-objdump listing.
struct ObjdumpLine {
  std::string text;
  uint64_t address = 0;
  std::vector<uint32_t> words;
};

std::vector<ObjdumpLine> parse_objdump(std::istream& in) {
  static const std::regex kLine(R"(^\t(\S.*?)\s*// ([0-9A-F]+):((?: [0-9A-F]{8})+)(?: <.*>)?$)");
  std::vector<ObjdumpLine> out;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, kLine)) continue;
    ObjdumpLine l;
    l.text = m[1].str();
    l.address = std::stoull(m[2].str(), nullptr, 16);
    std::istringstream words(m[3].str());
    std::string w;
    while (words >> w) l.words.push_back(static_cast<uint32_t>(std::stoul(w, nullptr, 16)));
    out.push_back(std::move(l));
  }
  return out;
}

std::string run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  if (status != 0) out = "command failed (" + std::to_string(status) + "): " + command + "\n" + out;
  return out;
}

// Assembles `source` with llvm-mc-14 and returns llvm-objdump-14's listing lines.
std::vector<ObjdumpLine> llvm_listing(const std::string& source) {
  char obj[] = "/tmp/tessera_disasm_XXXXXX";
  const int fd = mkstemp(obj);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string mc = run("llvm-mc-14 -arch=amdgcn -mcpu=gfx90a -filetype=obj '" + source + "' -o " + obj + " 2>&1");
  INFO(mc);
  REQUIRE(mc.empty());
  std::istringstream listing(run(std::string("llvm-objdump-14 -d --mcpu=gfx90a ") + obj));
  unlink(obj);
  return parse_objdump(listing);
}

// Decodes every line's words and compares; reports the first mismatches.
size_t compare_lines(const std::vector<ObjdumpLine>& lines, std::set<const OpInfo*>* seen = nullptr) {
  size_t mismatches = 0;
  std::ostringstream report;
  for (const ObjdumpLine& l : lines) {
    const Instruction inst = decode(l.words.data(), l.words.size(), l.address);
    const std::string got = disassemble(inst);
    if (seen && inst.op) seen->insert(inst.op);
    if (got == l.text && inst.size == 4 * l.words.size()) continue;
    if (++mismatches <= 10) {
      report << "0x" << std::hex << l.address << std::dec << ": expected '" << l.text << "' (" << 4 * l.words.size()
             << " bytes), got '" << got << "' (" << int(inst.size) << " bytes)\n";
    }
  }
  INFO(report.str());
  CHECK(mismatches == 0);
  return mismatches;
}

std::vector<std::string> files_in(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        out.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const std::string kAsmDir = std::string(TESSERA_SOURCE_DIR) + "/tests/cu/asm";

void check_corpus_file(const std::string& name, size_t min_instructions) {
  const std::vector<ObjdumpLine> lines = llvm_listing(kAsmDir + "/" + name);
  CHECK(lines.size() >= min_instructions);
  compare_lines(lines);
}

}  // namespace

TEST_CASE("disasm corpus: scalar ALU (SOP1/SOP2/SOPK/SOPC/SOPP)", "[disasm]") { check_corpus_file("scalar_alu.s", 190); }
TEST_CASE("disasm corpus: scalar memory (SMEM)", "[disasm]") { check_corpus_file("smem.s", 80); }
TEST_CASE("disasm corpus: VOP1/VOP2/VOPC e32", "[disasm]") { check_corpus_file("vop1_vop2_vopc.s", 330); }
TEST_CASE("disasm corpus: VOP3 (e64 and VOP3-only)", "[disasm]") { check_corpus_file("vop3.s", 420); }
TEST_CASE("disasm corpus: VOP3P (packed, dot, MFMA)", "[disasm]") { check_corpus_file("vop3p.s", 60); }
TEST_CASE("disasm corpus: DS", "[disasm]") { check_corpus_file("ds.s", 110); }
TEST_CASE("disasm corpus: FLAT/GLOBAL/SCRATCH", "[disasm]") { check_corpus_file("flat.s", 120); }
TEST_CASE("disasm corpus: MUBUF/MTBUF", "[disasm]") { check_corpus_file("buffer.s", 90); }
TEST_CASE("disasm corpus: operands (registers, constants, literals)", "[disasm]") { check_corpus_file("operands.s", 120); }
TEST_CASE("disasm corpus: modifiers (VOP3, VOP3P, MFMA, SDWA, DPP, memory, SOPP)", "[disasm]") {
  check_corpus_file("modifiers.s", 200);
}

TEST_CASE("disasm corpus covers every opcode of the tables", "[disasm]") {
  std::set<const OpInfo*> seen;
  for (const std::string& file : files_in(kAsmDir, ".s")) compare_lines(llvm_listing(file), &seen);
  std::string missing;
  for (const OpInfo* op : all_ops())
    if (!seen.count(op)) missing += std::string(op->mnemonic) + "(" + format_name(op->format) + ") ";
  INFO("opcodes without a corpus instruction: " << missing);
  CHECK(missing.empty());
  CHECK(seen.size() == all_ops().size());
}

TEST_CASE("every kernel of sw/kernels disassembles exactly as llvm-objdump", "[disasm][kernels]") {
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
  const std::vector<std::string> objects = files_in(dir, ".hsaco");
  INFO("no code objects in " << dir << ": build the tessera_kernels target first");
  REQUIRE(!objects.empty());
  size_t total = 0;
  for (const std::string& path : objects) {
    INFO(path);
    const CodeObject code = CodeObject::load_file(path);
    std::ifstream reference(path.substr(0, path.size() - 6) + ".s");
    REQUIRE(reference.good());
    const std::vector<ObjdumpLine> expected = parse_objdump(reference);
    // Decode from the code object's .text (not from the listing's words).
    std::ostringstream ours;
    const ListingStats stats = write_listing(code, "", ours);
    CHECK(stats.unknown == 0);
    CHECK(stats.kernels == code.kernels().size());
    std::istringstream ours_in(ours.str());
    const std::vector<ObjdumpLine> got = parse_objdump(ours_in);
    REQUIRE(got.size() == expected.size());
    size_t mismatches = 0;
    std::ostringstream report;
    for (size_t i = 0; i < got.size(); ++i) {
      if (got[i].text == expected[i].text && got[i].address == expected[i].address && got[i].words == expected[i].words)
        continue;
      if (++mismatches <= 10)
        report << "0x" << std::hex << expected[i].address << std::dec << ": expected '" << expected[i].text
               << "', got '" << got[i].text << "'\n";
    }
    INFO(report.str());
    CHECK(mismatches == 0);
    total += got.size();
  }
  CHECK(total > 1000);
}

TEST_CASE("kernel listing: one kernel by name, and a clear error for an unknown name", "[disasm][kernels]") {
  const std::string dir = std::string(TESSERA_BINARY_DIR) + "/sw/kernels";
  const std::string path = dir + "/babelstream.hsaco";
  INFO("needs " << path << ": build the tessera_kernels target first");
  const CodeObject code = CodeObject::load_file(path);
  REQUIRE(code.kernels().size() > 1);
  const KernelInfo& second = code.kernels()[1];
  std::ostringstream one;
  const ListingStats stats = write_listing(code, second.name, one);
  CHECK(stats.kernels == 1);
  CHECK(stats.unknown == 0);
  CHECK(one.str().find("<" + second.name + ">:") != std::string::npos);
  CHECK(one.str().find("<" + code.kernels()[0].name + ">:") == std::string::npos);
  std::istringstream in(one.str());
  const std::vector<ObjdumpLine> lines = parse_objdump(in);
  REQUIRE(lines.size() == stats.instructions);
  CHECK(lines.front().address == second.entry_address);
  const std::string last = lines.back().text;  // the kernel ends in s_endpgm, then alignment padding
  CHECK((last == "s_endpgm" || last == "s_nop 0" || last == "s_code_end"));
  std::ostringstream none;
  try {
    write_listing(code, "no_such_kernel", none);
    FAIL("an unknown kernel name must throw");
  } catch (const CodeObjectError& e) {
    const std::string what = e.what();
    CHECK(what.find("no_such_kernel") != std::string::npos);
    CHECK(what.find(second.name) != std::string::npos);  // the message lists the kernels there are
  }
}

TEST_CASE("listing lines use llvm-objdump's columns", "[disasm]") {
  const uint32_t words[2] = {0xc0020002, 0x00000004};
  CHECK(listing_line("s_load_dword s0, s[4:5], 0x4", 0x1800, words, 2) ==
        "\ts_load_dword s0, s[4:5], 0x4                               // 000000001800: C0020002 00000004");
  const std::string long_text(70, 'x');
  CHECK(listing_line(long_text, 0x10, words, 1) == "\t" + long_text + "// 000000000010: C0020002");
}

TEST_CASE("random encodings of every format print as llvm-objdump prints them", "[disasm][fuzz]") {
  // Random words under each format's fixed bits, given to llvm-objdump as data.
  // Every word llvm decodes to a compute instruction must decode and print the
  // same here. (Words llvm rejects are skipped: the decoder may accept more;
  // EXP/MIMG are graphics encodings the decoder does not table.)
  struct Template {
    uint32_t fixed, random_mask;
  };
  const Template kFormats[] = {
      {0x80000000, 0x3fffffff}, {0xbe800000, 0x007fffff}, {0xbf000000, 0x007fffff}, {0xb0000000, 0x0fffffff},
      {0xbf800000, 0x007fffff}, {0x7e000000, 0x01ffffff}, {0x7c000000, 0x01ffffff}, {0x00000000, 0x7fffffff},
      {0xd0000000, 0x03ffffff}, {0xd3800000, 0x007fffff}, {0xd8000000, 0x03ffffff}, {0xdc000000, 0x03ffffff},
      {0xe0000000, 0x03ffffff}, {0xe8000000, 0x03ffffff}, {0xc0000000, 0x03ffffff}};
  std::mt19937 rng(2024);
  char path[] = "/tmp/tessera_fuzz_XXXXXX.s";
  const int fd = mkstemps(path, 2);
  REQUIRE(fd >= 0);
  {
    std::ostringstream src;
    for (int i = 0; i < 3000; ++i) {
      const Template& t = kFormats[rng() % (sizeof kFormats / sizeof kFormats[0])];
      const uint32_t w0 = t.fixed | (static_cast<uint32_t>(rng()) & t.random_mask);
      // Mostly real VGPRs/SGPRs in the second dword, sometimes anything.
      const uint32_t w1 = static_cast<uint32_t>(rng()), w2 = static_cast<uint32_t>(rng());
      src << ".long 0x" << std::hex << w0 << ", 0x" << w1 << ", 0x" << w2 << std::dec << "\n";
    }
    const std::string text = src.str();
    REQUIRE(write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    close(fd);
  }
  std::vector<ObjdumpLine> lines = llvm_listing(path);
  unlink(path);
  std::vector<ObjdumpLine> decodable;
  for (ObjdumpLine& l : lines) {
    if (l.text.rfind(".long", 0) == 0 || l.text.find("invalid") != std::string::npos || l.text.rfind("exp ", 0) == 0 ||
        l.text.rfind("image_", 0) == 0)
      continue;
    decodable.push_back(std::move(l));
  }
  CHECK(decodable.size() > 4000);
  compare_lines(decodable);
}
