// `tessera types [TYPE] [--json]`: the registered block types, their
// parameters (kind, unit, default, range, doc) and their sockets.
#include <cstdio>
#include <iostream>

#include "platform/cli.h"
#include "platform/errors.h"
#include "platform/options.h"
#include "platform/registry.h"
#include "platform/units.h"

namespace tessera {
namespace {

std::optional<Quantity> quantity_of(ParamKind k) {
  switch (k) {
    case ParamKind::Size: return Quantity::Size;
    case ParamKind::Frequency: return Quantity::Frequency;
    case ParamKind::Time: return Quantity::Time;
    case ParamKind::Bandwidth: return Quantity::Bandwidth;
    default: return std::nullopt;
  }
}

std::string bound(const ParamSpec& p, const std::optional<double>& v, const char* open) {
  if (!v) return open;
  if (auto q = quantity_of(p.kind)) return format_quantity(*v, *q);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", *v);
  return buf;
}

std::string range_text(const ParamSpec& p) {
  if (!p.choices.empty()) {
    std::string s;
    for (const auto& c : p.choices) s += (s.empty() ? "" : "|") + c;
    return s;
  }
  if (!p.min && !p.max) return "";
  return "[" + bound(p, p.min, "-inf") + ", " + bound(p, p.max, "inf") + "]";
}

std::string default_text(const ParamSpec& p) {
  return p.required() ? "required" : "default " + p.default_value.dump();
}

json type_json(const BlockType& t) {
  json params = json::array(), sockets = json::array();
  for (const auto& p : t.params)
    params.push_back({{"name", p.name}, {"kind", param_kind_name(p.kind)}, {"unit", p.unit},
                      {"default", p.default_value}, {"required", p.required()},
                      {"min", p.min ? json(*p.min) : json()}, {"max", p.max ? json(*p.max) : json()},
                      {"choices", p.choices}, {"doc", p.doc}});
  for (const auto& s : t.sockets)
    sockets.push_back({{"name", s.name}, {"direction", s.dir == SocketDir::Initiator ? "initiator" : "target"},
                       {"protocol", s.protocol}, {"vector", s.vector}, {"required", s.required}, {"doc", s.doc},
                       {"request_limit", s.request_limit}, {"forwards_to", s.forwards_to}});
  return {{"name", t.name}, {"doc", t.doc}, {"params", params}, {"sockets", sockets}};
}

void print_type(std::ostream& os, const BlockType& t) {
  os << t.name << (t.doc.empty() ? "" : ": " + t.doc) << '\n';
  os << "  parameters:" << (t.params.empty() ? " none" : "") << '\n';
  for (const auto& p : t.params) {
    std::string kind = param_kind_name(p.kind);
    if (!p.unit.empty()) kind += " (" + p.unit + ")";
    const std::string range = range_text(p);
    os << "    " << p.name << "  " << kind << "  " << default_text(p)
       << (range.empty() ? "" : "  range " + range) << '\n';
    if (!p.doc.empty()) os << "        " << p.doc << '\n';
  }
  os << "  sockets:" << (t.sockets.empty() ? " none" : "") << '\n';
  for (const auto& s : t.sockets) {
    os << "    " << s.name << (s.vector ? "[]" : "") << "  "
       << (s.dir == SocketDir::Initiator ? "initiator" : "target") << "  protocol " << s.protocol
       << (s.required ? "" : "  optional")
       << (s.request_limit.empty() ? "" : "  requests up to " + s.request_limit)
       << (s.forwards_to.empty() ? "" : "  forwards to " + s.forwards_to) << '\n';
    if (!s.doc.empty()) os << "        " << s.doc << '\n';
  }
}

int run_types(const std::vector<std::string>& args) {
  const auto parsed = cli::parse_args(args, {{"--json"}}, 0, 1);
  const auto& types = Registry::instance().types();
  std::vector<const BlockType*> shown;
  if (parsed.positional.empty()) {
    for (const auto& [name, t] : types) shown.push_back(&t);
  } else if (const BlockType* t = Registry::instance().find(parsed.positional[0])) {
    shown.push_back(t);
  } else {
    std::string names;
    for (const auto& [name, t] : types) names += (names.empty() ? "" : ", ") + name;
    throw UsageError("unknown block type \"" + parsed.positional[0] + "\"; registered types: " + names);
  }
  if (parsed.flag("--json")) {
    json out = json::array();
    for (const BlockType* t : shown) out.push_back(type_json(*t));
    std::cout << out.dump(2) << '\n';
    return cli::kOk;
  }
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i) std::cout << '\n';
    print_type(std::cout, *shown[i]);
  }
  return cli::kOk;
}

TESSERA_REGISTER_COMMAND(types_command,
                         cli::Command{"types", "list the registered block types, their parameters and sockets",
                                      "usage: tessera types [TYPE] [--json]\n\n"
                                      "Prints every registered block type (or only TYPE): each parameter with its\n"
                                      "kind, unit, default, range and meaning, and each socket with its direction\n"
                                      "and protocol. --json prints the same as a JSON array.\n",
                                      run_types});

}  // namespace
}  // namespace tessera
