// The analysis listing of `tessera disasm --analysis`.
#include "models/cu/analysis/analysis_listing.h"

#include <cstdio>

#include "models/cu/isa/disassembler.h"

namespace tessera::analysis {

namespace {

std::string sources_text(Sources s) {
  static const struct {
    Sources bit;
    const char* text;
  } kNames[] = {
      {kItemXLow, "work-item x bits 5:0"}, {kItemX6, "work-item x bit 6"}, {kItemX7, "work-item x bit 7"},
      {kItemX8, "work-item x bit 8"},      {kItemX9, "work-item x bit 9"},  {kItemY, "work-item y"},
      {kItemZ, "work-item z"}, {kMemory, "memory its barrier section may write"},
      {kWaveId, "hardware ID, clock or private memory"}, {kCall, "a call"},
  };
  std::string out = (s & kItemX) == kItemX ? "work-item x" : "";
  if ((s & kItemX) == kItemX) s &= ~kItemX;
  if ((s & kItemXHigh) == kItemXHigh) {
    out += (out.empty() ? "" : ", ") + std::string("work-item x bits 9:6");
    s &= ~kItemXHigh;
  }
  for (const auto& n : kNames)
    if (s & n.bit) out += (out.empty() ? "" : ", ") + std::string(n.text);
  return out;
}

std::string value_text(const InstructionMark& m) {
  if (!m.writes_value) return "";
  return m.sources ? "depends on " + sources_text(m.sources) : "same in every wave";
}

std::string multicast_text(const InstructionMark& m) {
  if (!m.lds_read) return "";
  std::string out;
  if (!m.multicast_read && !m.multicast_pair) return "no multicast: address depends on " + sources_text(m.read_sources);
  if (m.multicast_class == ValueClass::Uniform) return "multicast: address same in every wave";
  if (m.multicast_class == ValueClass::LaneX) out = "multicast when x-size is a power of two <= 64";
  if (m.multicast_class == ValueClass::LaneLow) out = "multicast when x-size is a power of two <= 64 or a multiple of 64";
  if (m.multicast_pair)
    out += std::string(out.empty() ? "" : "; ") + "multicast in pairs of waves when x-size is a multiple of 64 (" +
           (m.read_sources ? "address depends on " + sources_text(m.read_sources) : "") + ")";
  return out;
}

void append(std::string& out, const std::string& part) {
  if (!part.empty()) out += (out.empty() ? "" : "; ") + part;
}

const char* multicast_column(const InstructionMark& m) {
  if (!m.lds_read) return "";
  return m.multicast_read ? "mc" : m.multicast_pair ? "mc2" : "-";  // mc2: in pairs of waves only
}

void count(const InstructionMark& m, MarkCounts& c) {
  ++c.instructions;
  (m.darsie == Darsie::DR ? c.dr : m.darsie == Darsie::CR ? c.cr : c.v) += 1;
  c.lds_reads += m.lds_read;
  c.multicast_reads += m.multicast_read;
  c.pair_reads += m.lds_read && !m.multicast_read && m.multicast_pair;
}

void list_kernel(const isa::CodeObject& object, const isa::KernelInfo& kernel, std::ostream& out, MarkCounts& total) {
  const std::vector<isa::Instruction> code = kernel_code(object, kernel);
  const KernelMarks marks = analyze(code, kernel.descriptor);
  MarkCounts c;
  for (const InstructionMark& m : marks.marks) count(m, c);
  out << "\nkernel " << kernel.name << ": " << c.instructions << " instructions, DR " << c.dr << ", CR " << c.cr
      << ", V " << c.v << "; LDS reads " << c.lds_reads << ", multicast " << c.multicast_reads;
  if (c.pair_reads) out << ", in pairs of waves " << c.pair_reads;
  out << '\n';
  if (!marks.unanalysed.empty()) out << "  not analysed: " << marks.unanalysed << " (every instruction V)\n";
  out << "  pc      value      darsie mc  instruction                                   reason\n";
  for (size_t i = 0; i < code.size(); ++i) {
    const InstructionMark& m = marks.marks[i];
    char head[64];
    std::snprintf(head, sizeof head, "  %06llx  %-10s %-6s %-3s ", static_cast<unsigned long long>(m.pc),
                  m.writes_value ? class_name(m.value) : "-", darsie_name(m.darsie), multicast_column(m));
    std::string text = isa::disassemble(code[i]);
    if (text.size() < 45) text.append(45 - text.size(), ' ');
    out << head << text << ' ' << mark_reason(m) << '\n';
  }
  total.instructions += c.instructions, total.dr += c.dr, total.cr += c.cr, total.v += c.v;
  total.lds_reads += c.lds_reads, total.multicast_reads += c.multicast_reads, total.pair_reads += c.pair_reads;
  ++total.kernels;
  total.unanalysed += !marks.unanalysed.empty();
}

}  // namespace

std::string mark_reason(const InstructionMark& m) {
  std::string out;
  if (m.never_skipped) append(out, std::string("never skipped: ") + m.never_skipped);
  append(out, value_text(m));
  if (m.control) append(out, "under a branch on " + sources_text(m.control));
  append(out, multicast_text(m));
  return out;
}

MarkCounts write_analysis(const isa::CodeObject& object, const std::string& kernel, std::ostream& out) {
  const isa::KernelInfo* only = kernel.empty() ? nullptr : object.find_kernel(kernel);
  if (!kernel.empty() && !only)
    throw isa::CodeObjectError(object.name() + ": no kernel named '" + kernel + "' (kernels: " + object.kernel_names() + ")");
  out << "value: uniform | lane-x-low | lane-x | varying across the waves of a workgroup; darsie: DR, CR, V; "
         "mc: an LDS read marked for multicast (mc2: in pairs of waves)\n";
  MarkCounts total;
  for (const isa::KernelInfo& k : object.kernels())
    if (!only || &k == only) list_kernel(object, k, out, total);
  return total;
}

}  // namespace tessera::analysis
