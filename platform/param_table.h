// ParamTable<Config>: each parameter of a block declared once.
//
// A declaration names the config-struct field the value goes to and the
// parameter's ParamSpec (name, default, range, unit and doc, made with the
// builders of platform/params.h). From the one table come both the block
// type's schema (what the netlist is checked against and `tessera types`
// prints) and the reading of an instance's checked values into its config:
//
//   const ParamTable<MemoryConfig>& memory_param_table() {
//     static const auto table = ParamTable<MemoryConfig>()
//         .add(&MemoryConfig::latency, time_param("latency", "40 ns", "time from ..."))
//         .add(&MemoryConfig::queue_depth, int_param("queue_depth", 16, "requests ...", 1, 1048576, "requests"));
//     return table;
//   }
//   t.params = memory_param_table().specs();                 // the schema
//   MemoryConfig c = memory_param_table().read(ctx.params);  // the values, in base units
//
// Adding a parameter is one `.add(...)` line and the field it fills. Block
// types that share an engine but differ in defaults (the four caches) pass
// their defaults to specs(). A block that extends another's parameters
// derives its config from the other's and include()s its table. Checks that
// involve several parameters stay with the block, after read().
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "platform/params.h"

namespace tessera {

template <class Config>
class ParamTable {
 public:
  // A parameter whose converted value is stored in `field`: an integral field
  // takes an Int or a Size, a floating-point one a Double, Time (seconds),
  // Frequency or Bandwidth, bool a Bool, std::string a String or an Enum,
  // sc_time a Time, json anything.
  template <class T>
  ParamTable& add(T Config::*field, ParamSpec spec) {
    const std::string name = spec.name;
    const ParamKind kind = spec.kind;
    entries_.push_back(Entry{std::move(spec), [field, name, kind](Config& c, const Params& p) {
                               c.*field = read_as<T>(p, name, kind);
                             }});
    return *this;
  }
  // An Enum stored as a flag: true when the value is `when_true`.
  ParamTable& add_flag(bool Config::*field, ParamSpec spec, std::string when_true) {
    const std::string name = spec.name;
    entries_.push_back(Entry{std::move(spec), [field, name, when_true](Config& c, const Params& p) {
                               c.*field = p.string(name) == when_true;
                             }});
    return *this;
  }
  // Every parameter of `base`, a table of a base class of Config (a block
  // that extends another block's parameters, or several blocks sharing a
  // group of them), read into Config's Base part.
  template <class Base>
  ParamTable& include(const ParamTable<Base>& base) {
    static_assert(std::is_base_of_v<Base, Config>, "include() takes a table of a base class of the config");
    for (const auto& e : base.entries_) {
      auto read = e.read;
      entries_.push_back(Entry{e.spec, read ? std::function<void(Config&, const Params&)>(
                                                  [read](Config& c, const Params& p) { read(c, p); })
                                            : nullptr});
    }
    return *this;
  }
  // A parameter accepted and checked but stored nowhere (a choice with one
  // value so far, kept in the schema for netlists to name).
  ParamTable& add(ParamSpec spec) {
    entries_.push_back(Entry{std::move(spec), nullptr});
    return *this;
  }

  // The schema, with the defaults in `defaults` (an object of parameter name
  // to JSON value, as a netlist writes it) in place of the declared ones.
  std::vector<ParamSpec> specs(const json& defaults = json::object()) const {
    std::vector<ParamSpec> out;
    for (const Entry& e : entries_) out.push_back(e.spec);
    for (const auto& item : defaults.items()) {
      bool found = false;
      for (ParamSpec& s : out)
        if (s.name == item.key()) {
          convert_param(s, item.value());  // a default must satisfy its own spec
          s.default_value = item.value();
          found = true;
        }
      if (!found) throw std::logic_error("a default for '" + item.key() + "', which is not a parameter");
    }
    return out;
  }

  // Every parameter at its declared default, converted as the netlist loader
  // converts a value: what read() gets for an instance that sets nothing.
  Params default_params() const {
    std::map<std::string, json> values;
    for (const Entry& e : entries_)
      if (!e.spec.required()) values[e.spec.name] = convert_param(e.spec, e.spec.default_value);
    return Params(std::move(values));
  }

  // Every parameter's value (checked and converted by the netlist loader).
  Config read(const Params& p) const {
    Config c{};
    for (const Entry& e : entries_)
      if (e.read) e.read(c, p);
    return c;
  }

 private:
  template <class>
  friend class ParamTable;

  struct Entry {
    ParamSpec spec;
    std::function<void(Config&, const Params&)> read;
  };

  template <class T>
  static T read_as(const Params& p, const std::string& name, ParamKind kind) {
    if constexpr (std::is_same_v<T, bool>) {
      return p.boolean(name);
    } else if constexpr (std::is_same_v<T, std::string>) {
      return p.string(name);
    } else if constexpr (std::is_same_v<T, sc_core::sc_time>) {
      return p.time(name);
    } else if constexpr (std::is_same_v<T, json>) {
      return p.raw(name);
    } else if constexpr (std::is_floating_point_v<T>) {
      switch (kind) {
        case ParamKind::Bandwidth: return static_cast<T>(p.bandwidth(name));
        case ParamKind::Frequency: return static_cast<T>(p.frequency(name));
        case ParamKind::Time: return static_cast<T>(p.time(name).to_seconds());
        default: return static_cast<T>(p.number(name));
      }
    } else {
      static_assert(std::is_integral_v<T>, "a parameter field is integral, floating-point, bool, string, sc_time or json");
      return static_cast<T>(kind == ParamKind::Size ? p.size(name) : p.integer(name));
    }
  }

  std::vector<Entry> entries_;
};

}  // namespace tessera

namespace tessera {

// `spec` without a default: the netlist must give the parameter.
inline ParamSpec required(ParamSpec spec) {
  spec.default_value = nullptr;
  return spec;
}

}  // namespace tessera
