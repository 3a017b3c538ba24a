#include "platform/netlist.h"

#include <algorithm>

#include "platform/errors.h"
#include "platform/limits.h"
#include "platform/netlist_builder.h"
#include "platform/netlist_json.h"
#include "platform/netlist_names.h"
#include "platform/netlist_reference.h"
#include "platform/stats.h"
#include "platform/units.h"

namespace tessera {
namespace {

const std::vector<std::string> kTopLevelKeys = {"description", "clocks",   "defaults",
                                                "templates",   "components", "bindings",
                                                "address_map", "reference"};
const std::vector<std::string> kTemplateKeys = {"description", "components", "bindings", "address_map"};

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string param_names(const BlockType& t) {
  std::vector<std::string> names;
  for (const auto& p : t.params) names.push_back(p.name);
  return names.empty() ? "it has none" : "its parameters: " + join(names);
}

void require_object(const json& v, const std::string& path, const std::string& what) {
  if (!v.is_object()) throw NetlistError(path, "expected " + what + ", got " + describe_json(v));
}

void check_keys(const json& obj, const std::vector<std::string>& allowed, const std::string& path,
                const std::string& what) {
  for (const auto& [key, value] : obj.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw NetlistError(json_path(path, key), "unknown key \"" + key + "\" in " + what + "; expected one of " +
                                                   join(allowed));
  }
}

// Wraps a UserError from the name parser with the JSON path it came from.
template <class F>
auto at_path(const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const NetlistError&) {
    throw;
  } catch (const UserError& e) {
    throw NetlistError(path, e.what());
  }
}

// "chiplet[*].l2.size" -> pattern "chiplet[*].l2", parameter "size".
Override split_override_path(const std::string& path, const std::string& shown) {
  Override o;
  auto parts = split_path(path);
  if (parts.size() < 2 || parts.back().empty())
    throw UserError("bad override \"" + shown +
                    "\": expected INSTANCE.PARAMETER such as 'mem.size' or 'cu[*].latency'");
  o.param = parts.back();
  o.pattern = path.substr(0, path.size() - o.param.size() - 1);
  parse_segments(o.pattern, SegmentSyntax{true, true, false});  // syntax errors now, with the text
  return o;
}
}  // namespace

Override parse_override(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UserError("bad override \"" + text + "\": expected PATH=VALUE such as 'cu[*].latency=5'");
  const std::string path = text.substr(0, eq);
  const std::string value = text.substr(eq + 1);
  Override o = split_override_path(path, text);
  o.value = json::parse(value, nullptr, false);
  if (o.value.is_discarded()) o.value = value;
  o.origin = "--set " + path;
  return o;
}

std::string SocketRef::text() const {
  return instance + "." + (index < 0 ? socket : indexed_name(socket, index));
}

std::string InstanceSpec::error_path() const {
  std::string p = "/components";
  for (const auto& part : split_path(path)) p += "/" + part;
  return p;
}

const InstanceSpec* Netlist::find(const std::string& path) const {
  for (const auto& i : instances)
    if (i.path == path) return &i;
  return nullptr;
}

Netlist load_netlist(const json& doc, const std::vector<Override>& overrides, const Registry& registry) {
  return NetlistBuilder(doc, registry).build(overrides);
}

Netlist load_netlist_file(const std::string& file, const std::vector<Override>& overrides,
                          const Registry& registry) {
  return load_netlist(load_netlist_json(file), overrides, registry);
}

Netlist NetlistBuilder::build(const std::vector<Override>& overrides) {
  read_top_level();
  std::vector<std::string> stack;
  if (!doc_.contains("components"))
    throw NetlistError("", "missing \"components\": a netlist needs at least its list of blocks");
  const json& components = doc_["components"];
  if (components.is_object()) {  // (no rehash or reallocation on the way for a large netlist)
    names_.reserve(components.size());
    raw_.reserve(components.size());
  }
  expand_components(components, "/components", "", stack);
  collect_scoped_lists(doc_, "", "");
  for (const auto& o : overrides) apply_override(o, "", 0, raw_.size());
  finalize_instances();
  check_host_memory();
  resolve_bindings();
  check_socket_counts();
  resolve_address_maps();
  check_request_sizes();
  check_memory_ports();
  check_memory_side();
  check_cache_mshrs();
  return std::move(out_);
}

