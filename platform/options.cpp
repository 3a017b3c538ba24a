#include "platform/options.h"

#include "platform/errors.h"

namespace tessera::cli {

std::optional<std::string> ParsedArgs::value(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedArgs::values(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                      size_t min_positional, size_t max_positional) {
  ParsedArgs out;
  bool options_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
      out.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const OptionSpec* spec = nullptr;
    for (const auto& s : specs)
      if (s.name == name) spec = &s;
    if (!spec) throw UsageError("unknown option " + name);
    if (!spec->repeatable && out.values_.count(name)) throw UsageError("option " + name + " given twice");
    std::string value;
    if (spec->takes_value) {
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        throw UsageError("option " + name + " needs a value");
      }
    } else if (eq != std::string::npos) {
      throw UsageError("option " + name + " takes no value");
    }
    out.values_[name].push_back(value);
  }
  if (out.positional.size() < min_positional)
    throw UsageError(min_positional == 1 ? "missing argument" : "missing arguments");
  if (out.positional.size() > max_positional)
    throw UsageError("unexpected argument \"" + out.positional[max_positional] + "\"");
  return out;
}

}  // namespace tessera::cli
