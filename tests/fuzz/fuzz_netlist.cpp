// libFuzzer target: netlist parsing and validation (platform/netlist*.cpp)
// with the registry of every block type. Any input must end in a netlist or
// in the input errors `tessera validate` reports (UserError, or a JSON value
// of the wrong type); anything else (a crash, a sanitizer report, another
// exception, a leak) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "platform/errors.h"
#include "platform/netlist.h"
#include "platform/netlist_json.h"

// libsystemc needs the symbol; libFuzzer's main() runs instead.
extern "C" int sc_main(int, char**) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    tessera::load_netlist(tessera::parse_netlist_json(text, "fuzz.json"));
  } catch (const tessera::UserError&) {
  } catch (const tessera::json::exception&) {
  }
  return 0;
}
