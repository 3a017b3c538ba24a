// The `tessera` program: dispatches to the subcommands registered in
// platform/cmd_*.cpp. Every error ends here as a message and an exit code
// (platform/cli.h); nothing a user gives it may crash it.
#include <cstdlib>
#include <iostream>
#include <new>

#include <systemc>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/limits.h"
#include "platform/options.h"
#include "platform/params.h"
#include "platform/version.h"

using namespace tessera;

// libsystemc's own main() would call this; ours replaces it, but the shared
// library still needs the symbol to link.
int sc_main(int, char**) { return 0; }

namespace {

void print_help(std::ostream& os) {
  os << "usage: tessera COMMAND [ARGS...]\n"
        "       tessera COMMAND --help\n"
        "       tessera --version\n\n"
        "commands:\n";
  size_t width = 0;
  for (const auto& [name, cmd] : cli::commands()) width = std::max(width, name.size());
  for (const auto& [name, cmd] : cli::commands())
    os << "  " << name << std::string(width - name.size() + 2, ' ') << cmd.summary << '\n';
  os << "\nany command takes --limit NAME=VALUE to raise a limit (tessera limits lists them)\n";
  os << "\nexit codes: 0 ok, 1 the run failed (a block reported a problem), 2 bad command line, 3 bad input file,\n"
        "            128 + the signal for a run stopped by SIGINT or SIGTERM (its statistics so far are kept)\n";
}

// Takes the global `--limit NAME=VALUE` options out of the arguments (any
// command accepts them; they apply before anything is loaded).
std::vector<std::string> apply_limit_options(const std::vector<std::string>& args) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") {
      rest.insert(rest.end(), args.begin() + static_cast<long>(i), args.end());
      break;
    }
    if (args[i].rfind("--limit=", 0) == 0) {
      set_limit(args[i].substr(8));
    } else if (args[i] == "--limit") {
      if (i + 1 == args.size()) throw UsageError("option --limit needs a value NAME=VALUE (see tessera limits)");
      set_limit(args[++i]);
    } else {
      rest.push_back(args[i]);
    }
  }
  return rest;
}

int dispatch(const std::vector<std::string>& all_args) {
  const std::vector<std::string> args = apply_limit_options(all_args);
  if (args.empty()) {
    print_help(std::cerr);
    return cli::kUsage;
  }
  const std::string& name = args[0];
  if (name == "--help" || name == "-h" || name == "help") {
    print_help(std::cout);
    return cli::kOk;
  }
  if (name == "--version") {
    std::cout << "tessera " << kVersion << '\n';
    return cli::kOk;
  }
  auto it = cli::commands().find(name);
  if (it == cli::commands().end()) throw UsageError("unknown command \"" + name + "\" (see tessera --help)");
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cli::wants_help(rest)) {
    std::cout << it->second.usage;
    return cli::kOk;
  }
  return it->second.run(rest);
}

}  // namespace

int main(int argc, char** argv) {
  // SystemC prints a banner on first use unless told not to.
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  // A fatal SystemC report would abort(); make it an exception we report.
  sc_core::sc_report_handler::set_actions(sc_core::SC_FATAL, sc_core::SC_DISPLAY | sc_core::SC_THROW);
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string who = args.empty() || !cli::commands().count(args[0]) ? "tessera" : "tessera " + args[0];
  try {
    return dispatch(args);
  } catch (const UsageError& e) {
    std::cerr << who << ": " << e.what() << "\n(see `" << who << " --help`)\n";
    return cli::kUsage;
  } catch (const UserError& e) {
    std::cerr << who << ": error: " << e.what() << '\n';
    return cli::kInputError;
  } catch (const json::exception& e) {
    std::cerr << who << ": error: bad JSON value: " << e.what() << '\n';
    return cli::kInputError;
  } catch (const sc_core::sc_report& e) {
    std::cerr << who << ": simulation error: " << e.what() << '\n';
    return cli::kFailure;
  } catch (const std::bad_alloc&) {
    std::cerr << who << ": out of memory\n";
    return cli::kFailure;
  } catch (const std::exception& e) {
    std::cerr << who << ": internal error: " << e.what() << '\n';
    return cli::kFailure;
  } catch (...) {
    std::cerr << who << ": internal error: unknown exception\n";
    return cli::kFailure;
  }
}
