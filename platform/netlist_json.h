// Reading netlist JSON text: nlohmann's parser with the checks a netlist needs
// that the parser does not make itself. Errors say where: malformed JSON with its
// line and column, duplicate keys in one object with their JSON path, nesting
// deeper than any netlist needs.
#pragma once
#include <string>

#include "platform/params.h"

namespace tessera {

// Nesting limit: a netlist is a few levels deep; a million '[' is an attack on the stack.
constexpr int kMaxJsonDepth = 64;

// Parses `text`; `source` names it in messages (a file name). Throws NetlistError.
json parse_netlist_json(const std::string& text, const std::string& source);

// Reads a file (UserError if it cannot be read) and parses it.
json load_netlist_json(const std::string& file);

// 1-based line and column of byte offset `byte` (1-based, as nlohmann reports it).
std::pair<size_t, size_t> line_and_column(const std::string& text, size_t byte);

// JSON-pointer style path element: "/" + key, readable rather than escaped.
inline std::string json_path(const std::string& parent, const std::string& key) {
  return parent + "/" + key;
}
inline std::string json_path(const std::string& parent, size_t index) {
  return parent + "/" + std::to_string(index);
}

// "string \"abc\"", "number 4": how error messages show a value they did not expect.
std::string describe_json(const json& v);

}  // namespace tessera
