// Error types shared by the platform. Tessera tells three kinds of error apart
// (docs/BLOCKS.md, "Errors"): a user mistake (netlist, file, option) throws one
// of these with a message that names the offending thing; a guest mistake (a
// kernel's bad address, a firmware fault) becomes a TLM error status and a
// fault report; a broken invariant (a protocol violation between blocks
// included) aborts the run with an error report.
#pragma once
#include <stdexcept>
#include <string>

namespace tessera {

// A mistake in something the user gave us: a netlist, a file, an option.
class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mistake on the command line: an unknown option, a missing argument.
class UsageError : public UserError {
 public:
  using UserError::UserError;
};

// A request past one of the limits on what one run may ask of the host
// (platform/limits.h): an input error wherever it is found, which the devices
// pass on as it is instead of turning it into a device error.
class LimitError : public UserError {
 public:
  using UserError::UserError;
};

// A netlist mistake. `where` is a JSON path such as /components/chiplet[2]/l2/size.
class NetlistError : public UserError {
 public:
  NetlistError(std::string where, const std::string& what)
      : UserError(where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

}  // namespace tessera
