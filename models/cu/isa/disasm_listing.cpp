// Kernel listings in llvm-objdump's layout.
#include "models/cu/isa/disasm_listing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/disassembler.h"
#include "models/cu/isa/hex.h"

namespace tessera::isa {

std::string listing_line(const std::string& text, uint64_t address, const uint32_t* words, unsigned count) {
  std::string line;
  listing_line(line, text, address, words, count);
  return line;
}

void listing_line(std::string& line, const std::string& text, uint64_t address, const uint32_t* words,
                  unsigned count) {
  constexpr size_t kTextColumn = 59;  // where llvm-objdump starts the comment
  line.clear();
  line.reserve(kTextColumn + 48);
  line += '\t';
  line += text;
  if (text.size() < kTextColumn) line.append(kTextColumn - text.size(), ' ');  // longer text runs into the comment, as in llvm-objdump
  line += "// ";
  append_hex_digits(line, address, 12, true);
  line += ':';
  for (unsigned i = 0; i < count; ++i) {
    line += ' ';
    append_hex_digits(line, words[i], 8, true);
  }
}

namespace {

// " <function+0xoff>" for a branch target inside a function, as llvm-objdump annotates it.
std::string branch_label(const std::vector<Function>& functions, const Instruction& inst) {
  const uint64_t target = inst.branch_target();
  const Function* owner = nullptr;
  for (const Function& f : functions)
    if (f.address <= target) owner = &f;
  if (!owner) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "+0x%llx>", static_cast<unsigned long long>(target - owner->address));
  return " <" + owner->name + (target == owner->address ? ">" : buf);
}

// One function's instructions, from its symbol up to `end`.
void list_function(const CodeObject& code, const Function& f, uint64_t end, std::ostream& out, ListingStats& stats) {
  const std::vector<uint8_t>& text = code.text();
  char header[64];
  std::snprintf(header, sizeof header, "%016llx", static_cast<unsigned long long>(f.address));
  out << '\n' << header << " <" << f.name << ">:\n";
  uint64_t pc = f.address;
  std::string line, inst_text;  // (one buffer each for every line: most fit their first allocation)
  while (pc + 4 <= end) {
    // Copy the words: .text need not be 4-byte aligned in memory.
    const size_t offset = pc - code.text_address();
    const size_t avail = std::min<size_t>((end - pc) / 4, 3);
    uint32_t words[3] = {0, 0, 0};
    std::memcpy(words, text.data() + offset, avail * 4);
    const Instruction inst = decode(words, avail, pc);
    ++stats.instructions;
    if (!inst.op) ++stats.unknown;
    disassemble(inst, inst_text);
    listing_line(line, inst_text, pc, words, inst.size / 4);
    if (inst.op && (inst.op->flags & kBranch) && inst.format == Format::SOPP) line += branch_label(code.functions(), inst);
    line += '\n';
    out << line;
    pc += inst.size;
  }
}

}  // namespace

ListingStats write_listing(const CodeObject& code, const std::string& kernel, std::ostream& out) {
  const KernelInfo* only = kernel.empty() ? nullptr : code.find_kernel(kernel);
  if (!kernel.empty() && !only)
    throw CodeObjectError(code.name() + ": no kernel named '" + kernel + "' (kernels: " + code.kernel_names() + ")");
  const std::vector<Function>& functions = code.functions();
  const uint64_t text_end = code.text_address() + code.text().size();
  ListingStats stats;
  for (size_t i = 0; i < functions.size(); ++i) {
    const Function& f = functions[i];
    if (only && f.address != only->entry_address) continue;
    const uint64_t end = i + 1 < functions.size() ? functions[i + 1].address : text_end;
    list_function(code, f, end, out, stats);
    ++stats.functions;
    for (const KernelInfo& k : code.kernels()) stats.kernels += k.entry_address == f.address;
  }
  return stats;
}

}  // namespace tessera::isa
