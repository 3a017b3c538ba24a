// libFuzzer target: firmware ELF loading for the command processor
// (models/cp/firmware_image.cpp). Bad input must end in UserError.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/cp/firmware_image.h"
#include "platform/errors.h"

// libsystemc needs the symbol; libFuzzer's main() runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    tessera::parse_firmware_image(std::vector<uint8_t>(data, data + size), "fuzz.elf", 64 * 1024);
  } catch (const tessera::UserError&) {
  }
  return 0;
}
