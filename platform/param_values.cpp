#include "platform/param_values.h"

#include <stdexcept>

namespace tessera {

const json* ParamValues::find(const std::string& name) const {
  if (auto it = own_.find(name); it != own_.end()) return &it->second;
  if (auto it = inherited_->find(name); it != inherited_->end()) return &it->second;
  return nullptr;
}

const json& ParamValues::at(const std::string& name) const {
  if (const json* v = find(name)) return *v;
  throw std::out_of_range("no parameter value \"" + name + "\"");
}

void ParamValues::erase(const std::string& name) {
  // Rare (a parameter set to null): the inherited values are copied into this
  // instance's own, so that one of them can be removed.
  if (inherited_->count(name)) {
    own_ = merged();
    inherited_ = std::make_shared<const Map>();
  }
  own_.erase(name);
}

ParamValues::Map ParamValues::merged() const {
  Map all = *inherited_;
  for (const auto& [name, value] : own_) all[name] = value;
  return all;
}

}  // namespace tessera
