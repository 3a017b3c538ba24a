// `tessera disasm FILE.hsaco [--kernel NAME]`: the functions of a code object in
// llvm-objdump's text, decoded by Tessera's own decoder.
#include <iostream>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/disasm_listing.h"
#include "platform/cli.h"
#include "platform/limits.h"

namespace tessera {
namespace {

int run_disasm(const std::vector<std::string>& args) {
  std::string file, kernel;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--kernel") {
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
                                      "usage: tessera disasm FILE.hsaco [--kernel NAME]\n\n"
                                      "Prints every function of FILE.hsaco's code, kernels and the functions\n"
                                      "they call, in address order (or only kernel NAME) as llvm-objdump-14 -d\n"
                                      "--mcpu=gfx90a prints it: the instruction text, then the address and the\n"
                                      "encoding words as a comment. Words that are no gfx90a instruction print as\n"
                                      "<unknown> and make the exit code 1. A file that is not a gfx90a code object\n"
                                      "exits with 3.\n",
                                      run_disasm});

}  // namespace
}  // namespace tessera