void NetlistBuilder::read_top_level() {
  require_object(doc_, "", "a JSON object with \"components\", \"bindings\", ... at the top level");
  check_keys(doc_, kTopLevelKeys, "", "the netlist");
  if (doc_.contains("description") && !doc_["description"].is_string())
    throw NetlistError("/description", "expected a string, got " + describe_json(doc_["description"]));
  read_clocks(doc_.contains("clocks") ? doc_["clocks"] : json::object());
  if (doc_.contains("defaults")) read_defaults(doc_["defaults"]);
  if (doc_.contains("templates")) read_templates(doc_["templates"]);
  if (doc_.contains("reference")) out_.references = read_reference(doc_["reference"], "/reference");
}

void NetlistBuilder::read_clocks(const json& clocks) {
  require_object(clocks, "/clocks", "an object of clock name -> frequency such as {\"core\": \"1 GHz\"}");
  std::map<std::string, std::string> aliases;
  for (const auto& [name, value] : clocks.items()) {
    const std::string path = json_path("/clocks", name);
    // (C++17 lambdas cannot capture a structured binding: an init-capture names it.)
    at_path(path, [&, &name = name] { return parse_segment(name, SegmentSyntax{false, false, false}); });
    if (!value.is_string())
      throw NetlistError(path, "expected a frequency such as \"1.8 GHz\", got " + describe_json(value));
    const std::string text = value.get<std::string>();
    // "default" may name another clock instead of giving a frequency.
    if (name == kBuiltinClockName && clocks.contains(text) && text != name) {
      aliases[name] = text;
      continue;
    }
    out_.clocks[name] = at_path(path, [&] { return parse_quantity(text, Quantity::Frequency); });
    if (out_.clocks[name] <= 0) throw NetlistError(path, "a clock frequency must be positive");
    if (out_.clocks[name] < kMinClockHz || out_.clocks[name] > kMaxClockHz)
      throw NetlistError(path, "clock \"" + text + "\" is outside " + format_quantity(kMinClockHz, Quantity::Frequency) +
                                   " .. " + format_quantity(kMaxClockHz, Quantity::Frequency) +
                                   ": simulated time counts whole picoseconds, so a faster clock's period "
                                   "rounds away, and a slower one's cycles outlast any run");
  }
  for (const auto& [alias, target] : aliases) {
    if (!out_.clocks.count(target))
      throw NetlistError("/clocks/default", "\"default\" names clock \"" + target + "\", which is itself an alias");
    out_.clocks[alias] = out_.clocks[target];
  }
  if (clocks.empty()) {
    out_.clocks[kBuiltinClockName] = kBuiltinClockHz;
    out_.default_clock = kBuiltinClockName;
  } else {
    out_.default_clock = clocks.contains(kBuiltinClockName) ? kBuiltinClockName : clocks.begin().key();
  }
}

void NetlistBuilder::read_defaults(const json& defaults) {
  require_object(defaults, "/defaults", "an object of block type -> {parameter: value}");
  for (const auto& [type_name, params] : defaults.items()) {
    const std::string path = json_path("/defaults", type_name);
    const BlockType* type = registry_.find(type_name);
    if (!type) throw NetlistError(path, "unknown block type \"" + type_name + "\" (see `tessera types`)");
    require_object(params, path, "an object of parameter -> value");
    for (const auto& [param, value] : params.items()) {
      const std::string ppath = json_path(path, param);
      const ParamSpec* spec = type->param(param);
      if (!spec)
        throw NetlistError(ppath, "type " + type_name + " has no parameter \"" + param + "\"; " +
                                      param_names(*type));
      at_path(ppath, [&, &value = value] { return convert_param(*spec, value); });
      defaults_[type_name][param] = RawValue{value, ppath};
    }
  }
}

void NetlistBuilder::read_templates(const json& templates) {
  require_object(templates, "/templates", "an object of template name -> {components, bindings, address_map}");
  for (const auto& [name, body] : templates.items()) {
    const std::string path = json_path("/templates", name);
    at_path(path, [&, &name = name] { return parse_segment(name, SegmentSyntax{false, false, false}); });
    require_object(body, path, "a template: an object with \"components\" and optional \"bindings\", \"address_map\"");
    check_keys(body, kTemplateKeys, path, "a template");
    if (!body.contains("components")) throw NetlistError(path, "a template needs \"components\"");
    templates_[name] = &body;
  }
}

