#include "platform/netlist_json.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "platform/errors.h"
#include "platform/input_file.h"
#include "platform/limits.h"

namespace tessera {
namespace {

// One open object or array while parsing: where it is, the keys seen so far
// (objects) or the index of the next element (arrays), to name duplicates by
// their JSON path.
struct OpenValue {
  json* value = nullptr;
  bool is_array = false;
  size_t next_index = 0;
  std::string key;
  // An object's members until it closes. Their keys are not const, so the
  // pairs move when the vector grows; ordered_map's own pairs would be
  // copied whole, children and all.
  std::vector<std::pair<std::string, json>> members;
};

// Builds the document from the parser's events (nlohmann's SAX interface).
// nlohmann's own builder is quadratic in the size of an object: its
// ordered_map looks each key up linearly, and the callback form scans a
// parent after each child. Here a key is checked against a hash set and its
// value appended, so a netlist of 200,000 components parses in linear time.
class NetlistReader {
 public:
  explicit NetlistReader(std::string source) : source_(std::move(source)) {}

  json& document() { return document_; }
  size_t error_byte() const { return error_byte_; }
  const std::string& error() const { return error_; }

  bool null() { return add(json(nullptr)); }
  bool boolean(bool v) { return add(json(v)); }
  bool number_integer(json::number_integer_t v) { return add(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return add(json(v)); }
  bool number_float(json::number_float_t v, const std::string&) { return add(json(v)); }
  bool string(json::string_t& v) { return add(json(std::move(v))); }
  bool binary(json::binary_t& v) { return add(json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(json::object(), false); }
  bool start_array(std::size_t) { return open(json::array(), true); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    OpenValue& top = open_.back();
    // A small object (most of a netlist's) is searched as each key comes; a
    // large one once, when it closes (duplicate_in_large_object).
    if (top.members.size() < kLinearKeySearch)
      for (const auto& member : top.members)
        if (member.first == k) throw duplicate(k);
    top.key = std::move(k);
    return true;
  }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) {
    error_byte_ = byte;
    error_ = e.what();
    return false;
  }

 private:
  static constexpr size_t kLinearKeySearch = 16;  // members searched one by one as keys come

  NetlistError duplicate(const std::string& k) const {
    return NetlistError(path_with(k), "duplicate key \"" + k + "\" in one object (" + source_ +
                                          "); each name may appear once");
  }

  // The first key of a large object (by where its second occurrence is) that
  // appears twice, or null. Keys are sorted by hash, then compared where
  // hashes are equal: linear-time work and one sort of integers, without a
  // hash table of copied keys (a netlist's "components" may have 100,000s).
  static const std::string* duplicate_in_large_object(const OpenValue& top) {
    const auto& members = top.members;
    std::vector<std::pair<size_t, size_t>> by_hash(members.size());  // (hash, position)
    for (size_t i = 0; i < members.size(); ++i) by_hash[i] = {std::hash<std::string>{}(members[i].first), i};
    std::sort(by_hash.begin(), by_hash.end());
    size_t first_repeat = members.size();
    for (size_t i = 0; i < by_hash.size();) {
      size_t end = i + 1;
      while (end < by_hash.size() && by_hash[end].first == by_hash[i].first) ++end;
      for (size_t a = i; a < end; ++a)  // (a run of equal hashes: almost always one key)
        for (size_t b = a + 1; b < end; ++b)
          if (members[by_hash[a].second].first == members[by_hash[b].second].first)
            first_repeat = std::min(first_repeat, std::max(by_hash[a].second, by_hash[b].second));
      i = end;
    }
    return first_repeat < members.size() ? &members[first_repeat].first : nullptr;
  }

  // Appends `v` to the open container (or makes it the document); returns where it went.
  json* place(json&& v) {
    if (open_.empty()) {
      document_ = std::move(v);
      return &document_;
    }
    OpenValue& top = open_.back();
    if (top.is_array) {
      ++top.next_index;
      auto& items = top.value->get_ref<json::array_t&>();
      items.push_back(std::move(v));
      return &items.back();
    }
    top.members.emplace_back(top.key, std::move(v));  // (the key stays: error paths name it)
    return &top.members.back().second;
  }
  bool add(json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(json&& v, bool is_array) {
    if (open_.size() >= static_cast<size_t>(kMaxJsonDepth))
      throw NetlistError(path(), "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                     " levels; a netlist never needs that");
    json* where = place(std::move(v));
    open_.push_back(OpenValue{where, is_array, 0, "", {}});
    return true;
  }
  bool close() {
    OpenValue& top = open_.back();
    if (!top.is_array && top.members.size() > kLinearKeySearch)
      if (const std::string* k = duplicate_in_large_object(top)) throw duplicate(*k);
    if (!top.is_array) {
      // Keys are unique (checked above): append without ordered_map's linear search.
      auto& members = static_cast<json::object_t::Container&>(top.value->get_ref<json::object_t&>());
      members.reserve(top.members.size());
      for (auto& [key, value] : top.members) members.emplace_back(std::move(key), std::move(value));
    }
    open_.pop_back();
    return true;
  }
  std::string path() const {
    std::string p;
    for (const auto& v : open_) p += v.is_array ? json_path("", v.next_index) : json_path("", v.key);
    return p;
  }
  std::string path_with(const std::string& key) const {
    std::string p;
    for (size_t i = 0; i + 1 < open_.size(); ++i)
      p += open_[i].is_array ? json_path("", open_[i].next_index) : json_path("", open_[i].key);
    return p + json_path("", key);
  }

  std::string source_;
  json document_;
  std::vector<OpenValue> open_;
  size_t error_byte_ = 0;
  std::string error_;
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
  NetlistReader reader(source);
  if (json::sax_parse(text, &reader)) return std::move(reader.document());
  auto [line, column] = line_and_column(text, reader.error_byte());
  throw NetlistError("", "malformed JSON in " + source + " at line " + std::to_string(line) + ", column " +
                             std::to_string(column) + ": " + parse_reason(reader.error()));
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
