// Internal to the netlist loader: the state of one load_netlist() call while it
// expands components and templates (netlist.cpp), resolves bindings
// (netlist_bindings.cpp) and address maps (netlist_address_map.cpp).
#pragma once
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "platform/netlist.h"

namespace tessera {

// A parameter value as written, before conversion, with where it was written.
struct RawValue {
  json value;
  std::string origin;
};

// An instance while the netlist is being expanded.
struct RawInstance {
  std::string path;
  const BlockType* type = nullptr;
  std::string clock;
  std::string origin;
  std::map<std::string, RawValue> values;
};

// A "bindings" or "address_map" list and the scope its names are resolved in:
// top level (prefix "") or one template instance (prefix "chiplet[2].").
struct ScopedList {
  const json* list;
  std::string json_path;
  std::string prefix;
};

class NetlistBuilder {
 public:
  NetlistBuilder(const json& doc, const Registry& registry) : doc_(doc), registry_(registry) {}
  Netlist build(const std::vector<Override>& overrides);

 private:
  // A block or template instance name: where it was declared and, for a
  // block, its position in raw_ and out_.instances.
  struct Name {
    std::string origin;
    size_t instance;
  };
  static constexpr size_t kNoInstance = static_cast<size_t>(-1);  // a template instance's Name

  // netlist.cpp: structure, clocks, defaults, components, templates, parameters.
  void read_top_level();
  void read_clocks(const json& clocks);
  void read_defaults(const json& defaults);
  void read_templates(const json& templates);
  void expand_components(const json& components, const std::string& path, const std::string& prefix,
                         std::vector<std::string>& template_stack);
  void add_component(const std::string& name, const json& body, const std::string& path);
  void instantiate_template(const std::string& name, const json& body, const std::string& path,
                            const std::string& prefix, std::vector<std::string>& template_stack);
  Name& claim_name(const std::string& name, const std::string& path);
  void collect_scoped_lists(const json& scope, const std::string& path, const std::string& prefix);
  void apply_override(const Override& o, const std::string& prefix, size_t first, size_t last);
  void check_emulator_count() const;
  void finalize_instances();
  void check_host_memory() const;
  // The parameter values every instance of a type starts from: its defaults
  // converted, and those that do not convert (an error only for an instance
  // that does not set its own value).
  struct TypeValues {
    std::shared_ptr<const ParamValues::Map> converted;
    std::map<std::string, RawValue> unconvertible;
    std::vector<bool> inherited;  // per parameter of the type (in its order): whether `converted` holds it
  };
  TypeValues type_param_values(const BlockType& type) const;
  json converted(const InstanceSpec& inst, const ParamSpec& spec, const RawValue& value) const;
  void check_required_params(const InstanceSpec& inst) const;
  const std::string& clock_name(const json& value, const std::string& path) const;

  // netlist_bindings.cpp
  void resolve_bindings();
  void resolve_binding(const std::string& text, const std::string& path, const std::string& prefix);
  // A socket a binding names, found: its instance's number (in out_.instances)
  // and the socket's position among its type's sockets.
  struct ResolvedSocket {
    size_t instance;
    size_t socket;
    const SocketSpec* spec;
  };
  void bind_pair(const SocketRef& left, const SocketRef& right, const std::string& path);
  ResolvedSocket resolve_socket(const SocketRef& ref, const std::string& path) const;
  std::vector<int64_t> existing_indices(const std::string& prefix, const std::string& base) const;
  void check_socket_counts();

  // netlist_request_sizes.cpp
  void check_request_sizes();

  // netlist_memory_ports.cpp
  const InstanceSpec& memory_behind(size_t binding) const;
  void check_memory_ports() const;
  void check_memory_side() const;
  void check_cache_mshrs() const;

  // netlist_address_map.cpp
  void resolve_address_maps();
  void resolve_address_entry(const json& entry, const std::string& path, const std::string& prefix,
                             std::map<std::string, json>& maps);

  const json& doc_;
  const Registry& registry_;
  Netlist out_;
  std::vector<RawInstance> raw_;
  // Every block and template instance name, hashed (a netlist may have
  // 100,000s); pattern bindings, which need the names in order, sort them
  // once (sorted_names_, on first use).
  std::unordered_map<std::string, Name> names_;
  mutable std::vector<const std::string*> sorted_names_;
  // The position of the block named `path` in out_.instances, or kNoInstance.
  size_t instance_number(const std::string& path) const;
  std::map<std::string, const json*> templates_;
  std::map<std::string, std::map<std::string, RawValue>> defaults_;  // type -> param -> value
  std::vector<ScopedList> binding_lists_, address_lists_;
  std::set<std::string> explicit_address_maps_;  // routers whose address_map was written directly
  std::map<std::string, std::vector<std::string>> range_origins_;  // router -> JSON path of each range

  // Binding state, kept by number rather than by name (the checks after
  // resolution visit every binding and socket; a netlist may have 100,000s).
  // bound_[instance][socket]: the index bound (-1 for a scalar socket) ->
  // the binding that bound it (its position in out_.bindings), in index order.
  using SocketBindings = std::map<int, size_t>;
  std::vector<std::vector<SocketBindings>> bound_;
  std::vector<std::pair<size_t, size_t>> binding_ends_;  // per binding: its initiator's and target's instance numbers
  // The bindings of socket `socket` (its position in the type) of an instance.
  const SocketBindings& bindings_at(size_t instance, size_t socket) const;
  // The bindings from one socket of an instance (none if it has no such socket).
  const SocketBindings& bindings_from(size_t instance, const std::string& socket) const;
};

}  // namespace tessera
