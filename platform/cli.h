// The `tessera` command line: subcommands register themselves here, each in its
// own platform/cmd_<name>.cpp, so that adding one touches no shared file.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tessera::cli {

// Conventional exit codes.
enum ExitCode : int {
  kOk = 0,
  kFailure = 1,       // the run finished but something was wrong (bad data, a fault)
  kUsage = 2,         // bad command line
  kInputError = 3,    // bad input file: netlist, code object, firmware
  kInterrupted = 128,  // plus the signal: a run stopped by SIGINT (130) or SIGTERM (143)
};

struct Command {
  std::string name;
  std::string summary;  // one line for `tessera --help`
  std::string usage;    // full text for `tessera NAME --help`
  std::function<int(const std::vector<std::string>& args)> run;  // args exclude the command name
};

std::map<std::string, Command>& commands();

struct CommandRegistrar {
  explicit CommandRegistrar(Command c) {
    std::string n = c.name;
    commands().emplace(n, std::move(c));
  }
};

}  // namespace tessera::cli

#define TESSERA_REGISTER_COMMAND(var, ...) static const ::tessera::cli::CommandRegistrar var{__VA_ARGS__}
