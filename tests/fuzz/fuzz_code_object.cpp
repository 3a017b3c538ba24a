// libFuzzer target: gfx90a code object loading (ELF, kernel descriptors,
// msgpack metadata) and the disassembly of every kernel it finds, which
// decodes every instruction word. Bad input must end in CodeObjectError.
#include <cstddef>
#include <cstdint>
#include <streambuf>
#include <vector>

#include "models/cu/isa/code_object.h"
#include "models/cu/isa/disasm_listing.h"

namespace {

// Where the listing goes: nowhere. Making its text is what is fuzzed; keeping
// it would cost each input a growing buffer.
class Discard : public std::streambuf {
 protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto code = tessera::isa::CodeObject::load(std::vector<uint8_t>(data, data + size), "fuzz.hsaco");
    Discard discard;
    std::ostream out(&discard);
    tessera::isa::write_listing(code, "", out);
  } catch (const tessera::isa::CodeObjectError&) {
  }
  return 0;
}
