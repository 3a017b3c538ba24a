// Reading a whole input file (netlist, code object, firmware) with a cap on
// its size, so that a huge file or a device such as /dev/zero is refused with
// a message instead of filling the host's memory. Part of the ISA library,
// the lowest one, so that every loader shares it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

// The bytes of `path`, which must be a regular file (or a pipe) of at most
// `max_bytes`. `what` names the kind of file in messages ("code object") and
// `limit` the limit that caps it ("code_object_bytes"). Throws UserError.
std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what,
                                     const char* limit);

// Throws UserError if a path given as text holds a NUL byte (the system would
// see only what comes before it).
void check_path_text(const std::string& path, const std::string& what);

}  // namespace tessera
