// Command-line options of the `tessera` subcommands: "--name value",
// "--name=value" and flags, with positional arguments in between. Anything not
// declared is a usage error, so a typo never silently changes a run.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::cli {

struct OptionSpec {
  std::string name;  // "--stats"
  bool takes_value = false;
  bool repeatable = false;
};

class ParsedArgs {
 public:
  std::vector<std::string> positional;

  bool flag(const std::string& name) const { return values_.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  std::vector<std::string> values(const std::string& name) const;

 private:
  friend ParsedArgs parse_args(const std::vector<std::string>&, const std::vector<OptionSpec>&, size_t, size_t);
  std::map<std::string, std::vector<std::string>> values_;
};

// Parses `args`; requires between min_positional and max_positional positional
// arguments. Throws UsageError.
ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                      size_t min_positional, size_t max_positional);

// True if the arguments ask for help (--help or -h anywhere).
bool wants_help(const std::vector<std::string>& args);

}  // namespace tessera::cli