const std::string& NetlistBuilder::clock_name(const json& value, const std::string& path) const {
  if (!value.is_string()) throw NetlistError(path, "expected the name of a clock, got " + describe_json(value));
  auto it = out_.clocks.find(value.get<std::string>());
  if (it == out_.clocks.end()) {
    std::vector<std::string> names;
    for (const auto& c : out_.clocks) names.push_back(c.first);
    throw NetlistError(path, "unknown clock \"" + value.get<std::string>() + "\"; the netlist's clocks: " +
                                 join(names));
  }
  return it->first;
}

void NetlistBuilder::expand_components(const json& components, const std::string& path,
                                       const std::string& prefix, std::vector<std::string>& template_stack) {
  require_object(components, path, "an object of instance name -> {\"type\": ...} or {\"template\": ...}");
  for (const auto& [key, body] : components.items()) {
    const std::string cpath = json_path(path, key);
    const NameSegment seg =
        at_path(cpath, [&, &key = key] { return parse_segment(key, SegmentSyntax{true, false, false}); });
    require_object(body, cpath, "an object with \"type\" (a block) or \"template\"");
    for (const auto& name : expand_segment(seg)) {
      if (body.contains("template"))
        instantiate_template(prefix + name, body, cpath, prefix + name + ".", template_stack);
      else
        add_component(prefix + name, body, cpath);
    }
  }
}

void NetlistBuilder::add_component(const std::string& name, const json& body, const std::string& path) {
  if (!body.contains("type"))
    throw NetlistError(path, "missing \"type\": expected a block type (see `tessera types`) or \"template\"");
  const json& type_value = body["type"];
  if (!type_value.is_string())
    throw NetlistError(json_path(path, "type"), "expected a block type name, got " + describe_json(type_value));
  const BlockType* type = registry_.find(type_value.get<std::string>());
  if (!type)
    throw NetlistError(json_path(path, "type"),
                       "unknown block type \"" + type_value.get<std::string>() + "\" (see `tessera types`)");
  if (name == "simulation")
    throw NetlistError(path, "the instance name \"simulation\" is reserved for the run's own statistics");
  claim_name(name, path).instance = raw_.size();
  RawInstance inst;
  inst.path = name;
  inst.type = type;
  inst.origin = path;
  inst.clock = out_.default_clock;
  for (const auto& [key, value] : body.items()) {
    if (key == "type") continue;
    const std::string ppath = json_path(path, key);
    if (key == "clock") {
      inst.clock = clock_name(value, ppath);
      continue;
    }
    if (!type->param(key))
      throw NetlistError(ppath, "type " + type->name + " has no parameter \"" + key + "\"; " + param_names(*type));
    inst.values[key] = RawValue{value, ppath};
  }
  raw_.push_back(std::move(inst));
}

void NetlistBuilder::instantiate_template(const std::string& name, const json& body, const std::string& path,
                                          const std::string& prefix, std::vector<std::string>& template_stack) {
  check_keys(body, {"template", "set"}, path, "a template instance");
  const json& tname = body["template"];
  if (!tname.is_string())
    throw NetlistError(json_path(path, "template"), "expected a template name, got " + describe_json(tname));
  auto it = templates_.find(tname.get<std::string>());
  if (it == templates_.end())
    throw NetlistError(json_path(path, "template"), "unknown template \"" + tname.get<std::string>() + "\"" +
                                                        (templates_.empty() ? "; the netlist has no \"templates\"" : ""));
  if (std::find(template_stack.begin(), template_stack.end(), it->first) != template_stack.end()) {
    template_stack.push_back(it->first);
    throw NetlistError(json_path(path, "template"), "template cycle: " + join(template_stack, " -> "));
  }
  claim_name(name, path);
  const std::string tpath = json_path("/templates", it->first);
  const size_t first = raw_.size();
  template_stack.push_back(it->first);
  expand_components((*it->second)["components"], json_path(tpath, "components"), prefix, template_stack);
  template_stack.pop_back();
  collect_scoped_lists(*it->second, tpath, prefix);
  if (body.contains("set")) {
    const json& set = body["set"];
    require_object(set, json_path(path, "set"), "an object of \"instance.parameter\" -> value");
    for (const auto& [key, value] : set.items()) {
      const std::string spath = json_path(json_path(path, "set"), key);
      Override o = at_path(spath, [&, &key = key] { return split_override_path(key, key); });
      o.value = value;
      o.origin = spath;
      apply_override(o, prefix, first, raw_.size());
    }
  }
}

