#include "platform/params.h"

#include <cmath>

#include "platform/errors.h"
#include "platform/units.h"

namespace tessera {

const char* param_kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Int: return "int";
    case ParamKind::Double: return "number";
    case ParamKind::Bool: return "bool";
    case ParamKind::String: return "string";
    case ParamKind::Enum: return "enum";
    case ParamKind::Size: return "size";
    case ParamKind::Frequency: return "frequency";
    case ParamKind::Time: return "time";
    case ParamKind::Bandwidth: return "bandwidth";
    case ParamKind::Json: return "json";
  }
  return "?";
}

namespace {
ParamSpec make(std::string name, ParamKind kind, json def, std::string doc) {
  ParamSpec s;
  s.name = std::move(name);
  s.kind = kind;
  s.default_value = std::move(def);
  s.doc = std::move(doc);
  return s;
}

std::optional<Quantity> quantity_of(ParamKind k) {
  switch (k) {
    case ParamKind::Size: return Quantity::Size;
    case ParamKind::Frequency: return Quantity::Frequency;
    case ParamKind::Time: return Quantity::Time;
    case ParamKind::Bandwidth: return Quantity::Bandwidth;
    default: return std::nullopt;
  }
}

std::string bound_text(const ParamSpec& s, double v) {
  if (auto q = quantity_of(s.kind)) return format_quantity(v, *q);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

void check_range(const ParamSpec& s, double v) {
  if ((s.min && v < *s.min) || (s.max && v > *s.max)) {
    std::string range = "[" + (s.min ? bound_text(s, *s.min) : std::string("-inf")) + ", " +
                        (s.max ? bound_text(s, *s.max) : std::string("inf")) + "]";
    throw UserError("value " + bound_text(s, v) + " is out of range; expected " + range);
  }
}

std::string got(const json& v) {
  std::string t = v.dump();
  if (t.size() > 40) t = t.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + t;
}
}  // namespace

ParamSpec int_param(std::string name, int64_t def, std::string doc, std::optional<double> min,
                    std::optional<double> max, std::string unit) {
  ParamSpec s = make(std::move(name), ParamKind::Int, def, std::move(doc));
  s.min = min;
  s.max = max;
  s.unit = std::move(unit);
  return s;
}
ParamSpec double_param(std::string name, double def, std::string doc, std::optional<double> min,
                       std::optional<double> max) {
  ParamSpec s = make(std::move(name), ParamKind::Double, def, std::move(doc));
  s.min = min;
  s.max = max;
  return s;
}
ParamSpec bool_param(std::string name, bool def, std::string doc) {
  return make(std::move(name), ParamKind::Bool, def, std::move(doc));
}
ParamSpec string_param(std::string name, std::string def, std::string doc) {
  return make(std::move(name), ParamKind::String, std::move(def), std::move(doc));
}
ParamSpec enum_param(std::string name, std::string def, std::vector<std::string> choices, std::string doc) {
  ParamSpec s = make(std::move(name), ParamKind::Enum, std::move(def), std::move(doc));
  s.choices = std::move(choices);
  return s;
}
ParamSpec size_param(std::string name, std::string def, std::string doc, std::optional<double> min,
                     std::optional<double> max) {
  ParamSpec s = make(std::move(name), ParamKind::Size, std::move(def), std::move(doc));
  s.min = min;
  s.max = max;
  return s;
}
ParamSpec frequency_param(std::string name, std::string def, std::string doc) {
  ParamSpec s = make(std::move(name), ParamKind::Frequency, std::move(def), std::move(doc));
  s.min = 1.0;
  return s;
}
ParamSpec time_param(std::string name, std::string def, std::string doc) {
  ParamSpec s = make(std::move(name), ParamKind::Time, std::move(def), std::move(doc));
  // Simulated time ends at 2^64 ps (about 213 days); no latency comes near an hour.
  s.max = 3600.0;
  return s;
}
ParamSpec bandwidth_param(std::string name, std::string def, std::string doc) {
  ParamSpec s = make(std::move(name), ParamKind::Bandwidth, std::move(def), std::move(doc));
  s.min = 1.0;
  return s;
}
ParamSpec json_param(std::string name, json def, std::string doc) {
  return make(std::move(name), ParamKind::Json, std::move(def), std::move(doc));
}

json convert_param(const ParamSpec& s, const json& v) {
  switch (s.kind) {
    case ParamKind::Int: {
      if (!v.is_number_integer())
        throw UserError(std::string("expected an integer") + (s.unit.empty() ? "" : " (" + s.unit + ")") +
                        ", got " + got(v));
      check_range(s, static_cast<double>(v.get<int64_t>()));
      return v;
    }
    case ParamKind::Double: {
      if (!v.is_number()) throw UserError("expected a number, got " + got(v));
      check_range(s, v.get<double>());
      return v.get<double>();
    }
    case ParamKind::Bool:
      if (!v.is_boolean()) throw UserError("expected true or false, got " + got(v));
      return v;
    case ParamKind::String:
      if (!v.is_string()) throw UserError("expected a string, got " + got(v));
      return v;
    case ParamKind::Enum: {
      if (v.is_string())
        for (const auto& c : s.choices)
          if (v.get_ref<const std::string&>() == c) return v;
      std::string list;
      for (const auto& c : s.choices) list += (list.empty() ? "" : ", ") + ("\"" + c + "\"");
      if (!v.is_string()) throw UserError("expected one of " + list + ", got " + got(v));
      throw UserError("expected one of " + list + ", got \"" + v.get<std::string>() + "\"");
    }
    case ParamKind::Size:
    case ParamKind::Frequency:
    case ParamKind::Time:
    case ParamKind::Bandwidth: {
      Quantity q = *quantity_of(s.kind);
      if (!v.is_string())
        throw UserError(std::string("expected a ") + quantity_name(q) + " with a unit as a string such as " +
                        quantity_example(q) + ", got " + got(v));
      double x = parse_quantity(v.get<std::string>(), q);
      if (s.kind == ParamKind::Size) {
        if (x != std::floor(x)) throw UserError("expected a whole number of bytes, got " + got(v));
        check_size_range(x, v.get<std::string>());
        check_range(s, x);
        return static_cast<uint64_t>(x);
      }
      check_range(s, x);
      return x;
    }
    case ParamKind::Json: return v;
  }
  return v;
}

const json& Params::raw(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("parameter '" + name + "' was not declared by the block type");
  return it->second;
}
int64_t Params::integer(const std::string& n) const { return raw(n).get<int64_t>(); }
double Params::number(const std::string& n) const { return raw(n).get<double>(); }
bool Params::boolean(const std::string& n) const { return raw(n).get<bool>(); }
std::string Params::string(const std::string& n) const { return raw(n).get<std::string>(); }
uint64_t Params::size(const std::string& n) const { return raw(n).get<uint64_t>(); }
double Params::frequency(const std::string& n) const { return raw(n).get<double>(); }
double Params::bandwidth(const std::string& n) const { return raw(n).get<double>(); }
sc_core::sc_time Params::time(const std::string& n) const {
  return sc_core::sc_time(raw(n).get<double>(), sc_core::SC_SEC);
}

}  // namespace tessera
