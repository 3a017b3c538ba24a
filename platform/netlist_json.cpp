#include "platform/netlist_json.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "platform/errors.h"
#include "platform/input_file.h"
#include "platform/limits.h"

namespace tessera {
namespace {

// One open object or array while parsing: the keys seen so far (objects) or the
// index of the next element (arrays), to name duplicates by their JSON path.
struct OpenValue {
  bool is_array = false;
  size_t next_index = 0;
  std::string key;
  std::set<std::string> keys;
};

class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(std::string source) : source_(std::move(source)) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxJsonDepth)
          throw NetlistError(path(), "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                         " levels; a netlist never needs that");
        open_.push_back(OpenValue{event == json::parse_event_t::array_start, 0, "", {}});
        break;
      case json::parse_event_t::key: {
        OpenValue& top = open_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second)
          throw NetlistError(path(), "duplicate key \"" + top.key + "\" in one object (" + source_ +
                                         "); each name may appear once");
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        open_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }

 private:
  void element_done() {
    if (!open_.empty() && open_.back().is_array) ++open_.back().next_index;
  }
  std::string path() const {
    std::string p;
    for (const auto& v : open_) p += v.is_array ? json_path("", v.next_index) : json_path("", v.key);
    return p;
  }

  std::string source_;
  std::vector<OpenValue> open_;
};

// Messages quote the input; keep control bytes and stray binary out of terminals.
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  return out;
}

// nlohmann's message after "[json.exception.parse_error.101] parse error at line 1, column 2: ".
std::string parse_reason(const std::string& what) {
  const size_t colon = what.find(": ");
  return printable(colon == std::string::npos ? what : what.substr(colon + 2));
}

}  // namespace

std::pair<size_t, size_t> line_and_column(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  const size_t end = byte == 0 ? 0 : std::min(byte - 1, text.size());
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

json parse_netlist_json(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw NetlistError("", source + " is empty; expected a JSON object describing a netlist");
  try {
    return json::parse(text, DuplicateKeyCheck(source));
  } catch (const json::parse_error& e) {
    auto [line, column] = line_and_column(text, e.byte);
    throw NetlistError("", "malformed JSON in " + source + " at line " + std::to_string(line) + ", column " +
                               std::to_string(column) + ": " + parse_reason(e.what()));
  }
}

json load_netlist_json(const std::string& file) {
  const std::vector<uint8_t> bytes = read_input_file(file, limits().netlist_bytes, "netlist", "netlist_bytes");
  return parse_netlist_json(std::string(bytes.begin(), bytes.end()), file);
}

std::string describe_json(const json& v) {
  std::string t = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (t.size() > 40) t = t.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + t;
}

}  // namespace tessera
