// A CP firmware image: the PT_LOAD segments of an RV32 ELF, read with libelf and
// checked to fit the CP's SRAM. Loading is separate from the core so that a bad
// file is reported (with what was wrong and what was expected) before any
// simulation starts.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera {

struct FirmwareSegment {
  uint32_t address = 0;        // load (physical) address in SRAM
  std::vector<uint8_t> bytes;  // file contents followed by zeros up to the memory size
};

struct FirmwareImage {
  std::string path;
  uint32_t entry = 0;
  std::vector<FirmwareSegment> segments;
  // Function and data symbols of the symbol table (empty for a stripped file).
  std::map<std::string, uint32_t> symbols;
};

// Reads `path`; throws UserError for a missing, unreadable or malformed file, a
// file that is not a 32-bit little-endian RISC-V executable, or a segment that
// does not fit in [0, sram_size).
// Files larger than limits().firmware_bytes are refused.
FirmwareImage load_firmware_image(const std::string& path, uint64_t sram_size);

// The same from the file's bytes; `path` names them in messages.
FirmwareImage parse_firmware_image(std::vector<uint8_t> bytes, const std::string& path, uint64_t sram_size);

}  // namespace tessera
