// `tessera disasm FILE.hsaco [--kernel NAME] [--analysis]`: the functions of a
// code object in llvm-objdump's text, decoded by Tessera's own decoder, or its
// kernels with the marks of the kernel analysis.
#include <iostream>

#include "models/cu/analysis/analysis_listing.h"
#include "models/cu/isa/code_object.h"
#include "models/cu/isa/disasm_listing.h"
#include "platform/cli.h"
#include "platform/limits.h"

namespace tessera {
namespace {

int print_analysis(const isa::CodeObject& code, const std::string& kernel) {
  const analysis::MarkCounts c = analysis::write_analysis(code, kernel, std::cout);
  std::cerr << "tessera disasm: " << c.kernels << " kernel(s) analysed, " << c.instructions << " instructions: DR "
            << c.dr << ", CR " << c.cr << ", V " << c.v << "; " << c.multicast_reads << " of " << c.lds_reads
            << " LDS reads marked for multicast";
  if (c.pair_reads) std::cerr << " (and " << c.pair_reads << " in pairs of waves)";
  if (c.unanalysed) std::cerr << "; " << c.unanalysed << " kernel(s) not analysed";
  std::cerr << '\n';
  return cli::kOk;
}

int run_disasm(const std::vector<std::string>& args) {
  std::string file, kernel;
  bool analysis = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--analysis") {
      analysis = true;
    } else if (args[i] == "--kernel") {
      if (i + 1 >= args.size()) {
        std::cerr << "tessera disasm: --kernel needs a kernel name\n";
        return cli::kUsage;
      }
      kernel = args[++i];
    } else if (!args[i].empty() && args[i][0] == '-') {
      std::cerr << "tessera disasm: unknown option '" << args[i] << "' (see tessera disasm --help)\n";
      return cli::kUsage;
    } else if (file.empty()) {
      file = args[i];
    } else {
      std::cerr << "tessera disasm: one code object at a time (got '" << file << "' and '" << args[i] << "')\n";
      return cli::kUsage;
    }
  }
  if (file.empty()) {
    std::cerr << "tessera disasm: missing FILE.hsaco (see tessera disasm --help)\n";
    return cli::kUsage;
  }
  try {
    const isa::CodeObject code = isa::CodeObject::load_file(file, limits().code_object_bytes);
    if (analysis) return print_analysis(code, kernel);
    std::cout << code.name() << ":\tfile format elf64-amdgpu (" << code.target() << ")\n";
    const isa::ListingStats stats = isa::write_listing(code, kernel, std::cout);
    std::cerr << "tessera disasm: " << stats.kernels << " kernel(s), " << stats.functions - stats.kernels
              << " called function(s), " << stats.instructions << " instructions, "
              << stats.unknown << " unknown\n";
    return stats.unknown ? cli::kFailure : cli::kOk;
  } catch (const isa::CodeObjectError& e) {
    std::cerr << "tessera disasm: " << e.what() << '\n';
    return cli::kInputError;
  }
}

TESSERA_REGISTER_COMMAND(disasm_command,
                         cli::Command{"disasm", "disassemble the functions of a gfx90a code object",
                                      "usage: tessera disasm FILE.hsaco [--kernel NAME] [--analysis]\n\n"
                                      "Prints every function of FILE.hsaco's code, kernels and the functions\n"
                                      "they call, in address order (or only kernel NAME) as llvm-objdump-14 -d\n"
                                      "--mcpu=gfx90a prints it: the instruction text, then the address and the\n"
                                      "encoding words as a comment. Words that are no gfx90a instruction print as\n"
                                      "<unknown> and make the exit code 1. A file that is not a gfx90a code object\n"
                                      "exits with 3.\n\n"
                                      "--analysis prints each kernel's instructions with the kernel analysis's\n"
                                      "marks instead: the value class of what the instruction writes (uniform,\n"
                                      "lane-x-low, lane-x or varying across the waves of a workgroup), its DARSIE\n"
                                      "mark (DR, CR, V), 'mc' for an LDS read marked for multicast, and the\n"
                                      "reason (docs/ANALYSIS.md).\n",
                                      run_disasm});

}  // namespace
}  // namespace tessera
