#include "platform/cli.h"

namespace tessera::cli {

// A function-local static: commands register during static initialisation, in
// whatever order their files are linked.
std::map<std::string, Command>& commands() {
  static std::map<std::string, Command> registered;
  return registered;
}

}  // namespace tessera::cli