NetlistBuilder::Name& NetlistBuilder::claim_name(const std::string& name, const std::string& path) {
  // Checked as names are claimed, so that nested templates stop growing at
  // the limit instead of filling the host's memory first.
  if (names_.size() >= limits().instances)
    throw NetlistError(path, "the netlist expands to more than " + std::to_string(limits().instances) +
                                 " instances (blocks and template instances) " +
                                 limit_hint("instances", limits().instances));
  auto [it, fresh] = names_.try_emplace(name, Name{path, kNoInstance});
  if (!fresh)
    throw NetlistError(path, "instance \"" + name + "\" is defined twice (also at " + it->second.origin + ")");
  return it->second;
}

size_t NetlistBuilder::instance_number(const std::string& path) const {
  auto it = names_.find(path);
  return it == names_.end() ? kNoInstance : it->second.instance;
}

void NetlistBuilder::collect_scoped_lists(const json& scope, const std::string& path, const std::string& prefix) {
  for (const char* key : {"bindings", "address_map"}) {
    if (!scope.contains(key)) continue;
    const std::string lpath = json_path(path, key);
    if (!scope[key].is_array())
      throw NetlistError(lpath, std::string("expected a list, got ") + describe_json(scope[key]));
    (std::string(key) == "bindings" ? binding_lists_ : address_lists_)
        .push_back(ScopedList{&scope[key], lpath, prefix});
  }
}

void NetlistBuilder::apply_override(const Override& o, const std::string& prefix, size_t first, size_t last) {
  const auto pattern = at_path(o.origin, [&] { return parse_segments(o.pattern, SegmentSyntax{true, true, false}); });
  size_t matched = 0;
  for (size_t i = first; i < last; ++i) {
    RawInstance& inst = raw_[i];
    if (inst.path.compare(0, prefix.size(), prefix) != 0) continue;
    const auto parts = split_path(inst.path.substr(prefix.size()));
    if (parts.size() != pattern.size()) continue;
    bool match = true;
    for (size_t k = 0; k < parts.size() && match; ++k) match = segment_matches(pattern[k], parts[k]);
    if (!match) continue;
    ++matched;
    if (o.param == "clock") {
      inst.clock = clock_name(o.value, o.origin);
    } else if (!inst.type->param(o.param)) {
      throw NetlistError(o.origin, "instance " + inst.path + " (type " + inst.type->name + ") has no parameter \"" +
                                       o.param + "\"; " + param_names(*inst.type));
    } else {
      inst.values[o.param] = RawValue{o.value, o.origin};
    }
  }
  if (matched == 0)
    throw NetlistError(o.origin, "\"" + o.pattern + "\" matches no instance" +
                                     (prefix.empty() ? "" : " inside " + prefix.substr(0, prefix.size() - 1)));
}

void NetlistBuilder::check_emulator_count() const {
  uint64_t cp_cores = 0;
  for (const RawInstance& raw : raw_) {
    if (raw.type->name != "cp_core" || ++cp_cores <= limits().cp_cores) continue;
    throw NetlistError(raw.origin, "the netlist has more than " + std::to_string(limits().cp_cores) +
                                       " cp_core blocks, each an emulator with its own memory " +
                                       limit_hint("cp_cores", limits().cp_cores));
  }
}

// The host memory the blocks would take once elaborated, from each type's
// measured figures (BlockType::host_bytes): a netlist that would fill the
// host is refused here rather than killed during elaboration.
void NetlistBuilder::check_host_memory() const {
  struct Share {
    uint64_t blocks = 0;
    double bytes = 0;
  };
  std::map<const BlockType*, Share> by_type;
  double total = 0;
  for (const InstanceSpec& inst : out_.instances) {
    double bytes = static_cast<double>(inst.type->host_bytes);
    if (inst.type->host_bytes_per_size > 0)
      if (const json* size = inst.params.find("size"); size && size->is_number())
        bytes += inst.type->host_bytes_per_size * size->get<double>();
    Share& share = by_type[inst.type];
    ++share.blocks;
    share.bytes += bytes;
    total += bytes;
  }
  const uint64_t limit = limits().platform_bytes;
  if (total <= static_cast<double>(limit)) return;
  auto largest = std::max_element(by_type.begin(), by_type.end(),
                                  [](const auto& a, const auto& b) { return a.second.bytes < b.second.bytes; });
  throw NetlistError("", "the netlist's blocks would take about " + format_rounded_size(total) +
                             " of host memory once elaborated (the largest share: " +
                             std::to_string(largest->second.blocks) + " " + largest->first->name + " blocks, " +
                             format_rounded_size(largest->second.bytes) + "), more than one run may take " +
                             limit_hint("platform_bytes", limit));
}

