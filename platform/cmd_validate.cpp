// `tessera validate NETLIST [--set PATH=VALUE]...`: checks a netlist without
// simulating it and prints a one-line summary, or the first error with its JSON path.
#include <iostream>
#include <set>

#include "platform/cli.h"
#include "platform/netlist.h"
#include "platform/options.h"
#include "platform/units.h"

namespace tessera {
namespace {

int run_validate(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(args, {{"--set", true, true}}, 1, 1);
  std::vector<Override> overrides;
  for (const auto& s : parsed.values("--set")) overrides.push_back(parse_override(s));
  const std::string& file = parsed.positional[0];
  const Netlist n = load_netlist_file(file, overrides);
  std::set<std::string> types;
  for (const auto& i : n.instances) types.insert(i.type->name);
  std::cout << file << ": ok: " << n.instances.size() << " instances of " << types.size() << " types, "
            << n.bindings.size() << " bindings, " << n.address_ranges << " address ranges, " << n.clocks.size()
            << " clocks (default " << n.default_clock << " at "
            << format_quantity(n.default_clock_hz(), Quantity::Frequency) << ")\n";
  return cli::kOk;
}

TESSERA_REGISTER_COMMAND(validate_command,
                         cli::Command{"validate", "check a netlist and print a one-line summary",
                                      "usage: tessera validate NETLIST [--set PATH=VALUE]...\n\n"
                                      "Checks NETLIST (docs/NETLIST.md) against the registered block types without\n"
                                      "simulating it: JSON syntax, names, ranges, templates, parameters and units,\n"
                                      "clocks, bindings and address maps. Prints a one-line summary, or the first\n"
                                      "error with its JSON path and exits 3.\n\n"
                                      "  --set PATH=VALUE   override a parameter, e.g. --set 'chiplet[*].l2.size=4 MiB'\n",
                                      run_validate});

}  // namespace
}  // namespace tessera
