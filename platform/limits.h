// Limits on what one run may ask of the host: how big its inputs may be, how
// many blocks a netlist may expand to, how long work without progress may go
// on, how often one warning is repeated. Each has a default that the
// reference workloads stay far below (docs/RELIABILITY.md gives the figures)
// and is raised on the command line with `--limit NAME=VALUE`.
//
// The limits are one process-wide table: they are set once, from the command
// line, before anything is loaded, and read by loaders deep below the
// commands (code objects, firmware, netlists) that no option reaches.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "platform/errors.h"

namespace tessera {

// The default of device_memory_bytes: a quarter of the host's physical
// memory (4 GiB if the host does not say). A run's host side holds copies of
// its buffers too (a workload's inputs and CPU reference, launch's initial
// contents), about as many bytes again or twice as many, so the whole run
// stays within the machine (docs/RELIABILITY.md).
inline uint64_t default_device_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return 4ull << 30;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 4;
}

// The default of platform_bytes: half of the host's physical memory, so that
// the blocks and the device memory of one run (a quarter) leave the host a
// quarter for the rest.
inline uint64_t default_platform_bytes() { return 2 * default_device_memory_bytes(); }

struct Limits {
  uint64_t instances = 100000;             // blocks after template expansion
  uint64_t cp_cores = 64;                  // command processors (an emulator each)
  uint64_t netlist_bytes = 64ull << 20;    // a netlist file
  uint64_t code_object_bytes = 256ull << 20;  // a code object file
  uint64_t firmware_bytes = 256ull << 20;  // a firmware ELF file (debug information included)
  uint64_t device_memory_bytes = default_device_memory_bytes();  // device memory one run allocates
  uint64_t platform_bytes = default_platform_bytes();  // estimated host memory of a netlist's blocks
  uint64_t wave_instructions = 1ull << 30;  // one wave's instructions (functional and timing)
  uint64_t firmware_polls = 1000000;       // CP register reads in a row without any other progress
  uint64_t repeated_warnings = 10;         // identical warnings printed before the rest are counted
};

// The process's limits (defaults until set_limit changes one). Inline, so
// that the ISA library below the platform reads the same table.
inline Limits& limits() {
  static Limits the_limits;
  return the_limits;
}

// One limit as the command line and the documents name it.
struct LimitInfo {
  const char* name;
  uint64_t Limits::*field;
  const char* what;  // "instances after template expansion"
};
const std::vector<LimitInfo>& limit_table();

// Applies "NAME=VALUE" (VALUE a count, or a size such as "512 MiB" for the
// *_bytes limits). Throws UsageError naming the known limits.
void set_limit(const std::string& assignment);

// The end of an error message about a limit: "(limit instances = 100000; raise
// it with --limit instances=N)". Inline: the ISA library, below the platform,
// names limits too.
inline std::string limit_hint(const char* name, uint64_t value) {
  return std::string("(limit ") + name + " = " + std::to_string(value) + "; raise it with --limit " + name + "=N)";
}

// Throws LimitError, before anything is allocated, if a run that holds `held`
// bytes of device memory may not allocate `bytes` more.
inline void check_device_memory(uint64_t held, uint64_t bytes) {
  const uint64_t limit = limits().device_memory_bytes;
  if (bytes <= limit && held <= limit - bytes) return;
  throw LimitError("a device allocation of " + std::to_string(bytes) + " bytes, with " + std::to_string(held) +
                   " bytes already allocated, exceeds the device memory one run may use " +
                   limit_hint("device_memory_bytes", limit));
}

}  // namespace tessera