void NetlistBuilder::finalize_instances() {
  check_emulator_count();
  // A parameter an instance does not set takes its type's value, the same
  // for every instance of the type: it is converted once per type, and error
  // paths are built only for an error (this loop is the bulk of validating
  // a netlist of many components).
  std::map<const BlockType*, TypeValues> type_values;
  out_.instances.reserve(raw_.size());
  for (RawInstance& raw : raw_) {  // (emptied on the way: nothing reads raw_ afterwards)
    InstanceSpec inst;
    inst.path = std::move(raw.path);
    inst.type = raw.type;
    inst.clock_hz = out_.clocks.at(raw.clock);
    inst.clock = std::move(raw.clock);
    inst.origin = std::move(raw.origin);
    auto [shared, first] = type_values.try_emplace(raw.type);
    if (first) shared->second = type_param_values(*raw.type);
    inst.params = ParamValues(shared->second.converted);
    const ParamSpec* missing = nullptr;  // the first parameter left without a value
    for (size_t i = 0; i < raw.type->params.size(); ++i) {
      const ParamSpec& spec = raw.type->params[i];
      auto v = raw.values.find(spec.name);
      if (v != raw.values.end()) {
        if (v->second.value.is_null()) {
          inst.params.erase(spec.name);
          if (!missing) missing = &spec;
        } else {
          inst.params.set(spec.name, converted(inst, spec, v->second));
        }
      } else if (auto bad = shared->second.unconvertible.find(spec.name); bad != shared->second.unconvertible.end()) {
        converted(inst, spec, bad->second);  // throws the conversion's error, with this instance's path
      } else if (!shared->second.inherited[i] && !missing) {
        missing = &spec;
      }
    }
    if (missing) check_required_params(inst);
    if (raw.values.count("address_map")) explicit_address_maps_.insert(inst.path);
    out_.instances.push_back(std::move(inst));
    raw.values.clear();
  }
  raw_ = {};
}

NetlistBuilder::TypeValues NetlistBuilder::type_param_values(const BlockType& type) const {
  TypeValues out;
  ParamValues::Map converted;
  auto type_defaults = defaults_.find(type.name);
  out.inherited.assign(type.params.size(), false);
  for (size_t i = 0; i < type.params.size(); ++i) {
    const ParamSpec& spec = type.params[i];
    RawValue value{spec.default_value, "the default of type " + type.name};
    if (type_defaults != defaults_.end())
      if (auto d = type_defaults->second.find(spec.name); d != type_defaults->second.end()) value = d->second;
    if (value.value.is_null()) continue;
    out.inherited[i] = true;
    try {
      converted.emplace_hint(converted.end(), spec.name, convert_param(spec, value.value));
    } catch (const UserError&) {
      out.unconvertible.emplace(spec.name, std::move(value));
    }
  }
  out.converted = std::make_shared<const ParamValues::Map>(std::move(converted));
  return out;
}

json NetlistBuilder::converted(const InstanceSpec& inst, const ParamSpec& spec, const RawValue& value) const {
  try {
    return convert_param(spec, value.value);
  } catch (const UserError& e) {
    const std::string ppath = json_path(inst.error_path(), spec.name);
    throw NetlistError(ppath, e.what() + (value.origin == ppath ? "" : " (value from " + value.origin + ")"));
  }
}

// A router's address_map may come from the "address_map" lists, which are
// resolved after the bindings; it is checked then.
void NetlistBuilder::check_required_params(const InstanceSpec& inst) const {
  for (const ParamSpec& spec : inst.type->params) {
    if (inst.params.count(spec.name)) continue;
    if (spec.name == "address_map" && spec.kind == ParamKind::Json) continue;
    throw NetlistError(inst.error_path(), "missing required parameter \"" + spec.name + "\" of type " +
                                              inst.type->name + " (" + param_kind_name(spec.kind) +
                                              (spec.doc.empty() ? "" : ": " + spec.doc) + ")");
  }
}

}  // namespace tessera
