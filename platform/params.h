// Parameter schemas and resolved parameter values of a block instance.
//
// A block type declares its parameters as ParamSpecs (name, kind, unit, default,
// range, doc). The netlist loader checks every value against its spec and stores
// it converted to base units, so a block reads `params.size("size")` and gets bytes.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace tessera {

using json = nlohmann::ordered_json;

enum class ParamKind {
  Int,        // JSON integer (counts, cycles)
  Double,     // JSON number
  Bool,       // JSON true/false
  String,     // JSON string
  Enum,       // JSON string, one of `choices`
  Size,       // "16 KiB" -> bytes (uint64); also "0x1000"
  Frequency,  // "1.8 GHz" -> Hz
  Time,       // "40 ns" -> seconds
  Bandwidth,  // "768 GB/s" -> bytes per second
  Json,       // any JSON value, checked by the block itself
};

const char* param_kind_name(ParamKind k);

struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Int;
  json default_value;                // null: the parameter is required
  std::optional<double> min, max;    // inclusive bounds in base units (bytes, Hz, s, B/s)
  std::vector<std::string> choices;  // for Enum
  std::string unit;                  // for documentation of Int/Double ("cycles", "entries")
  std::string doc;

  bool required() const { return default_value.is_null(); }
};

// Builders so that block schemas read as one line per parameter.
ParamSpec int_param(std::string name, int64_t def, std::string doc, std::optional<double> min = {},
                    std::optional<double> max = {}, std::string unit = "");
ParamSpec double_param(std::string name, double def, std::string doc, std::optional<double> min = {},
                       std::optional<double> max = {});
ParamSpec bool_param(std::string name, bool def, std::string doc);
ParamSpec string_param(std::string name, std::string def, std::string doc);
ParamSpec enum_param(std::string name, std::string def, std::vector<std::string> choices, std::string doc);
ParamSpec size_param(std::string name, std::string def, std::string doc, std::optional<double> min = {},
                     std::optional<double> max = {});
ParamSpec frequency_param(std::string name, std::string def, std::string doc);
ParamSpec time_param(std::string name, std::string def, std::string doc);
ParamSpec bandwidth_param(std::string name, std::string def, std::string doc);
ParamSpec json_param(std::string name, json def, std::string doc);

// Checks `value` against `spec` and converts it to base units.
// Throws UserError naming what was expected (the caller adds the JSON path).
json convert_param(const ParamSpec& spec, const json& value);

// The resolved, converted parameter values of one instance. Every parameter of
// the type's schema is present (defaults filled in) once the netlist is validated.
class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, json> values) : values_(std::move(values)) {}

  int64_t integer(const std::string& name) const;
  double number(const std::string& name) const;
  bool boolean(const std::string& name) const;
  std::string string(const std::string& name) const;
  uint64_t size(const std::string& name) const;          // bytes
  double frequency(const std::string& name) const;       // Hz
  sc_core::sc_time time(const std::string& name) const;  // rounded to the SystemC resolution
  double bandwidth(const std::string& name) const;       // bytes per second
  const json& raw(const std::string& name) const;
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  const std::map<std::string, json>& all() const { return values_; }

 private:
  std::map<std::string, json> values_;
};

}  // namespace tessera
