// The converted parameter values of one netlist instance.
//
// Most instances of a type set few of its parameters, and every instance of a
// type that leaves a parameter alone has the same value: so the values an
// instance inherits (its type's defaults and the netlist's "defaults") are one
// map shared by all instances of the type, and each instance keeps only what
// it sets. A netlist of 200,000 components then holds a handful of full
// parameter maps, not 200,000 (docs/RELIABILITY.md, "Validation time").
#pragma once
#include <map>
#include <memory>
#include <string>

#include "platform/params.h"

namespace tessera {

class ParamValues {
 public:
  using Map = std::map<std::string, json>;

  ParamValues() : inherited_(std::make_shared<const Map>()) {}
  explicit ParamValues(std::shared_ptr<const Map> inherited) : inherited_(std::move(inherited)) {}

  // Whether the parameter has a value (0 or 1, as std::map::count).
  size_t count(const std::string& name) const { return find(name) ? 1 : 0; }
  // The value; throws std::out_of_range if there is none (as std::map::at).
  const json& at(const std::string& name) const;
  // The value, or nullptr.
  const json* find(const std::string& name) const;

  void set(const std::string& name, json value) { own_[name] = std::move(value); }
  // Removes the value (a netlist's `null`: the parameter is then missing).
  void erase(const std::string& name);

  // Every value, inherited and own: what a block is elaborated with.
  Map merged() const;

 private:
  std::shared_ptr<const Map> inherited_;
  Map own_;
};

}  // namespace tessera
