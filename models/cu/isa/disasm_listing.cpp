// Kernel listings in llvm-objdump's layout.
#include "models/cu/isa/disasm_listing.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "models/cu/isa/decoder.h"
#include "models/cu/isa/disassembler.h"

namespace tessera::isa {

std::string listing_line(const std::string& text, uint64_t address, const uint32_t* words, unsigned count) {
  constexpr size_t kTextColumn = 59;  // where llvm-objdump starts the comment
  std::string line = "\t" + text;
  if (text.size() < kTextColumn) line.append(kTextColumn - text.size(), ' ');  // longer text runs into the comment, as in llvm-objdump
  char buf[32];
  std::snprintf(buf, sizeof buf, "// %012llX:", static_cast<unsigned long long>(address));
  line += buf;
  for (unsigned i = 0; i < count; ++i) {
    std::snprintf(buf, sizeof buf, " %08X", words[i]);
    line += buf;
  }
  return line;
}

namespace {

// " <kernel+0xoff>" for a branch target inside a kernel, as llvm-objdump annotates it.
std::string branch_label(const std::vector<const KernelInfo*>& by_address, const Instruction& inst) {
  const uint64_t target = inst.branch_target();
  const KernelInfo* owner = nullptr;
  for (const KernelInfo* k : by_address)
    if (k->entry_address <= target) owner = k;
  if (!owner) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "+0x%llx>", static_cast<unsigned long long>(target - owner->entry_address));
  return " <" + owner->name + (target == owner->entry_address ? ">" : buf);
}

}  // namespace

ListingStats write_listing(const CodeObject& code, const std::string& kernel, std::ostream& out) {
  if (!kernel.empty() && !code.find_kernel(kernel))
    throw CodeObjectError(code.name() + ": no kernel named '" + kernel + "' (kernels: " + code.kernel_names() + ")");
  std::vector<const KernelInfo*> kernels;
  for (const KernelInfo& k : code.kernels()) kernels.push_back(&k);
  std::sort(kernels.begin(), kernels.end(),
            [](const KernelInfo* a, const KernelInfo* b) { return a->entry_address < b->entry_address; });

  const std::vector<uint8_t>& text = code.text();
  const uint64_t text_end = code.text_address() + text.size();
  ListingStats stats;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const KernelInfo& k = *kernels[i];
    if (!kernel.empty() && k.name != kernel) continue;
    const uint64_t end = i + 1 < kernels.size() ? kernels[i + 1]->entry_address : text_end;
    char header[64];
    std::snprintf(header, sizeof header, "%016llx", static_cast<unsigned long long>(k.entry_address));
    out << '\n' << header << " <" << k.name << ">:\n";
    ++stats.kernels;
    uint64_t pc = k.entry_address;
    while (pc + 4 <= end) {
      // Copy the words: .text need not be 4-byte aligned in memory.
      const size_t offset = pc - code.text_address();
      const size_t avail = std::min<size_t>((end - pc) / 4, 3);
      uint32_t words[3] = {0, 0, 0};
      std::memcpy(words, text.data() + offset, avail * 4);
      const Instruction inst = decode(words, avail, pc);
      ++stats.instructions;
      if (!inst.op) ++stats.unknown;
      out << listing_line(disassemble(inst), pc, words, inst.size / 4);
      if (inst.op && (inst.op->flags & kBranch) && inst.format == Format::SOPP) out << branch_label(kernels, inst);
      out << '\n';
      pc += inst.size;
    }
  }
  return stats;
}

}  // namespace tessera::isa
