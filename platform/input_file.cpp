#include "platform/input_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "platform/errors.h"
#include "platform/limits.h"

namespace tessera {

void check_path_text(const std::string& path, const std::string& what) {
  if (path.find('\0') != std::string::npos)
    throw UserError(what + " path \"" + path.substr(0, path.find('\0')) +
                    "\\0...\" holds a NUL byte; a file name cannot contain one");
}

std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes, const std::string& what,
                                     const char* limit) {
  check_path_text(path, what);
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw UserError(what + " file " + path + " is a directory");
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      status.type() != std::filesystem::file_type::fifo)
    throw UserError(what + " file " + path + " is not a regular file");
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  std::unique_ptr<std::FILE, Closer> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw UserError("cannot read " + what + " file " + path + ": cannot open it (" + std::strerror(errno) + ")");
  std::vector<uint8_t> bytes;
  uint8_t chunk[65536];
  for (;;) {
    const size_t n = std::fread(chunk, 1, sizeof chunk, f.get());
    if (bytes.size() + n > max_bytes)
      throw UserError(what + " file " + path + " is larger than " + std::to_string(max_bytes) + " bytes " +
                      limit_hint(limit, max_bytes));
    bytes.insert(bytes.end(), chunk, chunk + n);
    if (n < sizeof chunk) break;
  }
  if (std::ferror(f.get())) throw UserError("cannot read " + what + " file " + path + ": read error");
  return bytes;
}

}  // namespace tessera
