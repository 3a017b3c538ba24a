#include "platform/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "platform/errors.h"
#include "platform/input_file.h"

namespace tessera {
namespace {

std::string directory_of(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// A new, empty temporary file next to `path` (same file system, so the
// rename is atomic); returns its descriptor and sets `temp` to its name.
int open_temporary(const std::string& path, std::string& temp, const std::string& what) {
  temp = directory_of(path) + "/." + std::filesystem::path(path).filename().string() + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0)
    throw UserError("cannot write " + what + " " + path + ": cannot create a file in " + directory_of(path) + " (" +
                    std::strerror(errno) + ")");
  return fd;
}

}  // namespace

void check_output_path(const std::string& path, bool force, const std::string& what) {
  check_path_text(path, what);
  if (path.empty()) throw UsageError(what + ": an empty path");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw UserError(what + " " + path + " is a directory");
  if (std::filesystem::exists(status) && !force)
    throw UsageError(what + " " + path + " already exists; pass --force to replace it");
  std::string temp;
  const int fd = open_temporary(path, temp, what);
  close(fd);
  std::remove(temp.c_str());
}

void write_file_atomically(const std::string& path, const std::string& content, bool force, const std::string& what) {
  write_file_atomically(
      path, [&content](std::FILE* out) { std::fwrite(content.data(), 1, content.size(), out); }, force, what);
}

void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& writer, bool force,
                           const std::string& what) {
  std::error_code ec;
  if (!force && std::filesystem::exists(path, ec))
    throw UserError(what + " " + path + " already exists; pass --force to replace it");
  std::string temp;
  const int fd = open_temporary(path, temp, what);
  // mkstemp makes the file private; a result file gets the usual permissions.
  const mode_t mask = umask(0);
  umask(mask);
  std::FILE* out = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "wb") : nullptr;
  if (!out) {
    const int err = errno;
    close(fd);
    std::remove(temp.c_str());
    throw UserError("cannot write " + what + " " + path + " (" + std::strerror(err) + ")");
  }
  writer(out);
  const bool written = std::fflush(out) == 0 && std::ferror(out) == 0 && fsync(fileno(out)) == 0;
  const int saved = errno;
  const bool closed = std::fclose(out) == 0;
  if (!written || !closed) {
    std::remove(temp.c_str());
    throw UserError("cannot write " + what + " " + path + " (" + std::strerror(written ? errno : saved) +
                    "); any earlier file is unchanged");
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    throw UserError("cannot write " + what + " " + path + " (" + std::strerror(err) + ")");
  }
}

}  // namespace tessera
