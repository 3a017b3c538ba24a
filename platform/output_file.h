// Writing result files (statistics, buffer dumps) so that nothing is lost:
// the path is checked before the run starts, and the content goes to a
// temporary file in the same directory that is renamed over the target only
// once it is completely written. A full disk or a crash leaves any earlier
// file as it was.
#pragma once
#include <cstdio>
#include <functional>
#include <string>

namespace tessera {

// Throws UserError (or UsageError for an existing file without `force`)
// unless `path` could be written now: not an existing file unless `force`,
// not a directory, in a directory that exists and takes a new file. `what`
// names it in messages ("statistics file").
void check_output_path(const std::string& path, bool force, const std::string& what);

// Writes `content` to `path` through a temporary file and a rename. Refuses
// to replace an existing file unless `force`. Throws UserError.
void write_file_atomically(const std::string& path, const std::string& content, bool force, const std::string& what);

// The same for content too large to hold as one string: `writer` writes it
// to the temporary file as a stream.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& writer, bool force,
                           const std::string& what);

}  // namespace tessera
