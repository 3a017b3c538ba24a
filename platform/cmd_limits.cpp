// `tessera limits`: the limits on inputs and runaway work, their values and
// what each bounds (docs/RELIABILITY.md).
#include <algorithm>
#include <iostream>

#include "platform/cli.h"
#include "platform/limits.h"
#include "platform/options.h"

namespace tessera {
namespace {

int run_limits(const std::vector<std::string>& args) {
  cli::parse_args(args, {}, 0, 0);
  size_t width = 0;
  for (const LimitInfo& l : limit_table()) width = std::max(width, std::string(l.name).size());
  for (const LimitInfo& l : limit_table()) {
    const std::string name = l.name, value = std::to_string(limits().*(l.field));
    std::cout << "  " << name << std::string(width - name.size() + 2, ' ')
              << std::string(20 - std::min<size_t>(20, value.size()), ' ') << value << "  " << l.what << '\n';
  }
  return cli::kOk;
}

TESSERA_REGISTER_COMMAND(limits_command,
                         cli::Command{"limits", "list the limits on inputs and runaway work, and their values",
                                      "usage: tessera limits [--limit NAME=VALUE]...\n\n"
                                      "Lists each limit, its value and what it bounds. Any command takes\n"
                                      "--limit NAME=VALUE to raise one for that run (docs/RELIABILITY.md).\n",
                                      run_limits});

}  // namespace
}  // namespace tessera
