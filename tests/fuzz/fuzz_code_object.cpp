// libFuzzer target: gfx90a code object loading (ELF, kernel descriptors,
// msgpack metadata) and the disassembly of every kernel it finds, which
// decodes every instruction word. Bad input must end in CodeObjectError.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/disasm_listing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto code = tessera::isa::CodeObject::load(std::vector<uint8_t>(data, data + size), "fuzz.hsaco");
    std::ostringstream out;
    tessera::isa::write_listing(code, "", out);
  } catch (const tessera::isa::CodeObjectError&) {
  }
  return 0;
}
